/// The members of an event line's object (or of an object inside it: a change, a `source`,
/// `by`) that the timeline reads, found in one pass: each known key's value, or
/// ``JSONLine/Value/absent``. The slots live on the stack (``with(_:)``): nothing is allocated
/// per line.
///
/// A key written twice, or a key with escapes (it may spell a known one), makes the object one
/// to decode instead (``read(_:object:)`` is `false`): decoding decides what it means.
struct EventMembers {
  enum Key: Int, CaseIterable {
    case seq, time, kind, store, action, value, origin, effect, source, shape, cause, changes, summary
    case cancelID, outcome, error, reason, by, derived, outputChanged, durationNs, type, parent, identity, label
    // Inside a change, a source.
    case path, op, old, new, index, truncated, oldShape, newShape, file, line
  }

  private let slots: UnsafeMutableBufferPointer<JSONLine.Value>

  /// Runs `body` with empty members in stack memory.
  static func with<R>(_ body: (inout EventMembers) -> R) -> R {
    withUnsafeTemporaryAllocation(of: JSONLine.Value.self, capacity: Key.allCases.count) { slots in
      var members = EventMembers(slots: slots)
      return body(&members)
    }
  }

  private init(slots: UnsafeMutableBufferPointer<JSONLine.Value>) {
    self.slots = slots
  }

  subscript(_ key: Key) -> JSONLine.Value { slots[key.rawValue] }

  /// Reads the members of `object` (the whole line when `nil`), forgetting what was read
  /// before. `false` when the object must be decoded instead.
  mutating func read(_ line: JSONLine, object: JSONLine.Value? = nil) -> Bool {
    for index in slots.indices { slots[index] = .absent }
    guard var members = object.map({ line.members(of: $0) }) ?? line.topLevelMembers else { return false }
    while let member = members.next() {
      if member.keyEscaped { return false }
      guard let key = Self.key(line.bytes(member.key)) else { continue }
      if !slots[key.rawValue].isAbsent { return false }
      slots[key.rawValue] = member.value
    }
    return !members.failed
  }

  static func key(_ bytes: UnsafeBufferPointer<UInt8>) -> Key? {
    guard bytes.count <= 16, let first = bytes.first else { return nil }
    let candidate: Key
    switch (bytes.count, first) {
    case (3, UInt8(ascii: "s")): candidate = .seq
    case (4, UInt8(ascii: "t")): candidate = bytes[1] == UInt8(ascii: "i") ? .time : .type
    case (4, UInt8(ascii: "k")): candidate = .kind
    case (5, UInt8(ascii: "s")): candidate = bytes[1] == UInt8(ascii: "t") ? .store : .shape
    case (6, UInt8(ascii: "a")): candidate = .action
    case (5, UInt8(ascii: "v")): candidate = .value
    case (6, UInt8(ascii: "o")): candidate = .origin
    case (6, UInt8(ascii: "e")): candidate = .effect
    case (6, UInt8(ascii: "s")): candidate = .source
    case (5, UInt8(ascii: "c")): candidate = .cause
    case (7, UInt8(ascii: "c")): candidate = .changes
    case (7, UInt8(ascii: "s")): candidate = .summary
    case (8, UInt8(ascii: "c")): candidate = .cancelID
    case (7, UInt8(ascii: "o")): candidate = .outcome
    case (5, UInt8(ascii: "e")): candidate = .error
    case (6, UInt8(ascii: "r")): candidate = .reason
    case (2, UInt8(ascii: "b")): candidate = .by
    case (7, UInt8(ascii: "d")): candidate = .derived
    case (13, UInt8(ascii: "o")): candidate = .outputChanged
    case (10, UInt8(ascii: "d")): candidate = .durationNs
    case (6, UInt8(ascii: "p")): candidate = .parent
    case (8, UInt8(ascii: "i")): candidate = .identity
    case (5, UInt8(ascii: "l")): candidate = .label
    case (4, UInt8(ascii: "p")): candidate = .path
    case (2, UInt8(ascii: "o")): candidate = .op
    case (3, UInt8(ascii: "o")): candidate = .old
    case (3, UInt8(ascii: "n")): candidate = .new
    case (5, UInt8(ascii: "i")): candidate = .index
    case (9, UInt8(ascii: "t")): candidate = .truncated
    case (8, UInt8(ascii: "o")): candidate = .oldShape
    case (8, UInt8(ascii: "n")): candidate = .newShape
    case (4, UInt8(ascii: "f")): candidate = .file
    case (4, UInt8(ascii: "l")): candidate = .line
    default: return nil
    }
    return words(bytes) == keyWords[candidate.rawValue] ? candidate : nil
  }

  /// Up to 16 bytes as two little-endian words, zero-padded: equal words, equal keys of
  /// equal length.
  @inline(__always)
  private static func words(_ bytes: UnsafeBufferPointer<UInt8>) -> Words {
    var low: UInt64 = 0
    var high: UInt64 = 0
    for (offset, byte) in bytes.enumerated() {
      if offset < 8 {
        low |= UInt64(byte) << (8 &* UInt64(offset))
      } else {
        high |= UInt64(byte) << (8 &* UInt64(offset &- 8))
      }
    }
    return Words(low: low, high: high)
  }

  private struct Words: Equatable {
    var low: UInt64
    var high: UInt64
  }

  private static let keyWords: [Words] = Key.allCases.map { key in
    let name = key.name
    return words(UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
  }
}

extension EventMembers.Key {
  var name: StaticString {
    switch self {
    case .seq: "seq"
    case .time: "time"
    case .kind: "kind"
    case .store: "store"
    case .action: "action"
    case .value: "value"
    case .origin: "origin"
    case .effect: "effect"
    case .source: "source"
    case .shape: "shape"
    case .cause: "cause"
    case .changes: "changes"
    case .summary: "summary"
    case .cancelID: "cancelID"
    case .outcome: "outcome"
    case .error: "error"
    case .reason: "reason"
    case .by: "by"
    case .derived: "derived"
    case .outputChanged: "outputChanged"
    case .durationNs: "durationNs"
    case .type: "type"
    case .parent: "parent"
    case .identity: "identity"
    case .label: "label"
    case .path: "path"
    case .op: "op"
    case .old: "old"
    case .new: "new"
    case .index: "index"
    case .truncated: "truncated"
    case .oldShape: "oldShape"
    case .newShape: "newShape"
    case .file: "file"
    case .line: "line"
    }
  }
}
