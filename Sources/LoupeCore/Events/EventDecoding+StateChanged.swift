/// A `state.changed` read back from a trace, decoded the short way: a state rebuilt without
/// snapshots (issue 33 item 18) reads back every change from the trace's start, and the
/// general decoder (``Event/init(json:)``) looks each field up by name and makes the text of
/// its error messages (`state.changed changes[0]`) for every change before anything fails.
///
/// One pass over the members instead; what it decodes is what ``Event/init(jsonText:)``
/// decodes from the same text. Anything out of the ordinary — another kind, a member twice, a
/// field missing or of another type, an `origin` or `client` — is left to the general decoder,
/// which decodes it or says what is wrong in its own words.
extension Event {
  /// The event in `jsonText`, as ``init(jsonText:)`` decodes it (a `state.changed` the short way).
  package static func decoded(jsonText: some Collection<UInt8>) throws(EventDecodingError) -> Event {
    let value: JSON
    do {
      value = try JSONParser.parse(jsonText)
    } catch {
      throw EventDecodingError("Invalid JSON: \(error)")
    }
    if let event = stateChanged(in: value) { return event }
    return try Event(json: value)
  }

  /// `value` decoded as a `state.changed` event; `nil` when it is anything else or out of the
  /// ordinary.
  static func stateChanged(in value: JSON) -> Event? {
    guard case .object(let object) = value else { return nil }
    var seq: JSON?
    var time: JSON?
    var kind: JSON?
    var store: JSON?
    var cause: JSON?
    var changes: JSON?
    var summary: JSON?
    var seen: UInt8 = 0
    for member in object.members {
      let key = member.key
      let bit: UInt8
      switch key.utf8.count {
      case 3 where key == "seq": (bit, seq) = (1, member.value)
      case 4 where key == "time": (bit, time) = (2, member.value)
      case 4 where key == "kind": (bit, kind) = (4, member.value)
      case 5 where key == "store": (bit, store) = (8, member.value)
      case 5 where key == "cause": (bit, cause) = (16, member.value)
      case 7 where key == "changes": (bit, changes) = (32, member.value)
      case 7 where key == "summary": (bit, summary) = (64, member.value)
      default:
        // `origin` and `client` (a tool's change) are left to the general decoder, and so is
        // a key spelled another way that compares equal to one of these.
        if key == "origin" || key == "client" || Self.spelledOtherwise(key) { return nil }
        continue
      }
      guard seen & bit == 0 else { return nil }  // twice: the general decoder takes the first
      seen |= bit
    }
    guard case .string(StateChanged.kind)? = kind, let seq = seq?.intValue, let time = time?.doubleValue,
      case .string(let store)? = store, let cause = cause?.intValue, case .array(let list)? = changes,
      case .string(let summary)? = summary
    else { return nil }
    var decoded: [Change] = []
    decoded.reserveCapacity(list.count)
    for element in list {
      guard let change = Self.change(in: element) else { return nil }
      decoded.append(change)
    }
    return Event(seq: seq, time: time, payload: .stateChanged(StateChanged(store: store, cause: cause, changes: decoded, summary: summary)))
  }

  private static func change(in value: JSON) -> Change? {
    guard case .object(let object) = value else { return nil }
    var path: JSON?
    var op: JSON?
    var old: JSON?
    var new: JSON?
    var index: JSON?
    var truncated: JSON?
    var oldShape: JSON?
    var newShape: JSON?
    var seen: UInt8 = 0
    for member in object.members {
      let key = member.key
      let bit: UInt8
      switch key.utf8.count {
      case 2 where key == "op": (bit, op) = (1, member.value)
      case 3 where key == "old": (bit, old) = (2, member.value)
      case 3 where key == "new": (bit, new) = (4, member.value)
      case 4 where key == "path": (bit, path) = (8, member.value)
      case 5 where key == "index": (bit, index) = (16, member.value)
      case 8 where key == "oldShape": (bit, oldShape) = (32, member.value)
      case 8 where key == "newShape": (bit, newShape) = (64, member.value)
      case 9 where key == "truncated": (bit, truncated) = (128, member.value)
      default:
        if Self.spelledOtherwise(key) { return nil }
        continue
      }
      guard seen & bit == 0 else { return nil }
      seen |= bit
    }
    guard case .string(let path)? = path, case .string(let opName)? = op, let op = Change.Op(rawValue: opName) else { return nil }
    var position: Int?
    switch index {
    case nil, .null?: position = nil
    case let value?:
      guard let int = value.intValue else { return nil }
      position = int
    }
    var cut = false
    switch truncated {
    case nil, .null?: cut = false
    case .bool(let value)?: cut = value
    default: return nil
    }
    guard let oldShape = shape(oldShape), let newShape = shape(newShape) else { return nil }
    return Change(path: path, op: op, old: old, new: new, index: position, truncated: cut, oldShape: oldShape, newShape: newShape)
  }

  /// A shape member as the general decoder reads it (absent, null and empty: `nil`); `nil`
  /// (outer) when it is not a shape.
  private static func shape(_ value: JSON?) -> ValueShape?? {
    switch value {
    case nil, .null?: return .some(nil)
    case let value?:
      guard let shape = ValueShape(json: value) else { return nil }
      return .some(shape.nonEmpty)
    }
  }

  /// Whether `key` is not plain ASCII: it might compare equal (canonically) to a member name
  /// spelled in ASCII, which the general decoder would find by it.
  private static func spelledOtherwise(_ key: String) -> Bool {
    !key.utf8.allSatisfy { $0 < 0x80 }
  }
}
