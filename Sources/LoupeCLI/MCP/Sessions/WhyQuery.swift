import LoupeCore

/// What `loupe_why` answers about one event: the event, its chain of causes back to the `send`
/// that started it, and what it caused.
///
/// Causes follow the events' own links: a `state.changed`, `effect.started` or
/// `derived.recomputed` names its action (`cause`); an action sent by an effect names the
/// effect (`effect`), which names the action that started it; a cancellation names the action
/// that cancelled (`by.cause`); an effect's end, its start. An action routed from a parent
/// (`origin: parent`) and a store's or identity's change are tied to the newest action of an
/// ancestor store before them.
///
/// NOT FINISHED: until the shared session model (issue 13) is on main, this is two streaming
/// passes over the trace (memory: one entry per action and per effect); then it becomes a
/// lookup in the model's cause index.
struct WhyQuery {
  struct Answer {
    var event: RawEvent
    /// Newest first, ending at the `send`.
    var causes: [RawEvent]
    /// What the event caused, in order (at most ``limit``).
    var effects: [RawEvent]
    /// How many events it caused in all, by kind.
    var effectCounts: [String: Int]
    /// For an effect's end (finished or cancelled): the `effect.started` of that effect.
    var endedEffect: RawEvent?
  }

  /// An event of the answer.
  struct RawEvent {
    var event: Event
  }

  static let chainLimit = 20
  let limit: Int

  private struct ActionInfo {
    var store: String
    var origin: ActionReceived.Origin
    var effect: Int?
  }

  func answer(_ seq: Int, in path: String) throws(ToolFailure) -> Answer {
    // Pass 1, up to the event: the links between actions and effects.
    var actions: [Int: ActionInfo] = [:]
    var effectStarts: [Int: (seq: Int, cause: Int)] = [:]
    var lastAction: [String: Int] = [:]
    var target: RawEvent?
    let linkKinds = EventFilter(kinds: [Glob(ActionReceived.kind), Glob(EffectStarted.kind)])
    let reader = try open(path)
    while let item = try next(reader) {
      if item.seq > seq { break }
      if item.seq == seq { target = decode(item) }
      guard linkKinds.decidesByKind(item.kind) == true, let event = item.event ?? decode(item)?.event else { continue }
      switch event.payload {
      case .actionReceived(let e):
        actions[event.seq] = ActionInfo(store: e.store, origin: e.origin, effect: e.effect)
        if event.seq < seq { lastAction[e.store] = event.seq }
      case .effectStarted(let e):
        effectStarts[e.effect] = (event.seq, e.cause)
      default:
        break
      }
    }
    guard let target else {
      throw ToolFailure("no-such-event", "There is no event #\(seq) in this session (see loupe_timeline for the seqs there are).")
    }

    func ancestorAction(of store: String, before: Int) -> Int? {
      var candidate: String? = store
      var best: Int?
      while let current = candidate {
        if let action = lastAction[current], action < before { best = max(best ?? action, action) }
        candidate = current.lastIndex(of: "/").map { String(current[..<$0]) }
      }
      return best
    }

    func cause(of event: Event) -> Int? {
      switch event.payload {
      case .stateChanged(let e): return e.cause
      case .effectStarted(let e): return e.cause
      case .derivedRecomputed(let e): return e.cause
      case .effectFinished(let e): return effectStarts[e.effect]?.seq
      case .effectCancelled(let e): return e.by?.cause ?? effectStarts[e.effect]?.seq
      case .actionReceived(let e):
        switch e.origin {
        case .send: return nil
        case .effect: return e.effect.flatMap { effectStarts[$0]?.seq }
        case .parent:
          let parent = e.store.lastIndex(of: "/").map { String(e.store[..<$0]) }
          return parent.flatMap { ancestorAction(of: $0, before: event.seq) }
        }
      case .storeCreated, .storeDestroyed, .identityChanged:
        return event.store.flatMap { ancestorAction(of: $0, before: event.seq) }
      default: return nil
      }
    }

    // The chain, from the links alone: actions and effect starts.
    var chain: [Int] = []
    var current = cause(of: target.event)
    while let link = current, link < seq, chain.count < Self.chainLimit, !chain.contains(link) {
      chain.append(link)
      if let action = actions[link] {
        switch action.origin {
        case .send: current = nil
        case .effect: current = action.effect.flatMap { effectStarts[$0]?.seq }
        case .parent:
          let parent = action.store.lastIndex(of: "/").map { String(action.store[..<$0]) }
          current = parent.flatMap { ancestorAction(of: $0, before: link) }
        }
      } else if let start = effectStarts.values.first(where: { $0.seq == link }) {
        current = start.cause
      } else {
        current = nil
      }
    }

    // Pass 2: the events of the chain, and what the event caused.
    var endedEffectSeq: Int?
    switch target.event.payload {
    case .effectFinished(let e): endedEffectSeq = effectStarts[e.effect]?.seq
    case .effectCancelled(let e): endedEffectSeq = effectStarts[e.effect]?.seq
    default: break
    }
    let wanted = Set(chain + (endedEffectSeq.map { [$0] } ?? []))
    var found: [Int: RawEvent] = [:]
    var effects: [RawEvent] = []
    var counts: [String: Int] = [:]
    var startedEffects: Set<Int> = []
    if case .effectStarted(let e) = target.event.payload { startedEffects.insert(e.effect) }
    let second = try open(path)
    while let item = try next(second) {
      if item.seq < seq {
        if wanted.contains(item.seq), let raw = decode(item) { found[item.seq] = raw }
        continue
      }
      if item.seq == seq { continue }
      guard Self.consequenceKinds.contains(item.kind), let raw = decode(item) else { continue }
      guard caused(raw.event, by: target.event, startedEffects: &startedEffects) else { continue }
      counts[raw.event.kind, default: 0] += 1
      if effects.count < limit { effects.append(raw) }
    }
    return Answer(
      event: target, causes: chain.compactMap { found[$0] }, effects: effects, effectCounts: counts,
      endedEffect: endedEffectSeq.flatMap { found[$0] })
  }

  private static let consequenceKinds: Set<String> = [
    StateChanged.kind, EffectStarted.kind, EffectFinished.kind, EffectCancelled.kind, DerivedRecomputed.kind, ActionReceived.kind,
  ]

  /// Whether `event` (after `target`) was caused by it: directly, or as an action sent by an
  /// effect it started (and that effect's end).
  private func caused(_ event: Event, by target: Event, startedEffects: inout Set<Int>) -> Bool {
    let seq = target.seq
    switch event.payload {
    case .stateChanged(let e): return e.cause == seq
    case .derivedRecomputed(let e): return e.cause == seq
    case .effectStarted(let e):
      if e.cause == seq { startedEffects.insert(e.effect) }
      return e.cause == seq
    case .effectCancelled(let e): return e.by?.cause == seq || startedEffects.contains(e.effect)
    case .effectFinished(let e): return startedEffects.contains(e.effect)
    case .actionReceived(let e): return e.origin == .effect && e.effect.map(startedEffects.contains) == true
    default: return false
    }
  }

  private func open(_ path: String) throws(ToolFailure) -> TraceReader {
    do {
      return try TraceInput.open(path)
    } catch {
      throw ToolFailure("io-error", error.message)
    }
  }

  private func next(_ reader: TraceReader) throws(ToolFailure) -> TraceReader.Item? {
    do {
      return try TraceInput.next(reader, decode: false)
    } catch {
      throw ToolFailure("io-error", error.message)
    }
  }

  private func decode(_ item: TraceReader.Item) -> RawEvent? {
    guard let event = item.event ?? (try? Event(jsonText: item.bytes)) else { return nil }
    return RawEvent(event: event)
  }
}
