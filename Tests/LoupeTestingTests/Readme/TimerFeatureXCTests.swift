import LoupeTesting
import XCTest

final class TimerFeatureXCTests: XCTestCase {
  @MainActor
  func testTimerTicksUntilStopped() async {
    let recorder = DiagnosticRecorder()
    let clock = TestClock()
    let store = recorder.store(initialState: TimerFeature.State(), clock: clock) { TimerFeature() }

    store.send(.startTapped)
    await clock.advance(by: .seconds(2))
    store.send(.stopTapped)

    XCTAssertEqual(store.ticks, 2)
    recorder.expect([
      .action(TimerFeature.Action.startTapped),
      .effectStarted(store: "TimerFeature#1", cancelID: "timer"),
      .action(TimerFeature.Action.tick, origin: .effect),
      .action(TimerFeature.Action.tick, origin: .effect),
      .action(TimerFeature.Action.stopTapped),
      .effectCancelled(cancelID: "timer", reason: .cancel, by: "TimerFeature#1"),
    ], kinds: ["action.*", "effect.*"])
    recorder.assertNoEffectLeftRunning()
  }
}
