import Loupe
import Testing

@MainActor
@Suite struct EffectTests {
  func makeStore(clock: TestClock = TestClock()) -> (Store<EffectsFeature.State, EffectsFeature.Action>, EventRecorder) {
    let (bus, recorder) = makeSession()
    let store = Store(initialState: EffectsFeature.State(), bus: bus, clock: clock) { EffectsFeature() }
    _ = recorder.take()
    return (store, recorder)
  }

  @Test func runSendsBackAndFinishes() async {
    let (store, recorder) = makeStore()
    await store.send(.load).finish()
    #expect(store.log == ["loaded"])
    #expect(recorder.take() == [
      "4 action.received EffectsFeature#1 EffectsFeature.Action.load send",
      "5 effect.started EffectsFeature#1 e1 cause=4",
      "6 action.received EffectsFeature#1 EffectsFeature.Action.record effect e1",
      "7 state.changed EffectsFeature#1 cause=6 [+log[0]: \"loaded\"] \"EffectsFeature#1: _log changed.\"",
      "8 effect.finished EffectsFeature#1 e1 completed",
    ])
  }

  @Test func aThrowingRunFailsAndItsCatchRuns() async {
    let (store, recorder) = makeStore()
    await store.send(.loadFailing).finish()
    #expect(store.log == ["failed: offline"])
    #expect(recorder.take() == [
      "4 action.received EffectsFeature#1 EffectsFeature.Action.loadFailing send",
      "5 effect.started EffectsFeature#1 e1 cause=4",
      "6 action.received EffectsFeature#1 EffectsFeature.Action.record effect e1",
      "7 state.changed EffectsFeature#1 cause=6 [+log[0]: \"failed: offline\"] \"EffectsFeature#1: _log changed.\"",
      "8 effect.finished EffectsFeature#1 e1 failed: offline",
    ])
  }

  @Test func aThrowingRunWithoutCatchFails() async {
    let (store, recorder) = makeStore()
    await store.send(.loadFailingUncaught).finish()
    #expect(recorder.take().last == "6 effect.finished EffectsFeature#1 e1 failed: offline")
  }

  @Test func sendRunsTheActionRightAway() {
    let (store, recorder) = makeStore()
    let task = store.send(.sendNow)
    #expect(store.log == ["sent"])
    #expect(task.hasFinished)
    #expect(recorder.take() == [
      "4 action.received EffectsFeature#1 EffectsFeature.Action.sendNow send",
      "5 effect.started EffectsFeature#1 e1 cause=4",
      "6 action.received EffectsFeature#1 EffectsFeature.Action.record effect e1",
      "7 state.changed EffectsFeature#1 cause=6 [+log[0]: \"sent\"] \"EffectsFeature#1: _log changed.\"",
      "8 effect.finished EffectsFeature#1 e1 completed",
    ])
  }

  @Test func mergeStartsAllAtOnce() async {
    let (store, recorder) = makeStore()
    await store.send(.merged).finish()
    #expect(Set(store.log) == ["a", "b"])
    let lines = recorder.take()
    #expect(Array(lines.prefix(3)) == [
      "4 action.received EffectsFeature#1 EffectsFeature.Action.merged send",
      "5 effect.started EffectsFeature#1 e1 cause=4",
      "6 effect.started EffectsFeature#1 e2 cause=4",
    ])
    #expect(lines.filter { $0.contains("effect.finished") }.count == 2)
  }

  @Test func concatenateStartsTheNextWhenThePreviousEnds() async {
    let clock = TestClock()
    let (store, recorder) = makeStore(clock: clock)
    let task = store.send(.concatenated)
    #expect(recorder.take() == [
      "4 action.received EffectsFeature#1 EffectsFeature.Action.concatenated send",
      "5 effect.started EffectsFeature#1 e1 cause=4",
    ])
    await clock.advance(by: .seconds(1))
    await task.finish()
    #expect(store.log == ["first", "second"])
    #expect(recorder.take() == [
      "6 action.received EffectsFeature#1 EffectsFeature.Action.record effect e1",
      "7 state.changed EffectsFeature#1 cause=6 [+log[0]: \"first\"] \"EffectsFeature#1: _log changed.\"",
      "8 effect.finished EffectsFeature#1 e1 completed",
      "9 effect.started EffectsFeature#1 e2 cause=4",
      "10 action.received EffectsFeature#1 EffectsFeature.Action.record effect e2",
      "11 state.changed EffectsFeature#1 cause=10 [+log[1]: \"second\"] \"EffectsFeature#1: _log changed.\"",
      "12 effect.finished EffectsFeature#1 e2 completed",
    ])
  }

  @Test func debounceRunsOnlyTheLastOfAQuickSeries() async {
    let clock = TestClock()
    let (store, recorder) = makeStore(clock: clock)
    store.send(.search("s"))
    await clock.advance(by: .milliseconds(100))
    store.send(.search("sw"))
    await clock.advance(by: .milliseconds(100))
    store.send(.search("swi"))
    await clock.advance(by: .milliseconds(299))
    #expect(store.log == [])
    await clock.advance(by: .milliseconds(1))
    await clock.run()
    #expect(store.log == ["search swi"])
    #expect(recorder.take() == [
      "4 action.received EffectsFeature#1 EffectsFeature.Action.search send",
      "5 effect.started EffectsFeature#1 e1 cause=4 id=search",
      "6 action.received EffectsFeature#1 EffectsFeature.Action.search send",
      "7 effect.cancelled EffectsFeature#1 e1 cancelInFlight id=search by=EffectsFeature#1@6",
      "8 effect.started EffectsFeature#1 e2 cause=6 id=search",
      "9 action.received EffectsFeature#1 EffectsFeature.Action.search send",
      "10 effect.cancelled EffectsFeature#1 e2 cancelInFlight id=search by=EffectsFeature#1@9",
      "11 effect.started EffectsFeature#1 e3 cause=9 id=search",
      "12 action.received EffectsFeature#1 EffectsFeature.Action.record effect e3",
      "13 state.changed EffectsFeature#1 cause=12 [+log[0]: \"search swi\"] \"EffectsFeature#1: _log changed.\"",
      "14 effect.finished EffectsFeature#1 e3 completed",
    ])
  }

  @Test func mappedEffectsSendTheMappedAction() async {
    let (store, recorder) = makeStore()
    await store.send(.mapped).finish()
    #expect(store.log == ["mapped"])
    #expect(recorder.take()[2] == "6 action.received EffectsFeature#1 EffectsFeature.Action.child effect e1")
  }
}

@MainActor
@Suite struct CancellationTests {
  func makeStore(clock: TestClock) -> (Store<TimerFeature.State, TimerFeature.Action>, EventRecorder) {
    let (bus, recorder) = makeSession()
    let store = Store(initialState: TimerFeature.State(), bus: bus, clock: clock) { TimerFeature() }
    _ = recorder.take()
    return (store, recorder)
  }

  @Test func aTimerTicksWithTheTestClockAndStopsOnCancel() async {
    let clock = TestClock()
    let (store, recorder) = makeStore(clock: clock)
    store.send(.start)
    await clock.advance(by: .seconds(2))
    store.send(.stop)
    await clock.advance(by: .seconds(5))
    #expect(store.ticks == 2)
    #expect(recorder.take() == [
      "4 action.received TimerFeature#1 TimerFeature.Action.start send",
      "5 state.changed TimerFeature#1 cause=4 [isRunning: false → true] \"TimerFeature#1: _isRunning changed.\"",
      "6 effect.started TimerFeature#1 e1 cause=4 id=TimerFeature.CancelID.timer",
      "7 action.received TimerFeature#1 TimerFeature.Action.tick effect e1",
      "8 state.changed TimerFeature#1 cause=7 [ticks: 0 → 1] \"TimerFeature#1: _ticks changed.\"",
      "9 action.received TimerFeature#1 TimerFeature.Action.tick effect e1",
      "10 state.changed TimerFeature#1 cause=9 [ticks: 1 → 2] \"TimerFeature#1: _ticks changed.\"",
      "11 action.received TimerFeature#1 TimerFeature.Action.stop send",
      "12 state.changed TimerFeature#1 cause=11 [isRunning: true → false] \"TimerFeature#1: _isRunning changed.\"",
      "13 effect.cancelled TimerFeature#1 e1 cancel id=TimerFeature.CancelID.timer by=TimerFeature#1@11",
    ])
  }

  @Test func cancelInFlightReplacesTheRunningTimer() async {
    let clock = TestClock()
    let (store, recorder) = makeStore(clock: clock)
    store.send(.start)
    await clock.advance(by: .milliseconds(500))
    store.send(.start)
    await clock.advance(by: .milliseconds(900))
    #expect(store.ticks == 0)
    await clock.advance(by: .milliseconds(100))
    #expect(store.ticks == 1)
    store.send(.stop)
    #expect(recorder.take() == [
      "4 action.received TimerFeature#1 TimerFeature.Action.start send",
      "5 state.changed TimerFeature#1 cause=4 [isRunning: false → true] \"TimerFeature#1: _isRunning changed.\"",
      "6 effect.started TimerFeature#1 e1 cause=4 id=TimerFeature.CancelID.timer",
      "7 action.received TimerFeature#1 TimerFeature.Action.start send",
      "8 effect.cancelled TimerFeature#1 e1 cancelInFlight id=TimerFeature.CancelID.timer by=TimerFeature#1@7",
      "9 effect.started TimerFeature#1 e2 cause=7 id=TimerFeature.CancelID.timer",
      "10 action.received TimerFeature#1 TimerFeature.Action.tick effect e2",
      "11 state.changed TimerFeature#1 cause=10 [ticks: 0 → 1] \"TimerFeature#1: _ticks changed.\"",
      "12 action.received TimerFeature#1 TimerFeature.Action.stop send",
      "13 state.changed TimerFeature#1 cause=12 [isRunning: true → false] \"TimerFeature#1: _isRunning changed.\"",
      "14 effect.cancelled TimerFeature#1 e2 cancel id=TimerFeature.CancelID.timer by=TimerFeature#1@12",
    ])
  }

  @Test func cancellingTheStoreTaskCancelsItsEffects() async {
    let clock = TestClock()
    let (store, recorder) = makeStore(clock: clock)
    let task = store.send(.start)
    task.cancel()
    #expect(task.isCancelled)
    await task.finish()
    await clock.advance(by: .seconds(3))
    #expect(store.ticks == 0)
    #expect(recorder.take().last == "7 effect.cancelled TimerFeature#1 e1 cancel id=TimerFeature.CancelID.timer by=-")
  }

  @Test func destroyingTheStoreCancelsItsEffects() async {
    let clock = TestClock()
    let (bus, recorder) = makeSession()
    var store: Store<TimerFeature.State, TimerFeature.Action>? = Store(initialState: TimerFeature.State(), bus: bus, clock: clock) {
      TimerFeature()
    }
    let task = store?.send(.start)
    store = nil
    await task?.finish()
    await clock.advance(by: .seconds(3))
    #expect(Array(recorder.take().suffix(2)) == [
      "7 effect.cancelled TimerFeature#1 e1 storeDestroyed id=TimerFeature.CancelID.timer by=-",
      "8 store.destroyed TimerFeature#1 i1",
    ])
  }
}
