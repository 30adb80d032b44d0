import Loupe

/// The time a scenario lives in: the clock its stores use, and how its script waits between
/// steps.
///
/// Launched from the command line, a scenario runs in real time (``live(speed:)``): stores
/// get a `ContinuousClock` and the script sleeps on it. In tests it runs on a ``TestClock``
/// (``test(_:)``): waiting advances the clock, which runs the timers and delays that come due
/// and returns once their effects have settled, so a test never sleeps.
@MainActor
struct ScriptTimeline {
  /// The clock the scenario's stores get (`send.clock` in their effects).
  let clock: AnyClock
  /// Lets `duration` pass.
  let wait: @MainActor (Duration) async -> Void

  /// Time elapsed since the timeline was made.
  var elapsed: Duration { clock.now.offset }

  /// Real time, `speed` times faster than the wall clock (1: the wall clock itself).
  static func live(speed: Double = 1) -> ScriptTimeline {
    let clock = speed == 1 ? AnyClock(ContinuousClock()) : AnyClock(AcceleratedClock(speed: speed))
    return ScriptTimeline(clock: clock) { duration in try? await clock.sleep(for: duration) }
  }

  /// Time that passes only when the script waits, by advancing `clock`.
  static func test(_ clock: TestClock) -> ScriptTimeline {
    ScriptTimeline(clock: AnyClock(clock)) { duration in await clock.advance(by: duration) }
  }
}
