import LoupeCore
/// One effect's life in a session: where it started, why, and how it ended.
public struct EffectLife: Sendable, Hashable {
  /// How an effect ended.
  public enum Outcome: Sendable, Hashable {
    case completed
    /// It threw; the error's description when the event carried one.
    case failed(String?)
    /// Stopped before its end; `by` names the store and action that asked, when known.
    case cancelled(reason: EffectCancelled.Reason, by: EffectCancelled.Source?)
  }

  /// Its `effect.finished` / `effect.cancelled` event.
  public struct End: Sendable, Hashable {
    public var position: Int
    public var seq: Int
    /// Session time (ms) of the end.
    public var time: Double
    public var outcome: Outcome
  }

  /// The effect's id (unique within the session).
  public var effect: Int
  public var store: String
  public var cancelID: String?
  /// The line that created it (CONTRACT §9).
  public var source: CodeLocation?
  /// Position and `seq` of its `effect.started`.
  public var started: Int
  public var startSeq: Int
  /// Session time (ms) of the start.
  public var startTime: Double
  /// Position of the action whose reducer returned it.
  public var cause: Int?
  /// Its end; `nil` while it runs.
  public var end: End?

  /// Milliseconds from start to end; `nil` while it runs.
  public var duration: Double? { end.map { $0.time - startTime } }

  /// Whether it has started and not ended right after the event at `index`.
  public func isRunning(at index: Int) -> Bool {
    started <= index && (end.map { $0.position > index } ?? true)
  }
}

extension SessionModel {
  /// The effect with id `effect`, as far as the session knows it (its latest start, when an id
  /// was used twice): read back from its `effect.started` and end events.
  public func effect(_ effect: Int) -> EffectLife? { effectTable.ordinal(of: effect).map(life) }

  /// Every effect running right after the event at `index` (started, not finished or
  /// cancelled), in the order they started.
  public func runningEffects(at index: Int) -> [EffectLife] {
    (0..<effectTable.count).filter { effectTable.isRunning($0, at: index) }.map(life)
  }

  /// Every effect that ended at or before the event at `index`, in the order they started,
  /// with their outcome and duration.
  public func endedEffects(at index: Int) -> [EffectLife] {
    (0..<effectTable.count).filter { effectTable.span($0).end.map { $0 <= index } ?? false }.map(life)
  }

  /// The effect with this ordinal, from its events.
  private func life(_ ordinal: Int) -> EffectLife {
    let span = effectTable.span(ordinal)
    let start = event(at: span.start)
    let started = { () -> EffectStarted? in if case .effectStarted(let e) = start.payload { e } else { nil } }()
    var life = EffectLife(
      effect: effectTable.id(ordinal), store: started?.store ?? store(at: span.start) ?? "", cancelID: started?.cancelID,
      source: started?.source, started: span.start, startSeq: start.seq, startTime: start.time, cause: cause(of: span.start))
    if let position = span.end {
      let end = event(at: position)
      let outcome: EffectLife.Outcome
      switch end.payload {
      case .effectFinished(let e): outcome = e.outcome == .completed ? .completed : .failed(e.error)
      case .effectCancelled(let e): outcome = .cancelled(reason: e.reason, by: e.by)
      default: outcome = .failed(nil)  // an end that could not be read back
      }
      life.end = EffectLife.End(position: position, seq: end.seq, time: end.time, outcome: outcome)
    }
    return life
  }
}

/// A page of events from ``SessionModel/events(from:through:filter:limit:)``.
public struct EventPage {
  /// Positions of the events, in order.
  public var indices: [Int]
  /// The `seq` of the first matching event left out by the limit, or `nil` when none was.
  public var nextSeq: Int?
}

extension SessionModel {
  /// The events with `from <= seq <= through` (to the end when `through` is `nil`) that pass
  /// `filter`, at most `limit` of them.
  public func events(from: Int = Int.min, through: Int? = nil, filter: EventFilter = .all, limit: Int = Int.max) -> EventPage {
    var indices: [Int] = []
    var index = firstIndex(atOrAfterSeq: from)
    // Whether each store passes `filter.stores`, asked once per store.
    var storePasses: [String: Bool] = [:]
    func storeMatches(_ stores: [Glob], _ store: String) -> Bool {
      if let known = storePasses[store] { return known }
      let match = stores.anyMatches(store)
      storePasses[store] = match
      return match
    }
    while index < count {
      let seq = self.seq(at: index)
      if let through, seq > through { break }
      let passes: Bool
      if let verdict = filter.decidesByKind(kindName(at: index)) {
        passes = verdict
      } else if let stores = filter.stores, let store = store(at: index), !storeMatches(stores, store) {
        // Another store's event: decided from the index, not read back.
        passes = false
      } else {
        passes = filter.matches(event(at: index))
      }
      if passes {
        if indices.count >= limit { return EventPage(indices: indices, nextSeq: seq) }
        indices.append(index)
      }
      index += 1
    }
    return EventPage(indices: indices, nextSeq: nil)
  }
}
