import Foundation
import LoupeCore
import LoupeRPC

/// The inspector's sink on the bus: keeps the session's recent events in an ``EventLog`` that
/// every client reads at its own pace.
///
/// ``receive(_:)`` runs on the program's thread inside the bus's lock and does O(1) work
/// whatever the clients do: one append to the log under a short lock, and — when some client
/// has read everything and waits — one signal to the hub's waker thread, which wakes them.
/// No client's filter, history request or queue is touched there: each ``ClientSubscription``
/// takes an O(1) snapshot of the log and filters and encodes it on its connection's writer
/// thread.
final class EventHub: EventSink, Sendable {
  private struct State {
    var log: EventLog
    /// Every live root store's latest snapshot and its changes since, beyond the log's reach.
    var kept: KeptSnapshots
    var subscribers: Set<ObjectIdentifier> = []
    /// Subscriptions that have read everything and wait for the next event.
    var waiting: [ObjectIdentifier: ClientSubscription] = [:]
    /// The waker was signalled and has not taken ``waiting`` yet.
    var wakeScheduled = false
    var wakerStarted = false
  }

  private let state: Lock<State>
  private let wakeSignal = DispatchSemaphore(value: 0)
  private let threadNiceness: Int

  /// - Parameters:
  ///   - historyCapacity: how many recent events the log keeps for late subscribers (and
  ///     for clients that fall behind).
  ///   - historyByteLimit: the most bytes they may hold (``Event/approximateBytes``): older
  ///     events are evicted past it too (the newest is always kept).
  ///   - threadNiceness: nice levels below the program for the waker thread.
  init(historyCapacity: Int, historyByteLimit: Int = .max, threadNiceness: Int = 0) {
    self.threadNiceness = threadNiceness
    state = Lock(State(
      log: EventLog(capacity: historyCapacity, byteLimit: historyByteLimit),
      kept: KeptSnapshots(byteLimit: historyByteLimit)))
  }

  deinit { wakeSignal.signal() }  // the waker thread, if any, sees the hub gone and ends

  func receive(_ event: consuming Event) {
    let size = event.approximateBytes
    // Held so that the lock's closure can move it into the log (`take()`), not copy it.
    var pending = Optional(event)
    let (wakes, letGo) = state.withLock { state -> (Bool, KeptSnapshots.Root?) in
      let position = state.log.end
      // Noted first (it keeps a copy of what it keeps), then moved into the log.
      let letGo = state.kept.note(pending!, at: position, size: size)
      state.log.append(pending.take()!, size: size)
      guard !state.waiting.isEmpty, !state.wakeScheduled else { return (false, letGo) }
      state.wakeScheduled = true
      return (true, letGo)
    }
    withExtendedLifetime(letGo) {}  // released here, after the lock
    if wakes { wakeSignal.signal() }
  }

  /// Starts (or restarts) `subscription` with `filter`, from the oldest event kept when
  /// `history` is set, else from the next event. O(1) under the lock; the history is counted
  /// on the caller's thread. Returns how many kept events pass the filter (0 without history).
  ///
  /// A history begins with the snapshots (and the changes since) of the live root stores whose
  /// latest snapshot the log has evicted (``KeptSnapshots/prelude(before:evicted:)``), so a late
  /// subscriber can rebuild every live root store's state.
  func subscribe(_ subscription: ClientSubscription, filter: CompiledEventFilter, history: Bool) -> Int {
    let (snapshot, evicted, kept) = state.withLock { state in
      state.subscribers.insert(ObjectIdentifier(subscription))
      state.waiting[ObjectIdentifier(subscription)] = nil
      return (state.log.snapshot, state.log.evicted, history ? state.kept : nil)
    }
    let prelude = kept?.prelude(before: snapshot, evicted: evicted) ?? []
    return subscription.activate(filter: filter, snapshot: snapshot, history: history, evicted: evicted, prelude: prelude)
  }

  /// The log and the kept snapshots as they are now, in O(1) (for `loupe/state` with `at`).
  var history: (log: EventLogSnapshot, kept: KeptSnapshots) {
    state.withLock { ($0.log.snapshot, $0.kept) }
  }

  /// Ends `subscription`; with `keepingQueued`, the events up to now are still sent.
  func unsubscribe(_ subscription: ClientSubscription, keepingQueued: Bool = false) {
    let end = state.withLock { state in
      state.subscribers.remove(ObjectIdentifier(subscription))
      state.waiting[ObjectIdentifier(subscription)] = nil
      return state.log.end
    }
    if keepingQueued {
      subscription.stopTaking(at: end)
    } else {
      subscription.deactivate()
    }
  }

  /// What a subscription reading from `position` may read now: a snapshot of the log (O(1)),
  /// and the loss when the log has evicted events at `position`. When there is nothing to
  /// read and `waitingIfNone`, the subscription is woken (``ClientSubscription/hubHasEvents()``)
  /// after the next event.
  func read(from position: Int, for subscription: ClientSubscription, waitingIfNone: Bool) -> (
    EventLogSnapshot, lost: LostEvents?
  ) {
    let (snapshot, evicted, startWaker) = state.withLock { state in
      var startWaker = false
      if position >= state.log.end, waitingIfNone, state.subscribers.contains(ObjectIdentifier(subscription)) {
        state.waiting[ObjectIdentifier(subscription)] = subscription
        startWaker = !state.wakerStarted
        state.wakerStarted = true
      }
      return (state.log.snapshot, state.log.evicted, startWaker)
    }
    if startWaker { startWakerThread() }
    guard position < snapshot.first, let evicted else { return (snapshot, nil) }
    // `evicted` ends with the event just before `first`: the last of those lost here.
    return (snapshot, LostEvents(count: snapshot.first - position, lastSeq: evicted.lastSeq, lastTime: evicted.lastTime))
  }

  /// The waker: one thread per hub, started when a client first waits, ended with the hub.
  private func startWakerThread() {
    let signal = wakeSignal
    ServiceThread.start(name: "loupe.hub-waker", niceness: threadNiceness) { [weak self] in
      while true {
        signal.wait()
        guard let hub = self else { return }
        hub.wakeWaiting()
      }
    }
  }

  private func wakeWaiting() {
    let waiting = state.withLock { state in
      state.wakeScheduled = false
      defer { state.waiting = [:] }
      return Array(state.waiting.values)
    }
    for subscription in waiting { subscription.hubHasEvents() }
  }

  var subscriberCount: Int { state.withLock { $0.subscribers.count } }
  var bufferedCount: Int { state.withLock { $0.log.count } }
  var waitingCount: Int { state.withLock { $0.waiting.count } }
}
