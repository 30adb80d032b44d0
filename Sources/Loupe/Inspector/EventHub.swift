import LoupeRPC
import Synchronization

/// The inspector's sink on the bus: keeps the session's recent events in a ring buffer and
/// hands each live event to every subscribed client's queue.
///
/// ``receive(_:)`` runs on the program's thread inside the bus's lock and does only memory
/// work under short locks: an append to the ring, then a filter check and an append per
/// subscriber. Everything slow (encoding, writing) happens on each client's writer thread.
final class EventHub: EventSink, Sendable {
  private struct State {
    var recent: EventRing
    /// Events pushed out of the ring since the session started.
    var evicted: LostEvents?
    var subscribers: [ObjectIdentifier: ClientQueue] = [:]

    mutating func noteEvicted(_ old: Event) {
      evicted = LostEvents(count: (evicted?.count ?? 0) + 1, lastSeq: old.seq, lastTime: old.time)
    }
  }

  private let state: Mutex<State>
  private let historyByteLimit: Int

  /// - Parameters:
  ///   - historyCapacity: how many recent events the ring keeps for late subscribers.
  ///   - historyByteLimit: the most bytes they may hold (``Event/approximateBytes``): older
  ///     events are evicted past it too (the newest is always kept).
  init(historyCapacity: Int, historyByteLimit: Int = .max) {
    state = Mutex(State(recent: EventRing(capacity: historyCapacity)))
    self.historyByteLimit = historyByteLimit
  }

  func receive(_ event: Event) {
    let size = event.approximateBytes
    state.withLock { state in
      if let old = state.recent.append(event, size: size) { state.noteEvicted(old) }
      while state.recent.bytes > historyByteLimit, state.recent.count > 1, let old = state.recent.removeOldest() {
        state.noteEvicted(old)
      }
      for queue in state.subscribers.values { queue.offer(event, size: size) }
    }
  }

  /// Subscribes `queue` with `filter` (replacing an earlier subscription), replaying the ring
  /// first when `history` is set. Returns how many buffered events were queued for replay.
  /// History and live events cannot overlap or leave a gap: both happen under the hub's lock.
  func subscribe(_ queue: ClientQueue, filter: EventFilter, history: Bool) -> Int {
    state.withLock { state in
      let replay = history ? state.recent.elements.filter(filter.matches) : []
      queue.activate(filter: filter, history: replay, evicted: history ? state.evicted : nil)
      state.subscribers[ObjectIdentifier(queue)] = queue
      return replay.count
    }
  }

  /// Ends `queue`'s subscription; with `keepingQueued`, what it holds is still sent.
  func unsubscribe(_ queue: ClientQueue, keepingQueued: Bool = false) {
    state.withLock { state in _ = state.subscribers.removeValue(forKey: ObjectIdentifier(queue)) }
    if keepingQueued {
      queue.stopTaking()
    } else {
      queue.deactivate()
    }
  }

  var subscriberCount: Int { state.withLock { $0.subscribers.count } }
  var bufferedCount: Int { state.withLock { $0.recent.count } }
}
