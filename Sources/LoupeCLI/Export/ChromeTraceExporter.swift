import LoupeCore
import LoupeSession

/// Converts events to the Trace Event Format that Perfetto (ui.perfetto.dev) and
/// chrome://tracing open.
///
/// - Each store is a named track (a "thread": `thread_name` metadata), in order of appearance.
/// - An action is a slice (`X`) on its store's track lasting its reducer time (as
///   ``ReducerTiming`` measures it for `loupe stats`), or an instant when there is none.
/// - An effect is an async span (`b`/`e`, `id` = the effect id) from `effect.started` to
///   `effect.finished`/`effect.cancelled`; effects still running at the end close at the last
///   event, marked `stillRunning`.
/// - State changes, derived recomputations, store and identity events, warnings and dropped
///   events are instants on their store's track; marks are global instants.
///
/// Events are written as they are resolved, so memory stays bounded on large traces.
struct ChromeTraceExporter {
  /// What a pending action's slice needs.
  typealias ActionSlice = (store: String, label: String, args: JSON)

  private let emit: (JSON) -> Void
  private let pid: Int
  private var tracks: [String: Int] = [:]
  private var actions = RecentActions()
  private var reducers = ReducerTiming<ActionSlice>()
  private var running: [Int: (name: String, store: String)] = [:]
  private var lastTime = 0.0

  /// - Parameter emit: called with each trace event object, in no particular order.
  init(pid: Int, program: String, emit: @escaping (JSON) -> Void) {
    self.emit = emit
    self.pid = pid
    emit(["name": "process_name", "ph": "M", "pid": .int(pid), "tid": 0, "args": ["name": .string(program.isEmpty ? "loupe trace" : program)]])
    emit(["name": "thread_name", "ph": "M", "pid": .int(pid), "tid": 0, "args": ["name": "session"]])
  }

  private static func microseconds(_ milliseconds: Double) -> JSON {
    .double((milliseconds * 1_000_000).rounded() / 1000)
  }

  private mutating func track(_ store: String?) -> Int {
    guard let store else { return 0 }
    if let tid = tracks[store] { return tid }
    let tid = tracks.count + 1
    tracks[store] = tid
    emit(["name": "thread_name", "ph": "M", "pid": .int(pid), "tid": .int(tid), "args": ["name": .string(store)]])
    emit(["name": "thread_sort_index", "ph": "M", "pid": .int(pid), "tid": .int(tid), "args": ["sort_index": .int(tid)]])
    return tid
  }

  private mutating func instant(_ name: String, category: String, time: Double, store: String?, scope: String = "t", args: JSONObject) {
    let tid = track(store)
    emit([
      "name": .string(name), "cat": .string(category), "ph": "i", "s": .string(scope), "ts": Self.microseconds(time),
      "pid": .int(pid), "tid": .int(tid), "args": .object(args),
    ])
  }

  mutating func add(_ event: Event) {
    lastTime = max(lastTime, event.time)
    let seq = JSON.int(event.seq)
    if let cause = ReducerTiming<ActionSlice>.cause(of: event) {
      for action in reducers.caused(by: cause, at: event.time) { slice(action, until: event.time) }
    }
    switch event.payload {
    case .sessionStarted(let e):
      instant("session started", category: "session", time: event.time, store: nil, scope: "g", args: ["seq": seq, "startedAt": .string(e.startedAt)])
    case .storeCreated(let e):
      instant("store created", category: "store", time: event.time, store: e.store, args: ["seq": seq, "type": .string(e.type), "identity": .string(e.identity)])
    case .storeDestroyed(let e):
      instant("store destroyed", category: "store", time: event.time, store: e.store, args: ["seq": seq, "identity": .string(e.identity)])
    case .identityChanged(let e):
      instant(
        "identity \(e.reason.rawValue)", category: "identity", time: event.time, store: e.store,
        args: ["seq": seq, "identity": .string(e.identity), "previous": e.previous.map(JSON.string) ?? .null])
    case .actionReceived(let e):
      actions.record(seq: event.seq, label: e.action)
      var args: JSONObject = ["seq": seq, "origin": .string(e.origin.rawValue)]
      if let effect = e.effect { args.append("effect", .int(effect)) }
      if !e.value.isNull { args.append("value", e.value) }
      if let source = e.source { args.append("source", source.json) }
      _ = track(e.store)
      let unmeasured = reducers.received(seq: event.seq, time: event.time, origin: e.origin, info: (e.store, e.action, .object(args)))
      for action in unmeasured { instant(action) }
    case .stateChanged(let e):
      instant(e.summary, category: "state", time: event.time, store: e.store, args: ["seq": seq, "cause": .int(e.cause), "changes": .array(e.changes.map(\.json))])
    case .stateSnapshot(let e):
      // The state itself stays out: a trace viewer shows when, not what.
      instant(
        "state snapshot", category: "state", time: event.time, store: e.store,
        args: ["seq": seq, "cause": e.cause.map(JSON.int) ?? .null, "truncated": .bool(e.truncated)])
    case .effectStarted(let e):
      let name = e.cancelID.map { "effect \($0)" } ?? (actions[e.cause].map { "effect of \($0)" } ?? "effect \(e.effect)")
      running[e.effect] = (name, e.store)
      emit([
        "name": .string(name), "cat": "effect", "ph": "b", "id": .int(e.effect), "ts": Self.microseconds(event.time),
        "pid": .int(pid), "tid": .int(track(e.store)),
        "args": .object(Self.located([
          "seq": seq, "effect": .int(e.effect), "cause": .int(e.cause), "cancelID": e.cancelID.map(JSON.string) ?? .null,
        ], e.source)),
      ])
    case .effectFinished(let e):
      var args: JSONObject = ["seq": seq, "outcome": .string(e.outcome.rawValue)]
      if let error = e.error { args.append("error", .string(error)) }
      end(effect: e.effect, store: e.store, time: event.time, args: args)
    case .effectCancelled(let e):
      var args: JSONObject = ["seq": seq, "cancelled": .string(e.reason.rawValue)]
      if let by = e.by { args.append("by", .object(Self.located(["store": .string(by.store), "cause": .int(by.cause)], by.source))) }
      end(effect: e.effect, store: e.store, time: event.time, args: args)
    case .derivedRecomputed(let e):
      instant(
        "\(e.derived) recomputed", category: "derived", time: event.time, store: e.store,
        args: Self.located(
          ["seq": seq, "outputChanged": .bool(e.outputChanged), "durationNs": .int(e.durationNs), "cause": e.cause.map(JSON.int) ?? .null],
          e.source))
    case .mark(let e):
      instant(e.label, category: "mark", time: event.time, store: nil, scope: "g", args: ["seq": seq])
    case .dropped(let e):
      instant("\(e.count) events dropped", category: "dropped", time: event.time, store: nil, scope: "g", args: ["seq": seq, "count": .int(e.count)])
    case .warning(let e):
      instant(
        "warning: \(e.code)", category: "warning", time: event.time, store: e.store,
        args: Self.located(["seq": seq, "message": .string(e.message)], e.source))
    case .unknown(let kind, let fields):
      instant(kind, category: "other", time: event.time, store: fields["store"]?.stringValue, args: fields)
    }
  }

  /// `args` with `source: {file, line, path?}` added when the event has one (CONTRACT §9).
  private static func located(_ args: JSONObject, _ source: CodeLocation?) -> JSONObject {
    guard let source else { return args }
    var args = args
    args.append("source", source.json)
    return args
  }

  private mutating func end(effect: Int, store: String, time: Double, args: JSONObject) {
    guard let (name, _) = running.removeValue(forKey: effect) else { return }
    emit([
      "name": .string(name), "cat": "effect", "ph": "e", "id": .int(effect), "ts": Self.microseconds(time),
      "pid": .int(pid), "tid": .int(track(store)), "args": .object(args),
    ])
  }

  /// An action as a slice lasting its reducer time.
  private mutating func slice(_ action: ReducerTiming<ActionSlice>.Pending, until time: Double) {
    emit([
      "name": .string(action.info.label), "cat": "action", "ph": "X", "ts": Self.microseconds(action.time),
      "dur": Self.microseconds(time - action.time), "pid": .int(pid), "tid": .int(track(action.info.store)),
      "args": action.info.args,
    ])
  }

  /// An action without a measured reducer time, as an instant.
  private mutating func instant(_ action: ReducerTiming<ActionSlice>.Pending) {
    emit([
      "name": .string(action.info.label), "cat": "action", "ph": "i", "s": "t", "ts": Self.microseconds(action.time),
      "pid": .int(pid), "tid": .int(track(action.info.store)), "args": action.info.args,
    ])
  }

  /// Emits what is still open: actions without a measured reducer time, running effects.
  mutating func finish() {
    for action in reducers.finish() { instant(action) }
    for (effect, info) in running.sorted(by: { $0.key < $1.key }) {
      end(effect: effect, store: info.store, time: lastTime, args: ["stillRunning": true])
    }
  }
}
