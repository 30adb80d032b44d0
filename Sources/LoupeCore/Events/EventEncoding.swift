extension Event {
  /// Writes this event as one compact JSON object: `seq`, `time`, `kind`, then the kind's
  /// fields in the order of CONTRACT §6. Optional fields that are absent are omitted, except
  /// the ones the contract spells as "String or null", which are written as `null`.
  public func encode(into w: inout JSONWriter) {
    var sources: SourceTexts? = nil
    encode(into: &w, sources: &sources)
  }

  /// Writes this event as ``encode(into:)`` does, taking the `source` members of captured
  /// locations from `sources` (and keeping new ones there) when it is not `nil`: same bytes.
  ///
  /// The members after `kind` always follow another, so the hot kinds write each key with its
  /// comma as one literal (`,"store":`) instead of going through ``JSONWriter/key(_:)-(StaticString)``.
  package func encode(into w: inout JSONWriter, sources: inout SourceTexts?) {
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
      w.member(#","store":"#); w.string(e.store)
      w.member(#","action":"#); w.string(e.action)
      w.member(#","value":"#); w.value(e.value)
      w.originMember(e.origin)
      if let effect = e.effect { w.member(#","effect":"#); w.int(effect) }
      w.source(e.source, &sources)
      if let shape = e.shape { w.member(#","shape":"#); shape.encode(into: &w) }
      if let client = e.client { w.member(#","client":"#); w.string(client) }
    case .stateChanged(let e):
      w.member(#","store":"#); w.string(e.store)
      w.member(#","cause":"#); w.int(e.cause)
      w.member(#","changes":["#)
      e.changes.withUnsafeBufferPointer { changes in
        guard let base = changes.baseAddress else { return }
        for index in changes.indices { Change.encode(base + index, into: &w) }
      }
      w.endArray()
      w.member(#","summary":"#); w.string(e.summary)
      if let origin = e.origin { w.originMember(origin) }
      if let client = e.client { w.member(#","client":"#); w.string(client) }
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
      w.source(e.source, &sources)
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
        w.source(by.source, &sources)
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
      w.source(e.source, &sources)
    case .mark(let e):
      w.key("label"); w.string(e.label)
    case .dropped(let e):
      w.key("count"); w.int(e.count)
    case .warning(let e):
      w.key("code"); w.string(e.code)
      w.key("message"); w.string(e.message)
      w.key("store"); w.stringOrNull(e.store)
      w.source(e.source, &sources)
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
    withUnsafePointer(to: self) { Change.encode($0, into: &w) }
  }

  /// Writes the change at `change`, reading its members where they are: calling a method on
  /// an element of a change array copied the whole change out first (a retain of each member,
  /// and a release after).
  static func encode(_ change: UnsafePointer<Change>, into w: inout JSONWriter) {
    // Every member after `path` follows another: each key is written with its comma.
    if w.needsComma { w.member(#",{"path":"#) } else { w.member(#"{"path":"#) }
    w.string(change.pointee.path)
    switch change.pointee.op {
    case .replace: w.member(#","op":"replace""#)
    case .insert: w.member(#","op":"insert""#)
    case .remove: w.member(#","op":"remove""#)
    }
    w.needsComma = true
    if change.pointee.old != nil { w.member(#","old":"#); w.value(change.pointee.old.unsafelyUnwrapped) }
    if change.pointee.new != nil { w.member(#","new":"#); w.value(change.pointee.new.unsafelyUnwrapped) }
    if let index = change.pointee.index { w.member(#","index":"#); w.int(index) }
    if change.pointee.truncated { w.member(#","truncated":true"#); w.needsComma = true }
    if let oldShape = change.pointee.oldShape { w.member(#","oldShape":"#); oldShape.encode(into: &w) }
    if let newShape = change.pointee.newShape { w.member(#","newShape":"#); newShape.encode(into: &w) }
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
    let n = text.utf8CodeUnitCount
    let p = tail(n)
    Self.copy(text.utf8Start, to: p, count: n)
    count &+= n
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

  /// Writes `,"origin":"…"` as one literal.
  mutating func originMember(_ origin: ActionReceived.Origin) {
    switch origin {
    case .send: member(#","origin":"send""#)
    case .effect: member(#","origin":"effect""#)
    case .parent: member(#","origin":"parent""#)
    case .tool: member(#","origin":"tool""#)
    }
    needsComma = true
  }

  public mutating func stringOrNull(_ value: String?) {
    if let value { string(value) } else { null() }
  }

  /// Writes `"source": {…}` when there is a source location; nothing otherwise. A captured
  /// location's text comes from `sources` when there is such a table.
  mutating func source(_ value: CodeLocation?, _ sources: inout SourceTexts?) {
    guard let value else { return }
    if sources != nil {
      sources!.write(value, into: &self)
    } else {
      key("source")
      value.encode(into: &self)
    }
  }
}
