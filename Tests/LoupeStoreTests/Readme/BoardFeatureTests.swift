import Loupe
import Testing

@MainActor @Test func stopwatchTicksWithoutWaiting() async {
  let clock = TestClock()
  let store = Store(initialState: BoardFeature.State(), clock: clock) { BoardFeature() }
  store.send(.addTimer(id: 1))
  store.send(.timers(.element(id: 1, action: .startTapped)))
  await clock.advance(by: .seconds(2))       // deterministic: both ticks are processed
  #expect(store.timers[id: 1]?.seconds == 2)
  store.send(.timers(.element(id: 1, action: .stopTapped)))
}
