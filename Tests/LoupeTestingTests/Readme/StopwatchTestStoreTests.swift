import Foundation
import LoupeTesting
import Testing

@MainActor
@Test func stopwatchTicksEveryTenMilliseconds() async {
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
  await store.send(.stop)

  // The same store's diagnostic stream, which only Loupe records: who ended the timer.
  store.recorder.assertNoEffectCancelledByAnotherStore()
  store.recorder.assertNoEffectLeftRunning()
}
