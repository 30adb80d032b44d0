import LoupeTesting
import XCTest

/// Under XCTest, failures go to the running `XCTestCase`, at the assertion's file and line,
/// with the same text as under Swift Testing.
final class XCTestReportingTests: FailureCapturingTestCase {
  @MainActor
  func testExpectReportsAtTheCallerWithADiff() async {
    let recorder = DiagnosticRecorder()
    let clock = TestClock()
    let store = recorder.store(initialState: TimerFeature.State(), clock: clock) { TimerFeature() }
    store.send(.startTapped)
    await clock.advance(by: .seconds(1))
    store.send(.stopTapped)

    let line = #line + 2
    let failures = capturingFailures {
      recorder.expect([
        .action(TimerFeature.Action.startTapped),
        .effectStarted(cancelID: "timer"),
        .action(TimerFeature.Action.tick, origin: .effect),
        .action(TimerFeature.Action.stopTapped),
        .effectFinished(),
      ], kinds: ["action.*", "effect.*"])
    }
    XCTAssertEqual(failures, [CapturedFailure(message: """
      The stream does not match the expected events: 1 expected event did not happen, 1 unexpected event happened.

          … (2 events)
          #7 action.received TimerFeature#1 action: TimerFeature.Action.tick, origin: effect, effect: 1
          #9 action.received TimerFeature#1 action: TimerFeature.Action.stopTapped, origin: send
        − effect.finished
        + #11 effect.cancelled TimerFeature#1 effect: 1, cancelID: TimerFeature.CancelID.timer, reason: cancel, by: TimerFeature#1 (#9)

      (Expected: −, Actual: +)

      Exhaustivity is on: expect every event, narrow what is checked (kinds:, stores:), or turn exhaustivity off.
      """, line: line)])
  }

  @MainActor
  func testALeakFailsNoEffectLeftRunning() async {
    let recorder = DiagnosticRecorder()
    let clock = TestClock()
    let player = recorder.store(initialState: LeakyPlayerFeature.State(), clock: clock) { LeakyPlayerFeature() }
    defer { player.invalidate() }
    player.send(.onAppear)
    player.send(.onDisappear)
    await clock.advance(by: .seconds(1))

    let line = #line + 2
    let failures = capturingFailures {
      recorder.assertNoEffectLeftRunning()
    }
    XCTAssertEqual(failures, [CapturedFailure(message: """
      An effect is still running: it started, and it neither finished nor was cancelled.

          #4 action.received LeakyPlayerFeature#1 action: LeakyPlayerFeature.Action.onAppear, origin: send
          #6 effect.started LeakyPlayerFeature#1 effect: 1, cause: #4, cancelID: LeakyPlayerFeature.CancelID.progress
        − effect.finished or effect.cancelled LeakyPlayerFeature#1 effect: 1

      (Expected: −, Actual: +)

      Cancel it (.cancel(id:), StoreTask.cancel()) or await it (StoreTask.finish(), TestClock.advance(by:)) before this check.
      """, line: line)])
  }

  func testPassingAssertionsReportNothing() {
    let recorder = DiagnosticRecorder()
    let failures = capturingFailures {
      recorder.expect([])
      recorder.assertNoEffectLeftRunning()
    }
    XCTAssertEqual(failures, [])
  }
}
