import Loupe
import Testing

/// start → effect sends .step(1) → its reducer returns another effect → … → .step(3) ends.
struct ChainFeature: Reducer {
  struct State: Equatable { var steps: [Int] = [] }
  enum Action: Equatable { case start, step(Int) }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .start:
      return .run { send in
        try await send.clock.sleep(for: .milliseconds(10))
        await send(.step(1))
      }
    case .step(let n):
      state.steps.append(n)
      guard n < 3 else { return .none }
      return .run { send in
        try await send.clock.sleep(for: .milliseconds(10))
        await send(.step(n + 1))
      }
    }
  }
}

/// `StoreTask.finish()` waits for the chain: the effects of the actions its effects sent
/// (CONTRACT §13, seed 001).
@MainActor
@Suite struct ChainedFinishTests {
  @Test func finishReturnsOnlyAfterTheLastLink() async {
    // A real clock: nothing drives time but the effects themselves.
    let store = Store(initialState: ChainFeature.State(), bus: EventBus()) { ChainFeature() }
    let task = store.send(.start)
    #expect(!task.hasFinished)
    await task.finish()
    #expect(store.steps == [1, 2, 3])
    #expect(task.hasFinished)
  }

  @Test func cancelReachesTheChain() async {
    let clock = TestClock()
    let store = Store(initialState: ChainFeature.State(), bus: EventBus(), clock: clock) { ChainFeature() }
    let task = store.send(.start)
    await clock.advance(by: .milliseconds(10))
    #expect(store.steps == [1])
    task.cancel()
    await task.finish()
    await clock.run()
    #expect(store.steps == [1])
  }
}
