import LoupeCore

/// What ``SessionModel`` indexes of a trace's commonest lines — `state.changed`,
/// `action.received`, `derived.recomputed` — read from the line's bytes without decoding the
/// event (``IndexedEvent``): no value, change or summary is built, only the `seq`, the store
/// and what links the event to others. A large trace's index pass (``DecodedBatches``) spent
/// most of its time building events it then threw away (issue 33 item 18).
///
/// It only ever says what the decoder says. A line is read here only when it is plain: valid
/// JSON (``EventLineScanner``, which checks exactly what ``JSONParser`` does), member names in
/// ASCII without escapes, none of the members it reads twice, every member the decoder
/// requires present and of its type, integers written as integers, and nothing whose check
/// needs the decoder (a `shape`, an `origin` on a change, an escaped store). Anything else —
/// including every line the decoder would reject — gives `nil`, and the caller decodes the
/// line (``IndexedEvent/init(_:)``), which then indexes it or says what is wrong.
struct EventIndexSkim {
  /// Store ids read lately, with their bytes: most lines name one of a few stores.
  private var stores: [(bytes: [UInt8], text: String)] = []
  /// Where the members a check reads are, reused from line to line.
  private var ranges = [Range<Int>](repeating: 0..<0, count: Key.allCases.count)

  /// `line`'s index entry, or `nil`: decode it.
  mutating func read(_ line: UnsafeBufferPointer<UInt8>) -> IndexedEvent? {
    // A `seq` of 15 digits at most, which the decoder reads as an `.int` too.
    guard let fields = EventLineScanner.scan(line), let seq = fields.seq, abs(seq) < 1_000_000_000_000_000, fields.hasTime,
      case .plain(let kindRange) = fields.kind, case .plain(let storeRange) = fields.store
    else { return nil }
    var members = Members(line, ranges: ranges)
    defer { ranges = members.ranges }
    if EventLineScanner.bytes(line, kindRange, equal: "state.changed") {
      guard members.read(Self.changeKeys), let besideByStore = members.plainChanges(),
        let cause = members.integer(.cause), members.isString(.summary)
      else { return nil }
      let details = IndexedEvent.Details.change(besideByStore: besideByStore)
      return IndexedEvent(seq: seq, kind: StateChanged.kind, store: store(line, storeRange), referencedSeq: cause, details: details)
    }
    if EventLineScanner.bytes(line, kindRange, equal: "action.received") {
      guard members.read(Self.actionKeys), members.isString(.action), let origin = members.origin(),
        let effect = members.optionalInteger(.effect), let source = members.source(),
        members.isAbsentOrNull(.shape), members.isAbsentNullOrString(.client)
      else { return nil }
      let details = IndexedEvent.Details.action(origin: origin, effect: effect, source: source)
      return IndexedEvent(seq: seq, kind: ActionReceived.kind, store: store(line, storeRange), referencedSeq: nil, details: details)
    }
    if EventLineScanner.bytes(line, kindRange, equal: "derived.recomputed") {
      guard members.read(Self.derivedKeys), members.isString(.derived), let cause = members.optionalInteger(.cause),
        members.isBool(.outputChanged), members.integer(.durationNs) != nil, let source = members.source()
      else { return nil }
      return IndexedEvent(seq: seq, kind: DerivedRecomputed.kind, store: store(line, storeRange), referencedSeq: cause, details: .derived(source: source))
    }
    return nil
  }

  static let changeKeys: [Key] = [.store, .cause, .changes, .summary, .origin, .client]
  static let actionKeys: [Key] = [.store, .action, .origin, .effect, .source, .shape, .client]
  static let derivedKeys: [Key] = [.store, .derived, .cause, .outputChanged, .durationNs, .source]

  private mutating func store(_ line: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
    let bytes = UnsafeBufferPointer(rebasing: line[range])
    if let place = stores.firstIndex(where: { $0.bytes.count == bytes.count && Self.same($0.bytes, bytes) }) {
      let text = stores[place].text
      if place > 0 { stores.swapAt(place, place - 1) }  // the commonest first
      return text
    }
    let text = String(decoding: bytes, as: UTF8.self)
    if stores.count >= 8 { stores.removeLast() }
    stores.append((Array(bytes), text))
    return text
  }

  private static func same(_ a: [UInt8], _ b: UnsafeBufferPointer<UInt8>) -> Bool {
    a.withUnsafeBufferPointer { a in a.isEmpty || LibC.memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0 }
  }

  /// The members a kind's check reads.
  enum Key: Int, CaseIterable {
    case store, cause, changes, summary, origin, client, action, effect, source, shape, derived, outputChanged, durationNs
  }

  /// The top-level members of a valid line, each of the keys asked for found once at most.
  struct Members {
    private var cursor: JSONLineCursor
    /// Each key's value, by the key's raw value; those of the keys in `found` only.
    fileprivate(set) var ranges: [Range<Int>]
    private var found: UInt16 = 0

    init(_ line: UnsafeBufferPointer<UInt8>, ranges: [Range<Int>]) {
      cursor = JSONLineCursor(line)
      self.ranges = ranges
    }

    private func value(_ key: Key) -> Range<Int>? { found & 1 << key.rawValue != 0 ? ranges[key.rawValue] : nil }

    /// Finds `keys`' values; `false` when a member name is not plain ASCII or one of `keys`
    /// comes twice.
    mutating func read(_ keys: [Key]) -> Bool {
      guard cursor.take(UInt8(ascii: "{")) else { return false }
      if cursor.take(UInt8(ascii: "}")) { return true }
      repeat {
        guard let member = Self.member(&cursor) else { return false }
        if let key = keys.first(where: { cursor.equal(member.name, $0.static) }) {
          guard found & 1 << key.rawValue == 0 else { return false }
          found |= 1 << key.rawValue
          ranges[key.rawValue] = member.value
        }
      } while cursor.take(UInt8(ascii: ","))
      return cursor.take(UInt8(ascii: "}"))
    }

    private func first(_ key: Key) -> UInt8? { value(key).map { cursor.bytes[$0.lowerBound] } }

    func isString(_ key: Key) -> Bool { first(key) == UInt8(ascii: "\"") }

    func isBool(_ key: Key) -> Bool { first(key) == UInt8(ascii: "t") || first(key) == UInt8(ascii: "f") }

    func isAbsentOrNull(_ key: Key) -> Bool { first(key) == nil || first(key) == UInt8(ascii: "n") }

    func isAbsentNullOrString(_ key: Key) -> Bool { isAbsentOrNull(key) || isString(key) }

    /// An integer written as one (an optional minus and at most 15 digits): what the decoder
    /// reads as an `.int`; `nil` for anything else, even a number it would take.
    func integer(_ key: Key) -> Int? { value(key).flatMap { Self.integer(cursor.bytes, $0) } }

    private static func integer(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int? {
      var index = range.lowerBound
      let negative = bytes[index] == UInt8(ascii: "-")
      if negative { index += 1 }
      guard index < range.upperBound, range.upperBound - index <= 15 else { return nil }
      var value = 0
      while index < range.upperBound {
        let digit = bytes[index] &- UInt8(ascii: "0")
        guard digit < 10 else { return nil }
        value = value * 10 + Int(digit)
        index += 1
      }
      return negative ? -value : value
    }

    /// Absent or null: `.some(nil)`; an integer: it; anything else `nil`.
    func optionalInteger(_ key: Key) -> Int?? {
      if isAbsentOrNull(key) { return .some(nil) }
      return integer(key).map { .some($0) }
    }

    /// `origin`, a string without escapes naming an ``ActionReceived/Origin``.
    func origin() -> ActionReceived.Origin? {
      guard let range = value(.origin), isString(.origin) else { return nil }
      return plainString(range).flatMap(ActionReceived.Origin.init(rawValue:))
    }

    /// The `source` member as the decoder reads it: `.some(nil)` when absent or null.
    func source() -> CodeLocation?? {
      guard let range = value(.source) else { return .some(nil) }
      if first(.source) == UInt8(ascii: "n") { return .some(nil) }
      guard let value = try? JSONParser.parse(UnsafeBufferPointer(rebasing: cursor.bytes[range])) else { return nil }
      return CodeLocation.decoded(source: value)
    }

    private func plainString(_ range: Range<Int>) -> String? {
      let inner = (range.lowerBound + 1)..<(range.upperBound - 1)
      guard !cursor.bytes[inner].contains(UInt8(ascii: "\\")) else { return nil }
      return String(decoding: UnsafeBufferPointer(rebasing: cursor.bytes[inner]), as: UTF8.self)
    }

    /// Whether `changes` is an array of changes the decoder takes without building any: each
    /// an object with a `path` string and an `op` naming a ``Change/Op`` (no escapes), an
    /// `index` absent, null or an integer, `truncated` absent, null or a boolean, no shapes;
    /// no `origin` or `client` on the event (left to the decoder); `nil` when it is not.
    /// Whether each path is plain (no escapes) and leaves the `id` of the element it is in
    /// alone (``ScopeFocus/pathLeavesIDAlone(_:)``): what a focus needs to leave the change
    /// out by its store alone.
    mutating func plainChanges() -> Bool? {
      guard value(.origin) == nil, value(.client) == nil, let range = value(.changes) else { return nil }
      var inner = JSONLineCursor(UnsafeBufferPointer(rebasing: cursor.bytes[range]))
      guard inner.take(UInt8(ascii: "[")) else { return nil }
      if inner.take(UInt8(ascii: "]")) { return true }
      var besideByStore = true
      repeat {
        guard let pathsLeaveIDs = Self.plainChange(&inner) else { return nil }
        besideByStore = besideByStore && pathsLeaveIDs
      } while inner.take(UInt8(ascii: ","))
      return inner.take(UInt8(ascii: "]")) ? besideByStore : nil
    }

    /// Whether the change is plain (`nil`: not), and its path plain and leaving `id` alone.
    private static func plainChange(_ cursor: inout JSONLineCursor) -> Bool? {
      var pathLeavesID = false
      guard cursor.take(UInt8(ascii: "{")) else { return nil }
      var seen: UInt8 = 0
      if !cursor.take(UInt8(ascii: "}")) {
        repeat {
          guard let (name, value, plain) = member(&cursor) else { return nil }
          let first = cursor.bytes[value.lowerBound]
          let bit: UInt8
          if cursor.equal(name, "path") {
            guard first == UInt8(ascii: "\"") else { return nil }
            let inner = UnsafeBufferPointer(rebasing: cursor.bytes[(value.lowerBound + 1)..<(value.upperBound - 1)])
            pathLeavesID = plain && ScopeFocus.pathLeavesIDAlone(inner)
            bit = 1
          } else if cursor.equal(name, "op") {
            guard plain else { return nil }
            let text = String(decoding: UnsafeBufferPointer(rebasing: cursor.bytes[(value.lowerBound + 1)..<(value.upperBound - 1)]), as: UTF8.self)
            guard Change.Op(rawValue: text) != nil else { return nil }
            bit = 2
          } else if cursor.equal(name, "index") {
            guard first == UInt8(ascii: "n") || integer(cursor.bytes, value) != nil else { return nil }
            bit = 4
          } else if cursor.equal(name, "truncated") {
            guard first == UInt8(ascii: "n") || first == UInt8(ascii: "t") || first == UInt8(ascii: "f") else { return nil }
            bit = 8
          } else if cursor.equal(name, "oldShape") || cursor.equal(name, "newShape") {
            return nil
          } else {
            continue
          }
          guard seen & bit == 0 else { return nil }
          seen |= bit
        } while cursor.take(UInt8(ascii: ","))
        guard cursor.take(UInt8(ascii: "}")) else { return nil }
      }
      return seen & 3 == 3 ? pathLeavesID : nil
    }

    /// The next member of an object: its name (ASCII without escapes, else `nil`), its
    /// value's range, and whether the value is a string without escapes.
    private static func member(_ cursor: inout JSONLineCursor) -> (name: Range<Int>, value: Range<Int>, plain: Bool)? {
      cursor.skipWhitespace()
      guard cursor.peek == UInt8(ascii: "\""), let name = cursor.string(), !name.escaped,
        !name.range.contains(where: { cursor.bytes[$0] >= 0x80 }), cursor.take(UInt8(ascii: ":"))
      else { return nil }
      cursor.skipWhitespace()
      let start = cursor.i
      guard let plain = cursor.skipValue() else { return nil }
      return (name.range, start..<cursor.i, plain)
    }
  }
}

extension EventIndexSkim.Key {
  /// The key's name, for comparing with a line's bytes.
  var `static`: StaticString {
    switch self {
    case .store: "store"
    case .cause: "cause"
    case .changes: "changes"
    case .summary: "summary"
    case .origin: "origin"
    case .client: "client"
    case .action: "action"
    case .effect: "effect"
    case .source: "source"
    case .shape: "shape"
    case .derived: "derived"
    case .outputChanged: "outputChanged"
    case .durationNs: "durationNs"
    }
  }
}
