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
    case path, op, old, new, index, truncated, oldShape, newShape, file, line, previous
    // A tool's action or change (CONTRACT §16).
    case client
  }

  private let slots: UnsafeMutableBufferPointer<JSONLine.Value>
  /// Which slots hold a value read by the last ``read(_:object:)`` (bit `Key.rawValue`).
  private var present: UInt64 = 0

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

  subscript(_ key: Key) -> JSONLine.Value {
    present & (1 &<< UInt64(key.rawValue)) != 0 ? slots[key.rawValue] : .absent
  }

  /// Reads the members of `object` (the whole line when `nil`), forgetting what was read
  /// before. `false` when the object must be decoded instead.
  mutating func read(_ line: JSONLine, object: JSONLine.Value? = nil) -> Bool {
    present = 0
    guard var members = object.map({ line.members(of: $0) }) ?? line.topLevelMembers else { return false }
    while let member = members.next() {
      if member.keyEscaped { return false }
      guard let key = Self.key(line.bytes(member.key)) else { continue }
      let bit: UInt64 = 1 &<< UInt64(key.rawValue)
      if present & bit != 0 { return false }
      present |= bit
      slots[key.rawValue] = member.value
    }
    return !members.failed
  }

  /// The known key spelled by `bytes`, by its length and its bytes read as two
  /// little-endian words (the constants are the names' bytes; `EventMembersTests` checks them
  /// against ``Key/name``).
  static func key(_ bytes: UnsafeBufferPointer<UInt8>) -> Key? {
    guard bytes.count <= 16 else { return nil }
    let (low, high) = words(bytes)
    switch bytes.count {
    case 2:
      switch low {
      case 0x0000000000007962: return .by  // "by"
      case 0x000000000000706F: return .op  // "op"
      default: return nil
      }
    case 3:
      switch low {
      case 0x0000000000716573: return .seq  // "seq"
      case 0x0000000000646C6F: return .old  // "old"
      case 0x000000000077656E: return .new  // "new"
      default: return nil
      }
    case 4:
      switch low {
      case 0x00000000656D6974: return .time  // "time"
      case 0x00000000646E696B: return .kind  // "kind"
      case 0x0000000065707974: return .type  // "type"
      case 0x0000000068746170: return .path  // "path"
      case 0x00000000656C6966: return .file  // "file"
      case 0x00000000656E696C: return .line  // "line"
      default: return nil
      }
    case 5:
      switch low {
      case 0x00000065726F7473: return .store  // "store"
      case 0x00000065756C6176: return .value  // "value"
      case 0x0000006570616873: return .shape  // "shape"
      case 0x0000006573756163: return .cause  // "cause"
      case 0x000000726F727265: return .error  // "error"
      case 0x0000006C6562616C: return .label  // "label"
      case 0x0000007865646E69: return .index  // "index"
      default: return nil
      }
    case 6:
      switch low {
      case 0x00006E6F69746361: return .action  // "action"
      case 0x00006E696769726F: return .origin  // "origin"
      case 0x0000746365666665: return .effect  // "effect"
      case 0x0000656372756F73: return .source  // "source"
      case 0x00006E6F73616572: return .reason  // "reason"
      case 0x0000746E65726170: return .parent  // "parent"
      case 0x0000746E65696C63: return .client  // "client"
      default: return nil
      }
    case 7:
      switch low {
      case 0x007365676E616863: return .changes  // "changes"
      case 0x007972616D6D7573: return .summary  // "summary"
      case 0x00656D6F6374756F: return .outcome  // "outcome"
      case 0x0064657669726564: return .derived  // "derived"
      default: return nil
      }
    case 8:
      switch low {
      case 0x44496C65636E6163: return .cancelID  // "cancelID"
      case 0x797469746E656469: return .identity  // "identity"
      case 0x6570616853646C6F: return .oldShape  // "oldShape"
      case 0x657061685377656E: return .newShape  // "newShape"
      case 0x73756F6976657270: return .previous  // "previous"
      default: return nil
      }
    case 9:
      switch low {
      case 0x657461636E757274 where high == 0x0000000000000064: return .truncated  // "truncated"
      default: return nil
      }
    case 10:
      switch low {
      case 0x6E6F697461727564 where high == 0x000000000000734E: return .durationNs  // "durationNs"
      default: return nil
      }
    case 13:
      switch low {
      case 0x684374757074756F where high == 0x0000006465676E61: return .outputChanged  // "outputChanged"
      default: return nil
      }
    default: return nil
    }
  }

  /// Up to 16 bytes as two little-endian words, zero-padded.
  @inline(__always)
  static func words(_ bytes: UnsafeBufferPointer<UInt8>) -> (low: UInt64, high: UInt64) {
    guard let base = bytes.baseAddress else { return (0, 0) }
    let count = bytes.count
    var low: UInt64 = 0
    var high: UInt64 = 0
    if count >= 8 {
      low = UnsafeRawPointer(base).loadUnaligned(as: UInt64.self)
      // The last eight bytes, shifted so the ones past the first eight land at the bottom.
      if count > 8 {
        let tail = UnsafeRawPointer(base + (count &- 8)).loadUnaligned(as: UInt64.self)
        let shift = UInt64(16 &- count) &* 8
        high = tail >> shift
      }
    } else {
      for offset in 0..<count { low |= UInt64(base[offset]) << (8 &* UInt64(offset)) }
    }
    return (low, high)
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
    case .previous: "previous"
    case .client: "client"
    }
  }
}
