extension Event {
  /// Writes this event as one compact JSON object: `seq`, `time`, `kind`, then the kind's
  /// fields in the order of CONTRACT §6. Optional fields that are absent are omitted, except
  /// the ones the contract spells as "String or null", which are written as `null`.
  public func encode(into w: inout JSONWriter) {
    // The envelope's fixed text is written as whole literals (`{"seq":`, `,"time":`,
    // `,"kind":"action.received"`): no key or kind goes through the escaping scan.
    if w.needsComma { w.member(#",{"seq":"#) } else { w.member(#"{"seq":"#) }
    w.int(seq)
    w.member(#","time":"#)
    w.double(time)
    w.kindMember(payload)
    switch payload {
    case .sessionStarted(let e):
      w.key("pid"); w.int(e.pid)
      w.key("program"); w.string(e.program)
      w.key("protocolVersion"); w.string(e.protocolVersion)
      w.key("startedAt"); w.string(e.startedAt)
    case .storeCreated(let e):
      w.key("store"); w.string(e.store)
      w.key("type"); w.string(e.type)
      w.key("parent"); w.stringOrNull(e.parent)
      w.key("identity"); w.string(e.identity)
    case .storeDestroyed(let e):
      w.key("store"); w.string(e.store)
      w.key("identity"); w.string(e.identity)
    case .identityChanged(let e):
      w.key("store"); w.string(e.store)
      w.key("identity"); w.string(e.identity)
      w.key("previous"); w.stringOrNull(e.previous)
      w.key("reason"); w.string(e.reason.rawValue)
    case .actionReceived(let e):
      w.key("store"); w.string(e.store)
      w.key("action"); w.string(e.action)
      w.key("value"); w.value(e.value)
      w.key("origin"); w.string(e.origin.rawValue)
      if let effect = e.effect { w.key("effect"); w.int(effect) }
      w.source(e.source)
      if let shape = e.shape { w.key("shape"); shape.encode(into: &w) }
      if let client = e.client { w.key("client"); w.string(client) }
    case .stateChanged(let e):
      w.key("store"); w.string(e.store)
      w.key("cause"); w.int(e.cause)
      w.key("changes")
      w.beginArray()
      for change in e.changes { change.encode(into: &w) }
      w.endArray()
      w.key("summary"); w.string(e.summary)
      if let origin = e.origin { w.key("origin"); w.string(origin.rawValue) }
      if let client = e.client { w.key("client"); w.string(client) }
    case .stateSnapshot(let e):
      w.key("store"); w.string(e.store)
      w.key("cause")
      if let cause = e.cause { w.int(cause) } else { w.null() }
      w.key("state"); w.value(e.state)
      if e.truncated { w.key("truncated"); w.bool(true) }
      if let shape = e.shape { w.key("shape"); shape.encode(into: &w) }
    case .effectStarted(let e):
      w.key("store"); w.string(e.store)
      w.key("effect"); w.int(e.effect)
      w.key("cause"); w.int(e.cause)
      w.key("cancelID"); w.stringOrNull(e.cancelID)
      w.source(e.source)
    case .effectFinished(let e):
      w.key("store"); w.string(e.store)
      w.key("effect"); w.int(e.effect)
      w.key("outcome"); w.string(e.outcome.rawValue)
      w.optional("error", e.error)
    case .effectCancelled(let e):
      w.key("store"); w.string(e.store)
      w.key("effect"); w.int(e.effect)
      w.key("cancelID"); w.stringOrNull(e.cancelID)
      w.key("reason"); w.string(e.reason.rawValue)
      w.key("by")
      if let by = e.by {
        w.beginObject()
        w.key("store"); w.string(by.store)
        w.key("cause"); w.int(by.cause)
        w.source(by.source)
        w.endObject()
      } else {
        w.null()
      }
    case .derivedRecomputed(let e):
      w.key("store"); w.string(e.store)
      w.key("derived"); w.string(e.derived)
      w.key("cause")
      if let cause = e.cause { w.int(cause) } else { w.null() }
      w.key("outputChanged"); w.bool(e.outputChanged)
      w.key("durationNs"); w.int(e.durationNs)
      w.source(e.source)
    case .mark(let e):
      w.key("label"); w.string(e.label)
    case .dropped(let e):
      w.key("count"); w.int(e.count)
    case .warning(let e):
      w.key("code"); w.string(e.code)
      w.key("message"); w.string(e.message)
      w.key("store"); w.stringOrNull(e.store)
      w.source(e.source)
    case .unknown(_, let fields):
      for member in fields.members where !Self.envelopeKeys.contains(member.key) {
        w.key(member.key)
        w.value(member.value)
      }
    }
    w.endObject()
  }

  static let envelopeKeys: Set<String> = ["seq", "time", "kind"]

  /// The event as one line of compact JSON, without the newline.
  public var jsonText: String {
    var writer = JSONWriter()
    encode(into: &writer)
    return writer.string
  }

  /// The event as a JSON value (for clients that work on ``JSON`` trees).
  public var json: JSON {
    // Encoding then parsing keeps a single source of truth for the field layout.
    (try? JSONParser.parse(jsonText)) ?? .null
  }
}

extension Change {
  public func encode(into w: inout JSONWriter) {
    w.beginObject()
    w.key("path"); w.string(path)
    w.key("op"); w.string(op.rawValue)
    if let old { w.key("old"); w.value(old) }
    if let new { w.key("new"); w.value(new) }
    if let index { w.key("index"); w.int(index) }
    if truncated { w.key("truncated"); w.bool(true) }
    if let oldShape { w.key("oldShape"); oldShape.encode(into: &w) }
    if let newShape { w.key("newShape"); newShape.encode(into: &w) }
    w.endObject()
  }

  public var json: JSON {
    var object: JSONObject = ["path": .string(path), "op": .string(op.rawValue)]
    if let old { object.append("old", old) }
    if let new { object.append("new", new) }
    if let index { object.append("index", .int(index)) }
    if truncated { object.append("truncated", .bool(true)) }
    if let oldShape { object.append("oldShape", oldShape.json) }
    if let newShape { object.append("newShape", newShape.json) }
    return .object(object)
  }
}

extension JSONWriter {
  /// Writes `text`, a member's fixed start (a key with its punctuation), as it is: the next
  /// value follows with no comma.
  @inline(__always) mutating func member(_ text: StaticString) {
    text.withUTF8Buffer { rawBytes($0) }
    needsComma = false
  }

  /// Writes `,"kind":"…"` for `payload`, the kind as one literal when this build knows it.
  mutating func kindMember(_ payload: Event.Payload) {
    switch payload {
    case .sessionStarted: member(#","kind":"session.started""#)
    case .storeCreated: member(#","kind":"store.created""#)
    case .storeDestroyed: member(#","kind":"store.destroyed""#)
    case .identityChanged: member(#","kind":"identity.changed""#)
    case .actionReceived: member(#","kind":"action.received""#)
    case .stateChanged: member(#","kind":"state.changed""#)
    case .stateSnapshot: member(#","kind":"state.snapshot""#)
    case .effectStarted: member(#","kind":"effect.started""#)
    case .effectFinished: member(#","kind":"effect.finished""#)
    case .effectCancelled: member(#","kind":"effect.cancelled""#)
    case .derivedRecomputed: member(#","kind":"derived.recomputed""#)
    case .mark: member(#","kind":"mark""#)
    case .dropped: member(#","kind":"dropped""#)
    case .warning: member(#","kind":"warning""#)
    case .unknown(let kind, _):
      member(#","kind":"#)
      string(kind)
      return
    }
    needsComma = true
  }

  public mutating func stringOrNull(_ value: String?) {
    if let value { string(value) } else { null() }
  }

  /// Writes `"source": {…}` when there is a source location; nothing otherwise.
  mutating func source(_ value: CodeLocation?) {
    guard let value else { return }
    key("source")
    value.encode(into: &self)
  }
}
