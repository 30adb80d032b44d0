/// One expected event: its kind, and the fields you care about. Every field you leave out
/// matches anything.
///
/// Build them with the static functions, one per kind, and hand a list to
/// ``DiagnosticStream/expect(_:kinds:stores:exhaustivity:fileID:filePath:line:column:)``:
///
/// ```swift
/// recorder.expect([
///   .action("PageFeature.Action.onAppear", store: "PageFeature#2"),
///   .effectCancelled(cancelID: "timer", reason: .cancelInFlight, by: "PageFeature#2"),
///   .effectStarted(store: "PageFeature#2", cancelID: "timer"),
///   .action(PageFeature.Action.timerTicked, origin: .effect),
///   .stateChanged(paths: ["count"]),
/// ])
/// ```
///
/// Text fields are patterns (see ``Glob``: `*` any run of characters, `?` one character), so
/// `store: "AppFeature#1/pages*"` matches every page. Action labels and cancel ids are
/// `Type.case` texts (`PageFeature.Action.timerTicked`, `PageFeature.CancelID.timer`); a
/// pattern without a `.` may name the case alone: `"timerTicked"`, `"timer"`.
public struct EventExpectation: Sendable, CustomStringConvertible {
  /// One field an expectation checks: its text in messages, and the test.
  struct Field: Sendable {
    let text: String
    let matches: @Sendable (Event.Payload) -> Bool
  }

  let kind: Glob
  let store: Glob?
  let fields: [Field]

  init(kind: String, store: String?, fields: [Field?] = []) {
    self.kind = Glob(kind)
    self.store = store.map(Glob.init)
    self.fields = fields.compactMap { $0 }
  }

  /// Whether `event` is of the expected kind and every field given matches.
  public func matches(_ event: Event) -> Bool {
    guard kind.matches(event.kind) else { return false }
    if let store {
      guard let eventStore = event.store, store.matches(eventStore) else { return false }
    }
    return fields.allSatisfy { $0.matches(event.payload) }
  }

  /// The expectation as failure messages show it: the kind, the store, then the fields
  /// given, named as in the events' own lines:
  /// `effect.cancelled PageFeature#1 cancelID: timer, by: PageFeature#1`.
  public var description: String {
    var parts = [kind.pattern]
    if let store { parts.append(store.pattern) }
    let texts = fields.map(\.text).filter { !$0.isEmpty }
    if !texts.isEmpty { parts.append(texts.joined(separator: ", ")) }
    return parts.joined(separator: " ")
  }
}

/// A text pattern of an expectation: a ``Glob`` that, when it has no `.`, may also match
/// the last `.`-separated part of the text alone (the case of `PageFeature.CancelID.timer`).
struct NamePattern: Sendable {
  let glob: Glob
  private let matchesLastPart: Bool

  init(_ pattern: String) {
    glob = Glob(pattern)
    matchesLastPart = !pattern.contains(".")
  }

  func matches(_ text: String) -> Bool {
    if glob.matches(text) { return true }
    guard matchesLastPart, let dot = text.lastIndex(of: ".") else { return false }
    return glob.matches(String(text[text.index(after: dot)...]))
  }
}

extension EventExpectation.Field {
  /// A field that matches when `value` extracts something from the payload and `test` holds.
  static func when<Value>(
    _ text: String, _ value: @escaping @Sendable (Event.Payload) -> Value?, _ test: @escaping @Sendable (Value) -> Bool
  ) -> Self {
    Self(text: text) { payload in value(payload).map(test) ?? false }
  }

  /// `name: pattern`, matched with a ``Glob``.
  static func glob(_ name: String, _ pattern: String?, _ value: @escaping @Sendable (Event.Payload) -> String?) -> Self? {
    guard let pattern else { return nil }
    let glob = Glob(pattern)
    return when("\(name): \(pattern)", value) { glob.matches($0) }
  }

  /// `name: pattern`, matched with a ``NamePattern``.
  static func name(_ name: String, _ pattern: String?, _ value: @escaping @Sendable (Event.Payload) -> String?) -> Self? {
    guard let pattern else { return nil }
    let matcher = NamePattern(pattern)
    return when("\(name): \(pattern)", value) { matcher.matches($0) }
  }

  /// `name: value`, compared for equality.
  static func equal<Value: Equatable & Sendable>(
    _ name: String, _ expected: Value?, shown: String? = nil, _ value: @escaping @Sendable (Event.Payload) -> Value?
  ) -> Self? {
    guard let expected else { return nil }
    return when("\(name): \(shown ?? "\(expected)")", value) { $0 == expected }
  }
}
