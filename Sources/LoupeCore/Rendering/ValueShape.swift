/// Which parts of a rendered value are Swift enum cases and tuples — what the JSON alone
/// cannot say.
///
/// The rendering of `.idle` is `"idle"`, the same as the string `"idle"`; the rendering of
/// `.loading(progress: 0.5)` is `{"loading":{"progress":0.5}}`, the same as a struct with one
/// field. Only the program knows the types, so it says where the enum cases and tuples are,
/// next to the value (`shape` on `action.received` and `state.snapshot`, `oldShape` and
/// `newShape` on a change). Readers use it to print Swift — `.idle`,
/// `.loading(progress: 0.5)` — and without it (older traces) print the JSON-like text.
///
/// Each list holds paths relative to the value, in the syntax of `protocol/values.md`, with
/// `[*]` standing for every element (or dictionary value) of a collection:
///
/// ```swift
/// // AppFeature.Action.rows(.element(id: 1, action: .startTapped))
/// // value: {"rows":{"element":{"id":1,"action":"startTapped"}}}
/// ValueShape(enums: ["", "rows", "rows.element.action"], tuples: ["rows.element"])
/// // [Mode.idle, .playing(1.5)]:  ValueShape(enums: ["[*]"])
/// ```
///
/// `[*]` is written only when it holds for every element; otherwise the elements are named
/// one by one (`[0]`, `["key"]`).
public struct ValueShape: Sendable, Hashable {
  /// The paths of the values that are enum cases: a case without a payload renders as its
  /// name (`"idle"`), one with a payload as `{"case": payload}`.
  public var enums: [String]
  /// The paths of the values that are tuples, among them the payloads of enum cases that
  /// carry several values or labelled ones (`.seeking(to: 3)`: `seeking` is a tuple).
  public var tuples: [String]

  public init(enums: [String] = [], tuples: [String] = []) {
    self.enums = enums
    self.tuples = tuples
  }

  /// No enum case and no tuple anywhere.
  public var isEmpty: Bool { enums.isEmpty && tuples.isEmpty }

  /// The shape, or `nil` when it is empty (then it is left off the wire).
  public var nonEmpty: ValueShape? { isEmpty ? nil : self }

  // MARK: - Wire form

  /// `{"enums": [...], "tuples": [...]}`, each list left out when empty.
  public var json: JSON {
    var object = JSONObject()
    if !enums.isEmpty { object.append("enums", .array(enums.map(JSON.string))) }
    if !tuples.isEmpty { object.append("tuples", .array(tuples.map(JSON.string))) }
    return .object(object)
  }

  public func encode(into w: inout JSONWriter) {
    // Most actions' shape: one enum case at the root, no tuple. Written as one literal.
    if tuples.isEmpty, enums.count == 1, enums[0].isEmpty {
      w.separate()
      w.member(#"{"enums":[""]}"#)
      w.needsComma = true
      return
    }
    w.beginObject()
    if !enums.isEmpty {
      w.key("enums")
      Self.encode(enums, into: &w)
    }
    if !tuples.isEmpty {
      w.key("tuples")
      Self.encode(tuples, into: &w)
    }
    w.endObject()
  }

  /// Writes `paths` as an array of strings, read in place (a `for` loop copies each out).
  private static func encode(_ paths: [String], into w: inout JSONWriter) {
    w.beginArray()
    paths.withUnsafeBufferPointer { paths in
      for index in paths.indices { w.string(paths[index]) }
    }
    w.endArray()
  }

  /// The shape of a value that is a case and holds no other case or tuple (most actions).
  static let rootEnum = ValueShape(enums: [""])

  /// Reads the wire form; `nil` when `json` is not an object whose `enums` and `tuples`
  /// (each optional) are arrays of strings.
  public init?(json: JSON) {
    guard case .object(let object) = json else { return nil }
    func strings(_ key: String) -> [String]?? {
      guard let value = object[key] else { return .some(nil) }
      guard case .array(let items) = value else { return nil }
      var texts: [String] = []
      texts.reserveCapacity(items.count)
      for item in items {
        guard case .string(let text) = item else { return nil }
        texts.append(text)
      }
      return .some(texts)
    }
    guard let enums = strings("enums"), let tuples = strings("tuples") else { return nil }
    self.init(enums: enums ?? [], tuples: tuples ?? [])
  }

  // MARK: - Parts

  /// The shape of the value found at `relative` inside the value this shape describes: the
  /// shape of a change's `old` or `new` when the change was cut out of a larger rendering.
  ///
  /// `[*]` matches any element, dictionary value or id. An element named by its position
  /// (`[2]`) is matched only when `positionsHold` — positions in a diff of renderings are
  /// those of the new value, so on the old side a positional entry is dropped rather than
  /// risk naming the wrong element (the reader then prints that part as JSON text).
  public func descending(_ relative: [StatePath.Component], positionsHold: Bool = true) -> ValueShape? {
    if relative.isEmpty { return nonEmpty }
    func below(_ paths: [String]) -> [String] {
      var kept: [String] = []
      for path in paths {
        guard let steps = try? StatePath.parse(path, wildcards: true), steps.count >= relative.count else { continue }
        var matches = true
        for (step, component) in zip(steps, relative) where !Self.step(step, matches: component, positionsHold: positionsHold) {
          matches = false
          break
        }
        if matches { kept.append(Self.text(steps.dropFirst(relative.count))) }
      }
      return kept
    }
    return ValueShape(enums: below(enums), tuples: below(tuples)).nonEmpty
  }

  private static func step(_ step: StatePath.Component?, matches component: StatePath.Component, positionsHold: Bool) -> Bool {
    switch (step, component) {
    // `[*]` stands for the members of a dictionary, which a JSON reader may name as fields.
    case (nil, _): return true
    case (.field(let a)?, .field(let b)), (.field(let a)?, .key(let b)), (.key(let a)?, .field(let b)), (.key(let a)?, .key(let b)):
      return a == b
    case (.index(let a)?, .index(let b)): return positionsHold && a == b
    default: return false
    }
  }

  /// The text of shape path steps (`nil` is `[*]`).
  static func text(_ steps: some Sequence<StatePath.Component?>) -> String {
    var text = ""
    for step in steps {
      if let step { StatePath.append(step, to: &text) } else { text += "[*]" }
    }
    return text
  }

  /// `prefix` and a path relative to it, joined: `rows` + `[*].status`, `rows` + `status`.
  static func join(_ prefix: String, _ relative: String) -> String {
    if prefix.isEmpty { return relative }
    if relative.isEmpty { return prefix }
    if relative.utf8.first == UInt8(ascii: "[") { return prefix + relative }
    return prefix + "." + relative
  }
}

extension ValueShape {
  /// Adds `other`, the shape of the value at `path` inside the value this shape describes —
  /// what a reader rebuilding a state from a snapshot and changes does with each change's
  /// `newShape`.
  ///
  /// Elements named by position, id or key become `[*]`: in a rebuilt state positions move
  /// and ids come and go, while whether a path holds an enum case follows from the types
  /// along it, which are the same for every element. Paths are only ever added: a value
  /// that is no longer a case (an optional now `nil`) shows as what it is anyway. (The one
  /// thing this can get wrong: a value of type `Any` that held a case and later holds a
  /// string that reads like a case name.)
  public mutating func merge(_ other: ValueShape, at path: StatePath) {
    let prefix = Self.text(path.components.map(Self.general))
    func add(_ paths: [String], to list: inout [String]) {
      for relative in paths {
        guard let steps = try? StatePath.parse(relative, wildcards: true) else { continue }
        let full = Self.join(prefix, Self.text(steps.map { $0.flatMap(Self.general) }))
        if !list.contains(full) { list.append(full) }
      }
    }
    add(other.enums, to: &enums)
    add(other.tuples, to: &tuples)
  }

  /// ``merge(_:at:)`` on a copy.
  public func merging(_ other: ValueShape, at path: StatePath) -> ValueShape {
    var copy = self
    copy.merge(other, at: path)
    return copy
  }

  /// A component as a rebuilt shape names it: fields as they are, elements as `[*]` (`nil`).
  private static func general(_ component: StatePath.Component) -> StatePath.Component? {
    if case .field = component { return component }
    return nil
  }
}
