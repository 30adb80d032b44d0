import Loupe
import Testing

// The events of README's "Writing a feature" (the feature is Readme/BoardFeature.swift, which
// .ci/checks/30-readme-testing-snippets.sh keeps identical to the README).

@MainActor
@Suite struct ReadmeFeatureTests {
  @Test func theReadmeFeatureAndItsEvents() async throws {
    let (bus, recorder) = makeSession()
    let clock = TestClock()
    let store = Store(initialState: BoardFeature.State(), bus: bus, clock: clock) { BoardFeature() }
    store.send(.addTimer(id: 1))
    let timer = try #require(store.scope(state: \.timers, action: BoardFeature.Action.timers)[id: 1])
    timer.send(.startTapped)
    await clock.advance(by: .seconds(2))
    store.send(.removeTimer(id: 1))
    #expect(timer.seconds == 2)
    #expect(recorder.lines == [
      "2 identity.changed BoardFeature#1 i1 created",
      "3 store.created BoardFeature#1 type=BoardFeature parent=- i1",
      "4 action.received BoardFeature#1 BoardFeature.Action.addTimer send",
      "5 identity.changed BoardFeature#1/timers[id: 1] i2 inserted",
      "6 store.created BoardFeature#1/timers[id: 1] type=StopwatchFeature parent=BoardFeature#1 i2",
      "7 state.changed BoardFeature#1 cause=4 [+timers[id: 1]: {\"id\":1,\"seconds\":0,\"isRunning\":false}] \"BoardFeature#1: _timers changed.\"",
      "8 state.changed BoardFeature#1/timers[id: 1] cause=4 [+@: {\"id\":1,\"seconds\":0,\"isRunning\":false}] \"BoardFeature#1/timers[id: 1]: @self, @identity changed.\"",
      "9 action.received BoardFeature#1/timers[id: 1] StopwatchFeature.Action.startTapped send",
      "10 state.changed BoardFeature#1/timers[id: 1] cause=9 [isRunning: false → true] \"BoardFeature#1/timers[id: 1]: _isRunning changed.\"",
      "11 effect.started BoardFeature#1/timers[id: 1] e1 cause=9 id=StopwatchFeature.CancelID.tick",
      "12 action.received BoardFeature#1/timers[id: 1] StopwatchFeature.Action.ticked effect e1",
      "13 state.changed BoardFeature#1/timers[id: 1] cause=12 [seconds: 0 → 1] \"BoardFeature#1/timers[id: 1]: _seconds changed.\"",
      "14 action.received BoardFeature#1/timers[id: 1] StopwatchFeature.Action.ticked effect e1",
      "15 state.changed BoardFeature#1/timers[id: 1] cause=14 [seconds: 1 → 2] \"BoardFeature#1/timers[id: 1]: _seconds changed.\"",
      "16 action.received BoardFeature#1 BoardFeature.Action.removeTimer send",
      "17 identity.changed BoardFeature#1/timers[id: 1] i2 removed",
      "18 effect.cancelled BoardFeature#1/timers[id: 1] e1 identityEnded id=StopwatchFeature.CancelID.tick by=BoardFeature#1@16",
      "19 store.destroyed BoardFeature#1/timers[id: 1] i2",
      "20 state.changed BoardFeature#1 cause=16 [-timers[id: 1]: {\"id\":1,\"seconds\":2,\"isRunning\":true}] \"BoardFeature#1: _timers changed.\"",
    ])
  }
}
