import Foundation
import Loupe
import LoupeTesting
import Testing

/// Seed 003's timer test, written with `TestStore` as a TCA user writes it.
@MainActor
@Suite struct Seed003TimerTests {
  @Test func theTimerTicksThreeTimesIn35Milliseconds() async {
    let clock = TestClock()
    let store = TestStore(initialState: StopwatchFeature.State()) {
      StopwatchFeature()
    } withDependencies: {
      $0.date = .constant(Date(timeIntervalSince1970: 100))
      $0.clock = clock
    }

    await store.send(.start) {
      $0.started = Date(timeIntervalSince1970: 100)
    }
    await clock.advance(by: .milliseconds(35))
    await store.receive(.timeUpdated) {
      $0.duration = 0.01
    }
    await store.receive(.timeUpdated) {
      $0.duration = 0.02
    }
    await store.receive(.timeUpdated) {
      $0.duration = 0.03
    }
    await store.send(.stop)
  }

  @Test func withoutTheStopTheTimerIsStillRunningAtTheEnd() async {
    let storeLine = #line + 3
    let failures = await capturingIssues {
      let clock = TestClock()
      let store = TestStore(initialState: StopwatchFeature.State()) {
        StopwatchFeature()
      } withDependencies: {
        $0.date = .constant(Date(timeIntervalSince1970: 100))
        $0.clock = clock
      }
      await store.send(.start) {
        $0.started = Date(timeIntervalSince1970: 100)
      }
      await clock.advance(by: .milliseconds(35))
      await store.receive(.timeUpdated) { $0.duration = 0.01 }
      await store.receive(.timeUpdated) { $0.duration = 0.02 }
      await store.receive(.timeUpdated) { $0.duration = 0.03 }
    }
    #expect(failures == [CapturedFailure(message: """
      An effect is still running at the end of the test:

        effect 1 of StopwatchFeature#1 (StopwatchFeature.swift:31), returned by StopwatchFeature.Action.start sent at Seed003TimerTests.swift:44

      End it before the test does: send the action that cancels it, await it (store.finish(), clock.advance(by:)), or cancel it (store.skipInFlightEffects()).
      """, line: storeLine)])
  }

  @Test func withoutAReceiveTheStopFailsAtItsLine() async {
    let clock = TestClock()
    let store = TestStore(initialState: StopwatchFeature.State()) {
      StopwatchFeature()
    } withDependencies: {
      $0.date = .constant(Date(timeIntervalSince1970: 100))
      $0.clock = clock
    }
    await store.send(.start) { $0.started = Date(timeIntervalSince1970: 100) }
    await clock.advance(by: .milliseconds(35))
    await store.receive(.timeUpdated) { $0.duration = 0.01 }
    await store.receive(.timeUpdated) { $0.duration = 0.02 }
    let line = #line + 2
    let failures = await capturingIssues {
      await store.send(.stop)
    }
    #expect(failures == [CapturedFailure(message: """
      Must handle 1 received action before sending an action:

        StopwatchFeature.Action.timeUpdated

      Receive it (store.receive(…)), skip it (store.skipReceivedActions()), or turn exhaustivity off.
      """, line: line)])
  }
}

/// The tie scenario of issue 15 as a golden trace: two stores on one test clock, ticking at
/// the same instants; the trace is the same on every run.
@MainActor
@Suite struct TieGoldenTests {
  @Test(arguments: 0..<20) func twoTimersOnOneClockMatchTheirGolden(run: Int) async {
    let recorder = DiagnosticRecorder()
    let clock = TestClock()
    let one = recorder.store(initialState: StopwatchFeature.State(), name: "one", clock: clock) {
      StopwatchFeature()
    } withDependencies: {
      $0.date = .constant(Date(timeIntervalSince1970: 1))
    }
    let two = recorder.store(initialState: StopwatchFeature.State(), name: "two", clock: clock) {
      StopwatchFeature()
    } withDependencies: {
      $0.date = .constant(Date(timeIntervalSince1970: 2))
    }
    one.send(.start)
    two.send(.start)
    await clock.advance(by: .milliseconds(30))
    one.send(.stop)
    two.send(.stop)
    recorder.assertMatchesGolden("../Fixtures/two-timers-tie.loupe")
  }
}
