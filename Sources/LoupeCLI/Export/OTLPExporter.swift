import LoupeCore
import LoupeSession

/// Turns one run's events into OpenTelemetry spans (CONTRACT §15), streaming.
///
/// - The run is a root span (`run PROGRAM`); each store's lifetime is a span (`store NAME`)
///   under its parent store's span, or under the run's.
/// - An action is a span named by its label under its store's span, from its
///   `action.received` to the last event it caused before the next action (see
///   ``OpenActions``); an action an effect sent links to that effect's span
///   (`loupe.link = "sent_by"`).
/// - An effect is a span under the action that started it, ending when it finishes (status
///   ERROR with the message when it failed) or is cancelled; a cancellation by an action
///   links to that action's span (`loupe.link = "cancelled_by"`), in any store.
/// - State changes, derived recomputations and identity changes are span events on the
///   action that caused them (on the store's span when it is no longer open); marks and
///   dropped events are events on the run's span.
/// - Every span and event carries `loupe.seq`; source locations are `code.file.path` and
///   `code.line.number`. Values are the trace's own, redacted where it was recorded redacted.
///
/// Only open spans are kept: the run, live stores, the actions being processed, running effects.
struct OTLPExporter {
  private let identity: ExportIdentity
  private var run: OTLPSpan
  private var runSeq: Int?
  private var stores: [String: OTLPSpan] = [:]
  private var endedStores: Set<String> = []
  private var actions = OpenActions<OTLPSpan>()
  private var effects: [Int: OTLPSpan] = [:]
  private var labels = RecentActions()
  private var lastTime = 0.0
  private var text = JSONWriter(capacity: 256)
  /// Finished spans, to be batched into requests.
  private(set) var batcher: OTLPRequestBatcher

  init(header: TraceHeader, identity: ExportIdentity? = nil, maximumSpans: Int = 1024, maximumBytes: Int = 4 << 20) {
    let identity = identity ?? ExportIdentity(header: header)
    self.identity = identity
    batcher = OTLPRequestBatcher(
      identity: identity, program: header.program, pid: header.pid, maximumSpans: maximumSpans, maximumBytes: maximumBytes)
    run = OTLPSpan(
      spanID: identity.id(.run, 0), name: "run \(header.program.isEmpty ? "loupe trace" : header.program)",
      start: identity.startNanos, end: identity.startNanos)
    run.attributes = [("loupe.started_at", .string(header.startedAt))]
  }

  mutating func add(_ event: Event) {
    if runSeq == nil {
      runSeq = event.seq
      run.start = identity.nanos(event.time)
    }
    lastTime = max(lastTime, event.time)
    let time = identity.nanos(event.time)
    let seq = OTLPSpan.Value.int(event.seq)
    switch event.payload {
    case .sessionStarted:
      runSeq = event.seq
    case .storeCreated(let e):
      openStore(e.store, seq: event.seq, at: event.time)
      stores[e.store]?.parentID = e.parent.map { identity.id(.store, $0) } ?? run.spanID
      stores[e.store]?.attributes = [
        ("loupe.seq", seq), ("loupe.store", .string(e.store)), ("loupe.store.type", .string(e.type)),
        ("loupe.identity", .string(e.identity)),
      ]
    case .storeDestroyed(let e):
      closeAction(of: e.store)
      if var span = stores.removeValue(forKey: e.store) {
        span.end = time
        span.attributes.append(("loupe.end_seq", seq))
        batcher.add(span)
        endedStores.insert(e.store)
      }
    case .identityChanged(let e):
      var attributes: [OTLPSpan.Attribute] = [
        ("loupe.seq", seq), ("loupe.store", .string(e.store)), ("loupe.identity", .string(e.identity)),
        ("loupe.identity.reason", .string(e.reason.rawValue)),
      ]
      if let previous = e.previous { attributes.append(("loupe.identity.previous", .string(previous))) }
      let spanEvent = OTLPSpan.Event(time: time, name: "identity.changed", attributes: attributes)
      if !actions.updateLatest({ $0.info.add(spanEvent) }) { addToStore(e.store, spanEvent, seq: event.seq, at: event.time) }
    case .actionReceived(let e):
      labels.record(seq: event.seq, label: e.action)
      let parent = storeSpan(e.store, seq: event.seq, at: event.time)
      var span = OTLPSpan(spanID: identity.id(.action, event.seq), parentID: parent, name: e.action, start: time, end: time)
      span.attributes = [("loupe.seq", seq), ("loupe.store", .string(e.store)), ("loupe.action.origin", .string(e.origin.rawValue))]
      if !e.value.isNull { span.attributes.append(("loupe.action.value", .string(compact(e.value)))) }
      if let effect = e.effect {
        span.attributes.append(("loupe.effect.id", .int(effect)))
        span.links.append(OTLPSpan.Link(spanID: identity.id(.effect, effect), attributes: [("loupe.link", .string("sent_by"))]))
      }
      span.attributes += OTLPSpan.code(e.source)
      for closed in actions.open(seq: event.seq, store: e.store, time: event.time, closesOthers: e.origin != .parent, info: span) { emit(closed) }
    case .stateChanged(let e):
      let changes = compact(.array(e.changes.map(\.json)))
      let spanEvent = OTLPSpan.Event(
        time: time, name: "state.changed",
        attributes: [("loupe.seq", seq), ("loupe.store", .string(e.store)), ("loupe.summary", .string(e.summary)), ("loupe.changes", .string(changes))])
      addCaused(by: e.cause, spanEvent, store: e.store, seq: event.seq, at: event.time)
    case .stateSnapshot(let e):
      // The state itself stays out, as in the Chrome export: a span says when, not what.
      let spanEvent = OTLPSpan.Event(
        time: time, name: "state.snapshot", attributes: [("loupe.seq", seq), ("loupe.store", .string(e.store)), ("loupe.truncated", .bool(e.truncated))])
      if let cause = e.cause { addCaused(by: cause, spanEvent, store: e.store, seq: event.seq, at: event.time) } else { addToStore(e.store, spanEvent, seq: event.seq, at: event.time) }
    case .effectStarted(let e):
      actions.update(e.cause, causedAt: event.time)
      let name = e.cancelID.map { "effect \($0)" } ?? (labels[e.cause].map { "effect of \($0)" } ?? "effect \(e.effect)")
      // Under the action that started it; under its store when the trace lacks that action.
      let parent = labels[e.cause] != nil ? identity.id(.action, e.cause) : storeSpan(e.store, seq: event.seq, at: event.time)
      var span = OTLPSpan(spanID: identity.id(.effect, e.effect), parentID: parent, name: name, start: time, end: time)
      span.attributes = [("loupe.seq", seq), ("loupe.store", .string(e.store)), ("loupe.effect.id", .int(e.effect)), ("loupe.cause", .int(e.cause))]
      if let cancelID = e.cancelID { span.attributes.append(("loupe.effect.cancel_id", .string(cancelID))) }
      span.attributes += OTLPSpan.code(e.source)
      if let replaced = effects.updateValue(span, forKey: e.effect) { batcher.add(replaced) }
    case .effectFinished(let e):
      guard var span = effects.removeValue(forKey: e.effect) else { break }
      span.end = time
      span.attributes += [("loupe.end_seq", seq), ("loupe.effect.outcome", .string(e.outcome.rawValue))]
      if e.outcome == .failed { span.errorMessage = e.error ?? "" }
      batcher.add(span)
    case .effectCancelled(let e):
      if let by = e.by { actions.update(by.cause, causedAt: event.time) }
      guard var span = effects.removeValue(forKey: e.effect) else { break }
      span.end = time
      span.attributes += [("loupe.end_seq", seq), ("loupe.effect.cancelled", .string(e.reason.rawValue))]
      if let by = e.by, labels[by.cause] != nil {
        span.links.append(
          OTLPSpan.Link(
            spanID: identity.id(.action, by.cause),
            attributes: [("loupe.link", .string("cancelled_by")), ("loupe.seq", seq), ("loupe.store", .string(by.store)), ("loupe.cause", .int(by.cause))]
              + OTLPSpan.code(by.source)))
      }
      batcher.add(span)
    case .derivedRecomputed(let e):
      let spanEvent = OTLPSpan.Event(
        time: time, name: "derived.recomputed",
        attributes: [
          ("loupe.seq", seq), ("loupe.store", .string(e.store)), ("loupe.derived", .string(e.derived)),
          ("loupe.derived.output_changed", .bool(e.outputChanged)), ("loupe.derived.duration_ns", .int(e.durationNs)),
        ] + OTLPSpan.code(e.source))
      if let cause = e.cause { addCaused(by: cause, spanEvent, store: e.store, seq: event.seq, at: event.time) } else { addToStore(e.store, spanEvent, seq: event.seq, at: event.time) }
    case .mark(let e):
      run.add(OTLPSpan.Event(time: time, name: e.label, attributes: [("loupe.seq", seq), ("loupe.mark", .bool(true))]))
    case .dropped(let e):
      run.add(OTLPSpan.Event(time: time, name: "dropped", attributes: [("loupe.seq", seq), ("loupe.dropped.count", .int(e.count))]))
    case .warning(let e):
      let spanEvent = OTLPSpan.Event(
        time: time, name: "warning",
        attributes: [("loupe.seq", seq), ("loupe.warning.code", .string(e.code)), ("loupe.warning.message", .string(e.message))] + OTLPSpan.code(e.source))
      if let store = e.store {
        if !actions.updateOpen(in: store, { $0.info.add(spanEvent) }) { addToStore(store, spanEvent, seq: event.seq, at: event.time) }
      } else {
        run.add(spanEvent)
      }
    case .unknown(let kind, _):
      run.add(OTLPSpan.Event(time: time, name: kind, attributes: [("loupe.seq", seq)]))
    }
  }

  /// Closes what is still open (actions, running effects, live stores, the run) at the last
  /// event's time and completes the last request.
  mutating func finish() {
    let end = identity.nanos(lastTime)
    for action in actions.closeAll() { emit(action) }
    for (_, var span) in effects.sorted(by: { $0.key < $1.key }) {
      span.end = end
      span.attributes.append(("loupe.effect.still_running", .bool(true)))
      batcher.add(span)
    }
    effects.removeAll()
    for (_, var span) in stores.sorted(by: { $0.key < $1.key }) {
      span.end = end
      batcher.add(span)
    }
    stores.removeAll()
    run.end = end
    run.attributes.insert(("loupe.seq", .int(runSeq ?? 0)), at: 0)
    batcher.add(run)
    batcher.flush()
  }

  /// Takes the requests completed so far.
  mutating func takeRequests() -> [OTLPRequestBatcher.Request] { batcher.takeRequests() }

  var spansExported: Int { batcher.totalSpans }

  // MARK: - Spans

  private mutating func openStore(_ store: String, seq: Int, at time: Double) {
    guard stores[store] == nil, !endedStores.contains(store) else { return }
    let nanos = identity.nanos(time)
    var span = OTLPSpan(spanID: identity.id(.store, store), parentID: run.spanID, name: "store \(store)", start: nanos, end: nanos)
    span.attributes = [("loupe.seq", .int(seq)), ("loupe.store", .string(store))]
    stores[store] = span
  }

  /// The id of `store`'s span, opening it if needed (the run's once the store has ended).
  private mutating func storeSpan(_ store: String, seq: Int, at time: Double) -> UInt64 {
    openStore(store, seq: seq, at: time)
    return stores[store] != nil ? identity.id(.store, store) : run.spanID
  }

  private mutating func closeAction(of store: String) {
    if let action = actions.close(store: store) { emit(action) }
  }

  private mutating func emit(_ action: OpenActions<OTLPSpan>.Action) {
    var span = action.info
    span.end = identity.nanos(action.end)
    batcher.add(span)
  }

  /// A span event on the action `cause`, or on `store`'s span once that action is closed.
  private mutating func addCaused(by cause: Int, _ spanEvent: OTLPSpan.Event, store: String, seq: Int, at time: Double) {
    if actions.update(cause, causedAt: time, { $0.info.add(spanEvent) }) { return }
    var event = spanEvent
    event.attributes.append(("loupe.cause", .int(cause)))
    addToStore(store, event, seq: seq, at: time)
  }

  /// A span event on `store`'s span, or on the run's once the store has ended.
  private mutating func addToStore(_ store: String, _ spanEvent: OTLPSpan.Event, seq: Int, at time: Double) {
    openStore(store, seq: seq, at: time)
    if stores[store] != nil {
      stores[store]!.add(spanEvent)
    } else {
      run.add(spanEvent)
    }
  }

  private mutating func compact(_ value: JSON) -> String {
    text.reset()
    text.value(value)
    return text.string
  }
}
