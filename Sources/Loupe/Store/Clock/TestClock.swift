import LoupeCore

/// A clock that moves only when told to: timers, sleeps and debounces in tests run without
/// real waiting, deterministically.
///
/// Give it to the store; effects reach it as `send.clock`:
///
/// ```swift
/// let clock = TestClock()
/// let store = Store(initialState: TimerFeature.State(), clock: clock) { TimerFeature() }
/// store.send(.startTapped)
/// await clock.advance(by: .seconds(3))
/// #expect(store.ticks == 3)
/// ```
///
/// `advance` is deterministic because the clock knows the effects of the stores that use it
/// (and of debounces given it explicitly): before each step it waits until every such effect
/// is asleep on a test clock or has ended, then wakes the earliest sleeper (in the order they
/// went to sleep, for equal deadlines), and repeats until no sleeper is due. So an effect that
/// awaits something else forever (not a test clock, not `send`) holds `advance` until it ends
/// or is cancelled.
///
/// A sleep always waits for `advance`, even one whose deadline has passed (`sleep(for: .zero)`),
/// as TCA's test clock does: `advance()` (by zero) wakes it.
public final class TestClock: Clock, Sendable {
  /// A point in time on a ``TestClock``: the duration since it was created.
  public typealias Instant = ClockOffset

  private struct Sleeper {
    let id: Int
    let deadline: Instant
    let continuation: UnsafeContinuation<Void, any Error>
    /// The effect sleeping, when a store reports its effects to test clocks.
    let activity: EffectActivity?
  }

  private struct State {
    var now = Instant(offset: .zero)
    var sleepers: [Sleeper] = []
    var nextSleeperID = 0
    var cancelledBeforeSleeping: Set<Int> = []
    /// Tracked effects that are neither sleeping on this clock nor ended.
    var running = 0
    /// How many times `running` has changed (an effect started, slept, woke or ended).
    var transitions = 0
    var quiescenceWaiters: [CheckedContinuation<Void, Never>] = []

    mutating func takeWaitersIfQuiescent() -> [CheckedContinuation<Void, Never>] {
      guard running == 0 else { return [] }
      defer { quiescenceWaiters = [] }
      return quiescenceWaiters
    }
  }

  private let state = Lock(State())
  /// Runs the jobs of the effects of the stores whose clock this is.
  let executor = MainQueueTaskExecutor()

  public init() {}

  public var now: Instant { state.withLock { $0.now } }
  public var minimumResolution: Duration { .zero }

  /// How many tasks are sleeping on this clock.
  public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

  public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    try Task.checkCancellation()
    let activity = EffectActivity.current
    let id = state.withLock { state in
      state.nextSleeperID += 1
      return state.nextSleeperID
    }
    try await withTaskCancellationHandler {
      try await withUnsafeThrowingContinuation { (continuation: UnsafeContinuation<Void, any Error>) in
        let parked: Bool = state.withLock { state in
          if state.cancelledBeforeSleeping.remove(id) != nil {
            continuation.resume(throwing: CancellationError())
            return false
          }
          state.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation, activity: activity))
          return true
        }
        // Asleep on a test clock, the effect waits for someone to advance it: it no longer
        // holds `advance` on any test clock it reports to.
        if parked { activity?.parked() }
      }
    } onCancel: {
      let sleeper: Sleeper? = state.withLock { state in
        guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else {
          state.cancelledBeforeSleeping.insert(id)
          return nil
        }
        return state.sleepers.remove(at: index)
      }
      guard let sleeper else { return }
      sleeper.activity?.woke()
      sleeper.continuation.resume(throwing: CancellationError())
    }
  }

  /// Moves time forward by `duration`, waking every sleeper that comes due, in deadline order,
  /// and letting the effects it wakes run until they sleep again or end.
  public func advance(by duration: Duration = .zero) async {
    await advance(to: now.advanced(by: duration))
  }

  /// Moves time forward to `deadline` (see ``advance(by:)``).
  public func advance(to deadline: Instant) async {
    while true {
      await waitUntilEffectsSettle()
      let sleeper: Sleeper? = state.withLock { state in
        let due = state.sleepers.indices.filter { state.sleepers[$0].deadline <= deadline }
        guard let index = due.min(by: { state.sleepers[$0].deadline < state.sleepers[$1].deadline }) else {
          if state.now < deadline { state.now = deadline }
          return nil
        }
        let sleeper = state.sleepers.remove(at: index)
        if state.now < sleeper.deadline { state.now = sleeper.deadline }
        return sleeper
      }
      guard let sleeper else { return }
      // Counted as running again before it runs, so the next step waits for it.
      sleeper.activity?.woke()
      sleeper.continuation.resume()
    }
  }

  /// Advances until nothing sleeps on the clock any more (at most `maxSteps` wake-ups, so an
  /// endless timer cannot hang a test: cancel timers before calling this).
  public func run(maxSteps: Int = 10_000) async {
    for _ in 0..<maxSteps {
      await waitUntilEffectsSettle()
      guard let next = state.withLock({ $0.sleepers.map(\.deadline).min() }) else { return }
      await advance(to: next)
    }
  }

  /// Waits until every effect tracked by this clock sleeps on it or has ended.
  public func waitUntilEffectsSettle() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let settled = state.withLock { state in
        if state.running == 0 { return true }
        state.quiescenceWaiters.append(continuation)
        return false
      }
      if settled { continuation.resume() }
    }
  }

  // MARK: Effect tracking

  /// What the effects of the stores on this clock are doing, for deciding that they have
  /// settled (`TestStore`): two equal readings around a full pass of the main queue, with no
  /// job queued, mean that no effect did anything in between.
  package var effectProgress: EffectProgress {
    let (running, transitions) = state.withLock { ($0.running, $0.transitions) }
    let jobs = executor.jobCounts
    return EffectProgress(running: running, transitions: transitions, jobsEnqueued: jobs.enqueued, jobsRun: jobs.ran)
  }

  /// Adds `delta` to the number of tracked effects that are running (not asleep, not ended).
  func adjustRunning(by delta: Int) {
    let waiters = state.withLock { state in
      state.running += delta
      state.transitions += 1
      return state.takeWaitersIfQuiescent()
    }
    for waiter in waiters { waiter.resume() }
  }
}

/// An effect as test clocks see it: the store sets it around every `run` operation when its
/// clock (or a debounce's clock) is a ``TestClock``, and reports it to those clocks as running
/// from its start to its end, except while it sleeps on any test clock.
final class EffectActivity: Sendable {
  @TaskLocal static var current: EffectActivity?
  let clocks: [TestClock]
  /// Where the effect's jobs run: the executor of its first clock (the store's, when it is a
  /// test clock).
  var executor: MainQueueTaskExecutor { clocks[0].executor }

  init?(clocks: [TestClock]) {
    var unique: [TestClock] = []
    for clock in clocks where !unique.contains(where: { $0 === clock }) { unique.append(clock) }
    guard !unique.isEmpty else { return nil }
    self.clocks = unique
  }

  func began() { for clock in clocks { clock.adjustRunning(by: 1) } }
  func ended() { for clock in clocks { clock.adjustRunning(by: -1) } }
  func parked() { ended() }
  func woke() { began() }
}

/// A reading of ``TestClock/effectProgress``.
package struct EffectProgress: Equatable, Sendable {
  /// Effects that are neither asleep on a test clock nor ended.
  package var running: Int
  /// How many times an effect started, went to sleep on a test clock, woke or ended.
  package var transitions: Int
  /// Jobs of the effects enqueued on the clock's executor, and those that have run.
  package var jobsEnqueued: Int
  package var jobsRun: Int

  /// Whether a job of an effect waits to run.
  package var hasQueuedJobs: Bool { jobsEnqueued != jobsRun }
}
