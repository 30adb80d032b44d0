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
  /// The effect with id `effect`, as far as the session knows it.
  public func effect(_ effect: Int) -> EffectLife? { effectLives[effect] }

  /// Every effect running right after the event at `index` (started, not finished or
  /// cancelled), in the order they started.
  public func runningEffects(at index: Int) -> [EffectLife] {
    effectOrder.compactMap { id in effectLives[id].flatMap { $0.isRunning(at: index) ? $0 : nil } }
  }

  /// Every effect that ended at or before the event at `index`, in the order they started,
  /// with their outcome and duration.
  public func endedEffects(at index: Int) -> [EffectLife] {
    effectOrder.compactMap { id in
      guard let record = effectLives[id], let end = record.end, end.position <= index else { return nil }
      return record
    }
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
    let kindOnly = filter.stores == nil && filter.actions == nil && filter.paths == nil
    while index < count {
      let seq = entries[index].seq
      if let through, seq > through { break }
      let passes: Bool
      if kindOnly, let verdict = filter.decidesByKind(kindName(at: index)) {
        passes = verdict
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
