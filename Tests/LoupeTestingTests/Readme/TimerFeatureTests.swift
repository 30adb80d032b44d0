import LoupeTesting
import Testing

@MainActor
@Test func timerTicksUntilStopped() async {
  let recorder = DiagnosticRecorder()
  let clock = TestClock()
  let store = recorder.store(initialState: TimerFeature.State(), clock: clock) { TimerFeature() }

  store.send(.startTapped)
  await clock.advance(by: .seconds(2))
  store.send(.stopTapped)

  #expect(store.ticks == 2)
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
  recorder.assertNoEffectLeftRunning()
}
