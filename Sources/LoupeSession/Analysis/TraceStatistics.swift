import LoupeCore

/// The numbers `loupe stats` prints, gathered from one pass over the events in bounded memory
/// (it keeps per-action, per-effect-origin, per-derived-value and per-store rows — the last at
/// most ``StoreRows/defaultLimit``, then grouped by the stores' shape — and the effects still
/// running, not the events).
///
/// Reducer time is measured as ``ReducerTiming`` defines it.
package struct TraceStatistics {
  package init() {}

  package struct ActionRow {
    package var count = 0
    package var reducer = Distribution()
  }

  /// Effects grouped by the action that started them, their cancel id and the line that
  /// created them (CONTRACT §9; `nil` in traces without source locations).
  package struct EffectKey: Hashable, Comparable {
    package var action: String
    package var cancelID: String?
    package var source: CodeLocation?
    static package func < (a: EffectKey, b: EffectKey) -> Bool {
      (a.action, a.cancelID ?? "", a.source?.file ?? "", a.source?.line ?? 0)
        < (b.action, b.cancelID ?? "", b.source?.file ?? "", b.source?.line ?? 0)
    }
  }

  package struct EffectRow {
    package var started = 0
    package var completed = 0
    package var failed = 0
    package var cancelled = 0
    package var durations = Distribution()
    package var running: Int { started - completed - failed - cancelled }
  }

  package struct DerivedRow {
    package var recomputed = 0
    package var unchanged = 0
    package var durations = Distribution()
  }

  package struct IdentityRow {
    package var changes = 0
    package var reasons: [String: Int] = [:]

    mutating package func add(_ other: IdentityRow) {
      changes += other.changes
      reasons.merge(other.reasons, uniquingKeysWith: +)
    }
  }

  package var events = 0
  package var kinds: [String: Int] = [:]
  package var firstTime: Double?
  package var lastTime: Double?
  package var lastSeq: Int?
  package var session: SessionStarted?
  package var storesCreated = 0
  package var storesDestroyed = 0
  package var dropped = 0
  package var warnings: [String: Int] = [:]
  package var actions: [String: ActionRow] = [:]
  package var effects: [EffectKey: EffectRow] = [:]
  package var derived: [String: DerivedRow] = [:]
  /// Identity changes per store, grouped by the stores' shape past ``StoreRows/defaultLimit``
  /// stores (so memory is bounded whatever the number of stores).
  package var identities = StoreRows<IdentityRow> { $0.add($1) }

  private var recentActions = RecentActions()
  private var reducers = ReducerTiming<String>()
  /// Effects started and not ended: id → (group, start time).
  private var running: [Int: (key: EffectKey, time: Double)] = [:]

  /// Runs read before the current one (`loupe stats` over several traces), and their time.
  package private(set) var earlierRuns = 0
  private var earlierSpan = 0.0

  /// The time the runs read so far cover, in milliseconds: first to last event of each.
  package var span: Double { earlierSpan + (lastTime ?? 0) - (firstTime ?? 0) }

  /// Begins another run: totals and distributions go on; what ties events of one run
  /// together (`seq`s, effect ids) starts afresh.
  mutating package func startRun() {
    guard events > 0 else { return }
    earlierRuns += 1
    earlierSpan = span
    firstTime = nil
    lastTime = nil
    recentActions = RecentActions()
    reducers = ReducerTiming<String>()
    running.removeAll()
  }

  /// Reads the rest of `reader` (what `loupe stats` does; the MCP tool `loupe_stats` adds the session's events as they come).
  static package func gather(_ reader: TraceReader, into statistics: TraceStatistics = TraceStatistics(), progress: (any ReadProgress)? = nil) throws(CommandFailure)
    -> TraceStatistics
  {
    var statistics = statistics
    statistics.startRun()
    while let item = try reader.nextItem(), let event = item.event {
      statistics.add(event)
      progress?.update(reader.bytesRead)
    }
    return statistics
  }

  mutating package func add(_ event: Event) {
    events += 1
    kinds[event.kind, default: 0] += 1
    if firstTime == nil { firstTime = event.time }
    lastTime = event.time
    lastSeq = event.seq
    if let cause = ReducerTiming<String>.cause(of: event) {
      for action in reducers.caused(by: cause, at: event.time) {
        actions[action.info]?.reducer.add(event.time - action.time)
      }
    }
    switch event.payload {
    case .sessionStarted(let e):
      session = e
    case .storeCreated:
      storesCreated += 1
    case .storeDestroyed:
      storesDestroyed += 1
    case .actionReceived(let e):
      actions[e.action, default: ActionRow()].count += 1
      recentActions.record(seq: event.seq, label: e.action)
      _ = reducers.received(seq: event.seq, time: event.time, origin: e.origin, info: e.action)
    case .stateChanged:
      break
    case .effectStarted(let e):
      // The path is left out of the key: the same line built on two machines is one origin.
      let key = EffectKey(action: recentActions[e.cause] ?? "#\(e.cause)", cancelID: e.cancelID, source: e.source?.withoutPath)
      effects[key, default: EffectRow()].started += 1
      running[e.effect] = (key, event.time)
    case .effectFinished(let e):
      guard let (key, start) = running.removeValue(forKey: e.effect) else { break }
      if e.outcome == .completed { effects[key]!.completed += 1 } else { effects[key]!.failed += 1 }
      effects[key]!.durations.add(event.time - start)
    case .effectCancelled(let e):
      guard let (key, start) = running.removeValue(forKey: e.effect) else { break }
      effects[key]!.cancelled += 1
      effects[key]!.durations.add(event.time - start)
    case .derivedRecomputed(let e):
      var row = derived[e.derived, default: DerivedRow()]
      row.recomputed += 1
      if !e.outputChanged { row.unchanged += 1 }
      row.durations.add(Double(e.durationNs) / 1_000_000)
      derived[e.derived] = row
    case .identityChanged(let e):
      identities.update(e.store, initial: IdentityRow()) { row in
        row.changes += 1
        row.reasons[e.reason.rawValue, default: 0] += 1
      }
    case .dropped(let e):
      dropped += e.count
    case .warning(let e):
      warnings[e.code, default: 0] += 1
    case .mark, .stateSnapshot, .unknown:
      break
    }
  }
}
