import LoupeCore
import LoupeRPC

/// One client's subscription: its compiled filter, its place in the hub's ``EventLog``, and
/// the source its connection's writer pulls `loupe/events` notifications from.
///
/// Nothing here runs on the program's thread. The writer, in ``nextOutgoingBody()``, takes an
/// O(1) snapshot of the log from the hub, then filters and encodes up to ``maxBatch`` events
/// on its own thread. A subscription with `history: true` starts at the oldest event kept and
/// holds that snapshot until it has read it, so eviction cannot take its history away.
///
/// A client that falls behind loses events: past ``capacity`` events (or ``byteCapacity``
/// bytes) behind the newest, or past what the log keeps. The loss is reported in its place, as
/// a `dropped {count}` event with the `seq` and `time` of the last lost event, so the stream
/// stays in `seq` order. (Unlike the events, the count is not filtered: it is every event the
/// client did not get.) Memory: a subscription holds no events of its own, only, while it has
/// unread events, a reference to the log's segments.
final class ClientSubscription: OutgoingSource, Sendable {
  private struct State {
    var filter = CompiledEventFilter.all
    /// Taking events (between `loupe/subscribe` and `loupe/unsubscribe`).
    var active = false
    /// No new events after this position, but those before it are still sent (`shutdown`).
    var stopAt: Int?
    /// Events wait until the `loupe/subscribe` answer is queued ahead of them.
    var released = false
    /// The next position of the log to read.
    var position = 0
    /// A snapshot with unread events (the history, or a backlog being read).
    var held: EventLogSnapshot?
    /// Events a history sends before the log's (``KeptSnapshots/prelude(before:evicted:)``),
    /// not yet sent.
    var prelude: ArraySlice<Event> = []
    /// A loss to report before the next event.
    var lost: LostEvents?
    /// Bumped by every (re)subscription, so a batch read for an earlier one is discarded.
    var generation = 0
    var totalDropped = 0
  }

  /// How many events a client may fall behind the newest before it loses the oldest.
  let capacity: Int
  /// How many bytes of events (``Event/approximateBytes``) it may fall behind.
  let byteCapacity: Int
  let maxBatch: Int
  private weak let hub: EventHub?
  private let state = Lock(State())
  private let wake: @Sendable () -> Void

  /// - Parameters:
  ///   - capacity: events a client that does not keep up may fall behind.
  ///   - byteCapacity: the most bytes those events may hold.
  ///   - maxBatch: most events per `loupe/events` notification.
  ///   - wake: tells the connection's writer there is something to pull.
  init(hub: EventHub, capacity: Int, byteCapacity: Int = .max, maxBatch: Int, wake: @escaping @Sendable () -> Void) {
    self.hub = hub
    self.capacity = max(1, capacity)
    self.byteCapacity = max(1, byteCapacity)
    self.maxBatch = max(1, maxBatch)
    self.wake = wake
  }

  /// Starts (or restarts) the subscription at the start of `snapshot` (with `history`, after
  /// the `prelude` if any, else after reporting `evicted`) or at its end. Returns how many
  /// events of the history pass `filter` (`dropped` ones aside), counted here on the caller's
  /// thread.
  func activate(
    filter: CompiledEventFilter, snapshot: EventLogSnapshot, history: Bool, evicted: LostEvents?, prelude: [Event] = []
  ) -> Int {
    state.withLock { state in
      state.generation += 1
      state.filter = filter
      state.active = true
      state.stopAt = nil
      state.released = false
      state.position = history ? snapshot.first : snapshot.end
      state.held = history && snapshot.count > 0 ? snapshot : nil
      state.prelude = history ? prelude[...] : []
      // The prelude reports the losses among its events itself.
      state.lost = history && prelude.isEmpty ? evicted : nil
    }
    guard history else { return 0 }
    let kept = prelude.count { $0.kind != Dropped.kind && filter.matches($0) }
    if filter.passesEverything { return kept + snapshot.count }
    var count = kept
    for position in snapshot.first..<snapshot.end where filter.matches(snapshot.event(at: position)) { count += 1 }
    return count
  }

  /// Lets events flow (after the subscribe answer was queued).
  func release() {
    state.withLock { $0.released = true }
    wake()
  }

  /// Takes no events after `end`, but still sends those before it (`shutdown`, `exit`: the
  /// history and events a subscription was given are still the client's).
  func stopTaking(at end: Int) {
    state.withLock { state in
      guard state.active else { return }
      state.active = false
      state.stopAt = end
    }
  }

  /// Stops the subscription and lets go of everything it held.
  func deactivate() {
    state.withLock { state in
      state.generation += 1
      state.active = false
      state.stopAt = nil
      state.released = false
      state.held = nil
      state.prelude = []
      state.lost = nil
      state.filter = .all
    }
  }

  /// Called by the hub's waker after an event arrived for a subscription that waited.
  func hubHasEvents() { wake() }

  /// Events lost by this client so far (for tests and diagnostics).
  var droppedCount: Int { state.withLock { $0.totalDropped } }

  /// The next `loupe/events` body, read, filtered and encoded here on the writer's thread;
  /// `nil` when there is nothing to send (the hub then wakes the writer after the next event).
  func nextOutgoingBody() -> [UInt8]? {
    if let body = nextPreludeBody() { return body }
    while true {
      guard let start = state.withLock({ state in
        state.released && (state.active || state.stopAt != nil)
          ? (state.generation, state.position, state.held, state.lost, state.filter, state.stopAt) : nil
      }) else { return nil }
      var (generation, position, snapshot, lost, filter, stopAt) = start
      var newlyLost = 0
      if let stopAt, position >= stopAt, lost == nil { return nil }  // shut down, all sent
      if snapshot.map({ position >= $0.end }) ?? true {
        guard let hub else { return nil }
        let (fresh, evicted) = hub.read(from: position, for: self, waitingIfNone: stopAt == nil)
        if let evicted {
          newlyLost += evicted.count
          lost = LostEvents(count: (lost?.count ?? 0) + evicted.count, lastSeq: evicted.lastSeq, lastTime: evicted.lastTime)
          position = fresh.first
        }
        // Behind by more than this client may be: the oldest of its backlog are lost.
        let kept = max(fresh.end - capacity, fresh.start(keepingAtMost: byteCapacity, from: position))
        if kept > position {
          let last = fresh.event(at: kept - 1)
          newlyLost += kept - position
          lost = LostEvents(count: (lost?.count ?? 0) + kept - position, lastSeq: last.seq, lastTime: last.time)
          position = kept
        }
        // Nothing to read: the hub wakes the writer after the next event (unless stopped).
        if position >= min(fresh.end, stopAt ?? .max), lost == nil { return nil }
        snapshot = fresh
      }
      guard let snapshot else { return nil }
      let end = min(snapshot.end, stopAt ?? .max)
      var batch: [Event] = []
      if let lost { batch.append(lost.event) }
      while position < end, batch.count < maxBatch {
        let event = snapshot.event(at: position)
        position += 1
        if filter.matches(event) { batch.append(event) }
      }
      let current = state.withLock { state in
        guard state.generation == generation else { return false }
        state.position = position
        state.held = position < snapshot.end ? snapshot : nil
        state.lost = nil
        state.totalDropped += newlyLost
        return true
      }
      guard current else { continue }  // resubscribed meanwhile: read for the new subscription
      if batch.isEmpty { continue }  // a stretch the filter took nothing from: read on
      var writer = JSONWriter(capacity: 256 * batch.count)
      EventsNotification.encode(batch, into: &writer)
      return writer.bytes
    }
  }
}

extension ClientSubscription {
  /// The next batch of a history's prelude (its losses always pass the filter); `nil` once
  /// it is sent.
  fileprivate func nextPreludeBody() -> [UInt8]? {
    while true {
      let batch: [Event]? = state.withLock { state in
        guard state.released, state.active || state.stopAt != nil, !state.prelude.isEmpty else { return nil }
        var batch: [Event] = []
        while let event = state.prelude.first, batch.count < maxBatch {
          state.prelude.removeFirst()
          if event.kind == Dropped.kind || state.filter.matches(event) { batch.append(event) }
        }
        return batch
      }
      guard let batch else { return nil }
      if batch.isEmpty { continue }
      var writer = JSONWriter(capacity: 256 * batch.count)
      EventsNotification.encode(batch, into: &writer)
      return writer.bytes
    }
  }
}

/// Events that were lost, summarized as the `dropped` event that reports them: it carries the
/// `seq` and `time` of the last lost event, so it sorts where the loss ended.
struct LostEvents: Sendable, Hashable {
  var count: Int
  var lastSeq: Int
  var lastTime: Double

  var event: Event { Event(seq: lastSeq, time: lastTime, payload: .dropped(Dropped(count: count))) }
}
