import LoupeRPC
import Synchronization

/// One subscriber's bounded queue of events, and the source its connection's writer pulls
/// `loupe/events` notifications from.
///
/// ``offer(_:)`` runs on the program's thread inside the bus's lock: it only checks the filter
/// and appends under a short lock. When the queue is full the event is dropped and counted;
/// once there is room again (or the queue drains) a `dropped {count}` event takes the place of
/// the lost ones, with the `seq` and `time` of the last of them, so the stream stays in `seq`
/// order and a filter never hides a loss. Encoding happens in ``nextOutgoingBody()``, on the
/// connection's writer thread, in batches.
final class ClientQueue: OutgoingSource, Sendable {
  private struct State {
    var events: EventRing
    var limit: Int
    /// Bytes of queued events (``Event/approximateBytes``) beyond which live events are refused.
    var byteLimit: Int
    var filter = EventFilter.all
    var subscribed = false
    /// Events are held back until the `loupe/subscribe` answer is queued ahead of them.
    var released = false
    var lost: LostEvents?
    /// The writer found nothing last time and waits for a wake-up.
    var writerWaiting = true
    var totalDropped = 0
  }

  let capacity: Int
  /// The most bytes of live events held (``Event/approximateBytes``).
  let byteCapacity: Int
  let maxBatch: Int
  private let state: Mutex<State>
  private let wake: @Sendable () -> Void

  /// - Parameters:
  ///   - capacity: live events held for a client that does not keep up.
  ///   - byteCapacity: the most bytes those events may hold (``Event/approximateBytes``);
  ///     an event that would pass it is refused like one past `capacity`, unless the queue
  ///     is empty.
  ///   - maxBatch: most events per `loupe/events` notification.
  ///   - wake: tells the connection's writer there is something to pull.
  init(capacity: Int, byteCapacity: Int = .max, maxBatch: Int, wake: @escaping @Sendable () -> Void) {
    self.capacity = max(1, capacity)
    self.byteCapacity = max(1, byteCapacity)
    self.maxBatch = max(1, maxBatch)
    self.wake = wake
    state = Mutex(State(events: EventRing(capacity: self.capacity), limit: self.capacity, byteLimit: self.byteCapacity))
  }

  /// Starts (or restarts) a subscription with `filter`, queueing `history` first. Called by
  /// the hub under its lock, so nothing falls between the history and the live events.
  func activate(filter: EventFilter, history: [Event], evicted: LostEvents?) {
    state.withLock { state in
      let limit = capacity + history.count + 1
      state.events = EventRing(capacity: limit)
      state.limit = capacity + history.count
      state.filter = filter
      state.subscribed = true
      state.released = false
      state.lost = nil
      if let evicted {
        state.events.append(evicted.event)
      }
      for event in history { state.events.append(event) }
      let (sum, overflow) = byteCapacity.addingReportingOverflow(state.events.bytes)
      state.byteLimit = overflow ? .max : sum
    }
  }

  /// Lets queued events flow (after the subscribe answer was queued).
  func release() {
    let shouldWake = state.withLock { state in
      state.released = true
      guard state.writerWaiting, !state.events.isEmpty else { return false }
      state.writerWaiting = false
      return true
    }
    if shouldWake { wake() }
  }

  /// Stops taking events but keeps what is queued, to be sent (`shutdown`, `exit`: the
  /// history and events a subscription was given before are still the client's).
  func stopTaking() {
    state.withLock { $0.subscribed = false }
  }

  /// Stops the subscription and discards what is queued.
  func deactivate() {
    state.withLock { state in
      state.subscribed = false
      state.released = false
      state.lost = nil
      state.events = EventRing(capacity: 1)
    }
  }

  /// A live event from the hub, of `size` bytes (``Event/approximateBytes``, computed once
  /// by the hub for all clients). Never blocks beyond the queue's own short lock.
  func offer(_ event: Event, size: Int? = nil) {
    let shouldWake = state.withLock { state -> Bool in
      guard state.subscribed, state.filter.matches(event) else { return false }
      let size = size ?? event.approximateBytes
      if state.events.count >= state.limit || (!state.events.isEmpty && state.events.bytes + size > state.byteLimit) {
        state.lost = LostEvents(count: (state.lost?.count ?? 0) + 1, lastSeq: event.seq, lastTime: event.time)
        state.totalDropped += 1
        return false
      }
      if let lost = state.lost {
        state.events.append(lost.event)
        state.lost = nil
      }
      state.events.append(event, size: size)
      guard state.released, state.writerWaiting else { return false }
      state.writerWaiting = false
      return true
    }
    if shouldWake { wake() }
  }

  /// Events dropped for this client so far (for tests and diagnostics).
  var droppedCount: Int { state.withLock { $0.totalDropped } }
  var queuedCount: Int { state.withLock { $0.events.count } }

  /// The next `loupe/events` body, encoded here on the writer's thread; `nil` when empty.
  func nextOutgoingBody() -> [UInt8]? {
    let batch: [Event] = state.withLock { state in
      guard state.released else {
        state.writerWaiting = true
        return []
      }
      if state.events.isEmpty, let lost = state.lost {
        // Drained while events were being refused: report the loss now.
        state.events.append(lost.event)
        state.lost = nil
      }
      let batch = state.events.removeFirst(upTo: maxBatch)
      if batch.isEmpty { state.writerWaiting = true }
      return batch
    }
    guard !batch.isEmpty else { return nil }
    var writer = JSONWriter(capacity: 256 * batch.count)
    EventsNotification.encode(batch, into: &writer)
    return writer.bytes
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
