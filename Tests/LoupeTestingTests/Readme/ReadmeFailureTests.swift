import LoupeTesting
import Testing

/// The failure the README shows is the real one.
@MainActor
@Test func theReadmeFailureIsWhatATimerTestPrints() async {
  let recorder = DiagnosticRecorder()
  let clock = TestClock()
  let store = recorder.store(initialState: TimerFeature.State(), clock: clock) { TimerFeature() }

  store.send(.startTapped)
  await clock.advance(by: .seconds(3))
  store.send(.stopTapped)

  let line = #line + 2
  let failures = capturingIssues {
    recorder.expect([
      .identityChanged("TimerFeature#1", reason: .created),
      .storeCreated("TimerFeature#1"),
      .action(TimerFeature.Action.startTapped),
      .stateChanged(changes: [.replace("isRunning", from: false, to: true)]),
      .effectStarted(cancelID: "timer"),
      .action(TimerFeature.Action.tick, origin: .effect),
      .stateChanged(changes: [.replace("ticks", from: 0, to: 1)]),
      .action(TimerFeature.Action.tick, origin: .effect),
      .stateChanged(changes: [.replace("ticks", from: 1, to: 2)]),
      .action(TimerFeature.Action.stopTapped),
      .stateChanged(paths: ["isRunning"]),
      .effectCancelled(cancelID: "timer", reason: .cancel, by: "TimerFeature#1"),
    ])
  }
  #expect(failures == [CapturedFailure(message: """
    The stream does not match the expected events: 2 unexpected events happened.

        … (7 events)
        #9 action.received TimerFeature#1 action: TimerFeature.Action.tick, origin: effect, effect: 1, source: TimerFeature.swift:20
        #10 state.changed TimerFeature#1 changes: [ticks: 1 → 2]
      + #11 action.received TimerFeature#1 action: TimerFeature.Action.tick, origin: effect, effect: 1, source: TimerFeature.swift:20
      + #12 state.changed TimerFeature#1 changes: [ticks: 2 → 3]
        #13 action.received TimerFeature#1 action: TimerFeature.Action.stopTapped, origin: send, source: ReadmeFailureTests.swift:13
        #14 state.changed TimerFeature#1 changes: [isRunning: true → false]
        #15 effect.cancelled TimerFeature#1 effect: 1, cancelID: TimerFeature.CancelID.timer, reason: cancel, by: TimerFeature#1 (#13, TimerFeature.swift:28)

    (Expected: −, Actual: +)

    Exhaustivity is on: expect every event, narrow what is checked (kinds:, stores:), or turn exhaustivity off.
    """, line: line)])
}
