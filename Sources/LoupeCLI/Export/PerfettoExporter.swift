import LoupeCore
import LoupeSession

/// Turns one run's events into a native Perfetto trace (CONTRACT §15), streaming.
///
/// - Tracks: the program is a process track; under it a `session` track (marks, dropped
///   events) and a track per store, a child store's track under its parent's. Each store's
///   effects run on lanes under the store's track (`effects 1`, `effects 2`, …): a lane is
///   reused once its effect ended, so overlapping effects show side by side.
/// - Slices: a store's lifetime; its actions, each from `action.received` to the last event
///   it caused before the next action (see ``OpenActions``); effects from start to finish or
///   cancellation.
///   State changes, derived recomputations, identity changes and warnings are instants.
/// - Flows (arrows): an action to each effect it started, an effect to each action it sent
///   (from a `send` instant on the effect's lane), and the cancelling action to the
///   cancellation (a `cancelled` instant before the effect's end). Both ends of every flow
///   are written: a flow whose source is no longer open is left out.
///
/// Packets are appended to ``output``; the caller takes the bytes as they grow.
struct PerfettoExporter {
  struct ActionInfo {
    var name: String
    var flows: [UInt64] = []
    var terminatingFlows: [UInt64] = []
    var annotations: [(name: String, value: PerfettoPackets.Annotation)]
  }

  struct StoreTrack {
    var uuid: UInt64
    var lanes: [Bool] = []
    /// Between its `store.created` and `store.destroyed`: its lifetime slice is open.
    var alive = false
  }

  struct RunningEffect {
    var store: String
    var lane: Int
    var track: UInt64
    var start: UInt64
  }

  private let identity: ExportIdentity
  private let processTrack: UInt64
  private let sessionTrack: UInt64
  private var stores: [String: StoreTrack] = [:]
  /// Identity changes of a store not created yet (they come just before its `store.created`).
  private var early: [String: [PerfettoPackets.TrackEvent]] = [:]
  private var actions = OpenActions<ActionInfo>()
  private var effects: [Int: RunningEffect] = [:]
  private var labels = RecentActions()
  private var lastTime: UInt64
  /// The encoded packets not taken yet.
  private(set) var output = ProtobufWriter(capacity: 1 << 20)

  init(header: TraceHeader, identity: ExportIdentity? = nil) {
    let identity = identity ?? ExportIdentity(header: header)
    self.identity = identity
    processTrack = identity.id(.run, 0)
    sessionTrack = identity.id(.run, 1)
    lastTime = identity.startNanos
    PerfettoPackets.writeSequenceStart(to: &output)
    let program = header.program.isEmpty ? "loupe trace" : header.program
    PerfettoPackets.write(.init(uuid: processTrack, name: program, pid: header.pid, chronologicalChildren: true), to: &output)
    PerfettoPackets.write(.init(uuid: sessionTrack, parent: processTrack, name: "session"), to: &output)
  }

  /// Takes the bytes encoded so far.
  mutating func takeBytes() -> [UInt8] {
    defer { output.reset() }
    return output.bytes
  }

  mutating func add(_ event: Event) {
    let time = identity.nanos(event.time)
    lastTime = max(lastTime, time)
    let seq = ("seq", PerfettoPackets.Annotation.int(event.seq))
    switch event.payload {
    case .sessionStarted(let e):
      instant(on: sessionTrack, time, "session started", "session", [seq, ("startedAt", .string(e.startedAt))])
    case .storeCreated(let e):
      let track = storeTrack(e.store, parent: e.parent)
      guard stores[e.store]?.alive == false else { break }
      stores[e.store]?.alive = true
      write(.init(time: time, type: .sliceBegin, track: track, name: "store \(e.type)", category: "store", annotations: [seq, ("identity", .string(e.identity))]))
    case .storeDestroyed(let e):
      let track = storeTrack(e.store)
      if let action = actions.close(store: e.store, at: event.time) { emit(action) }
      if stores[e.store]?.alive == true {
        stores[e.store]?.alive = false
        write(.init(time: time, type: .sliceEnd, track: track, annotations: [("endSeq", .int(event.seq))]))
      }
    case .identityChanged(let e):
      var annotations = [seq, ("identity", .string(e.identity)), ("reason", .string(e.reason.rawValue))]
      if let previous = e.previous { annotations.append(("previous", .string(previous))) }
      let instant = PerfettoPackets.TrackEvent(
        time: time, type: .instant, track: identity.id(.store, e.store), name: "identity \(e.reason.rawValue)", category: "identity",
        annotations: annotations)
      if stores[e.store] == nil { early[e.store, default: []].append(instant) } else { write(instant) }
    case .actionReceived(let e):
      labels.record(seq: event.seq, label: e.action)
      _ = storeTrack(e.store)
      var info = ActionInfo(name: e.action, annotations: [seq, ("origin", .string(e.origin.rawValue))])
      if let source = e.source { info.annotations.append(("source", .string(source.description))) }
      if let effect = e.effect, let running = effects[effect] {
        let flow = identity.id(.sendFlow, event.seq)
        // Just before the action, so the arrow's direction is plain from the timestamps.
        instant(on: running.track, time > running.start ? time - 1 : running.start, "send \(e.action)", "effect", [seq], flows: [flow])
        info.terminatingFlows.append(flow)
      }
      for closed in actions.open(seq: event.seq, store: e.store, time: event.time, closesOthers: e.origin != .parent, info: info) { emit(closed) }
    case .stateChanged(let e):
      actions.update(e.cause, causedAt: event.time)
      instant(on: storeTrack(e.store), time, e.summary, "state", [seq, ("cause", .int(e.cause))])
    case .stateSnapshot(let e):
      if let cause = e.cause { actions.update(cause, causedAt: event.time) }
      instant(on: storeTrack(e.store), time, "state snapshot", "state", [seq])
    case .effectStarted(let e):
      start(effect: e, seq: event.seq, at: event.time)
    case .effectFinished(let e):
      var annotations = [("endSeq", PerfettoPackets.Annotation.int(event.seq)), ("outcome", .string(e.outcome.rawValue))]
      if let error = e.error { annotations.append(("error", .string(error))) }
      end(effect: e.effect, at: time, annotations)
    case .effectCancelled(let e):
      guard let running = effects[e.effect] else { break }
      var annotations = [seq, ("reason", PerfettoPackets.Annotation.string(e.reason.rawValue))]
      if let by = e.by {
        let flow = identity.id(.cancelFlow, event.seq)
        annotations += [("byStore", .string(by.store)), ("byCause", .int(by.cause))]
        let linked = actions.update(by.cause, causedAt: event.time) { $0.info.flows.append(flow) }
        instant(on: running.track, time, "cancelled", "effect", annotations, terminatingFlows: linked ? [flow] : [])
      } else {
        instant(on: running.track, time, "cancelled", "effect", annotations)
      }
      end(effect: e.effect, at: time, [("cancelled", .string(e.reason.rawValue))])
    case .derivedRecomputed(let e):
      if let cause = e.cause { actions.update(cause, causedAt: event.time) }
      instant(
        on: storeTrack(e.store), time, "\(e.derived) recomputed", "derived",
        [seq, ("outputChanged", .bool(e.outputChanged)), ("durationNs", .int(e.durationNs))])
    case .mark(let e):
      instant(on: sessionTrack, time, e.label, "mark", [seq])
    case .dropped(let e):
      instant(on: sessionTrack, time, "\(e.count) events dropped", "dropped", [seq])
    case .warning(let e):
      instant(on: e.store.map { storeTrack($0) } ?? sessionTrack, time, "warning: \(e.code)", "warning", [seq, ("message", .string(e.message))])
    case .unknown(let kind, let fields):
      instant(on: fields["store"]?.stringValue.map { storeTrack($0) } ?? sessionTrack, time, kind, "other", [seq])
    }
  }

  /// Whether ``finish()`` was called: what ``output`` holds is the last of it.
  private(set) var isFinished = false

  /// Ends what is still open at the last event's time.
  mutating func finish() {
    isFinished = true
    for action in actions.closeAll() { emit(action) }
    for effect in effects.keys.sorted() { end(effect: effect, at: lastTime, [("stillRunning", .bool(true))]) }
    // Stores seen only in identity changes get their track now (which writes those).
    for store in early.keys.sorted() { _ = storeTrack(store) }
    for (_, track) in stores.sorted(by: { $0.key < $1.key }) where track.alive {
      write(.init(time: lastTime, type: .sliceEnd, track: track.uuid))
    }
  }

  // MARK: - Tracks and slices

  /// The store's track, described the first time (under `parent`'s track, else the process).
  private mutating func storeTrack(_ store: String, parent: String? = nil) -> UInt64 {
    if let track = stores[store] { return track.uuid }
    let uuid = identity.id(.store, store)
    let parentTrack = parent.flatMap { stores[$0]?.uuid } ?? processTrack
    PerfettoPackets.write(.init(uuid: uuid, parent: parentTrack, name: store, chronologicalChildren: true), to: &output)
    stores[store] = StoreTrack(uuid: uuid)
    for instant in early.removeValue(forKey: store) ?? [] { write(instant) }
    return uuid
  }

  private mutating func start(effect e: EffectStarted, seq: Int, at milliseconds: Double) {
    let storeUUID = storeTrack(e.store)
    var lanes = stores[e.store]!.lanes
    let lane = lanes.firstIndex(of: false) ?? lanes.count
    let track = identity.id(.lane, "\(e.store)\u{0}\(lane)")
    if lane == lanes.count {
      lanes.append(true)
      PerfettoPackets.write(.init(uuid: track, parent: storeUUID, name: "effects \(lane + 1)"), to: &output)
    } else {
      lanes[lane] = true
    }
    stores[e.store]!.lanes = lanes
    let time = identity.nanos(milliseconds)
    effects[e.effect] = RunningEffect(store: e.store, lane: lane, track: track, start: time)
    let flow = identity.id(.startFlow, e.effect)
    let linked = actions.update(e.cause, causedAt: milliseconds) { $0.info.flows.append(flow) }
    var annotations: [(name: String, value: PerfettoPackets.Annotation)] = [("seq", .int(seq)), ("effect", .int(e.effect)), ("cause", .int(e.cause))]
    if let cancelID = e.cancelID { annotations.append(("cancelID", .string(cancelID))) }
    if let source = e.source { annotations.append(("source", .string(source.description))) }
    let name = e.cancelID.map { "effect \($0)" } ?? (labels[e.cause].map { "effect of \($0)" } ?? "effect \(e.effect)")
    write(.init(time: time, type: .sliceBegin, track: track, name: name, category: "effect", terminatingFlows: linked ? [flow] : [], annotations: annotations))
  }

  private mutating func end(effect: Int, at time: UInt64, _ annotations: [(name: String, value: PerfettoPackets.Annotation)]) {
    guard let running = effects.removeValue(forKey: effect) else { return }
    stores[running.store]?.lanes[running.lane] = false
    write(.init(time: max(time, running.start), type: .sliceEnd, track: running.track, annotations: annotations))
  }

  /// An action's slice, written once it is closed and its flows are known.
  private mutating func emit(_ action: OpenActions<ActionInfo>.Action) {
    let track = identity.id(.store, action.store)
    write(
      .init(
        time: identity.nanos(action.start), type: .sliceBegin, track: track, name: action.info.name, category: "action",
        flows: action.info.flows, terminatingFlows: action.info.terminatingFlows, annotations: action.info.annotations))
    write(.init(time: identity.nanos(action.end), type: .sliceEnd, track: track))
  }

  private mutating func instant(
    on track: UInt64, _ time: UInt64, _ name: String, _ category: String, _ annotations: [(name: String, value: PerfettoPackets.Annotation)],
    flows: [UInt64] = [], terminatingFlows: [UInt64] = []
  ) {
    write(.init(time: time, type: .instant, track: track, name: name, category: category, flows: flows, terminatingFlows: terminatingFlows, annotations: annotations))
  }

  private mutating func write(_ event: PerfettoPackets.TrackEvent) {
    PerfettoPackets.write(event, to: &output)
  }
}
