import Loupe
import LoupeTesting
import Testing

/// Effects spelled as in TCA: a long-living effect and cancel ids of mixed types.
struct ListenerFeature: Reducer {
  struct State: Equatable {
    var isListening = false
  }
  enum Action: Equatable {
    case onAppear
    case stopTapped
  }

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .onAppear:
        state.isListening = true
        return .run { _ in try await Task.never() }
          .cancellable(id: AnyHashableSendable("listener"))
      case .stopTapped:
        state.isListening = false
        return .cancel(id: AnyHashableSendable("listener"))
      }
    }
  }
}

@MainActor
@Suite struct EffectSpellingTests {
  @Test func cancellingTheTestTaskEndsANeverEndingEffect() async {
    let store = TestStore(initialState: ListenerFeature.State()) { ListenerFeature() }
    let task = await store.send(.onAppear) { $0.isListening = true }
    await task.cancel()
    #expect(task.isCancelled)
    #expect(task.hasFinished)
  }

  @Test func aCancelIDOfMixedTypesCancels() async {
    let store = TestStore(initialState: ListenerFeature.State()) { ListenerFeature() }
    await store.send(.onAppear) { $0.isListening = true }
    await store.send(.stopTapped) { $0.isListening = false }
    store.recorder.expect([
      .effectCancelled(),
    ], kinds: ["effect.cancelled"])
  }

  @Test func anEffectThatNeverEndsFailsAtTheEndNamingIt() async {
    let storeLine = #line + 2
    let failures = await capturingIssues {
      let store = TestStore(initialState: ListenerFeature.State()) { ListenerFeature() }
      await store.send(.onAppear) { $0.isListening = true }
    }
    #expect(failures.count == 1)
    #expect(failures.first?.line == storeLine)
    #expect(failures.first?.message.hasPrefix("An effect is still running at the end of the test:") == true)
  }

  @Test func anyHashableSendableIsEqualByItsValue() {
    #expect(AnyHashableSendable(1) == AnyHashableSendable(1))
    #expect(AnyHashableSendable(1) != AnyHashableSendable("1"))
    #expect(AnyHashableSendable(AnyHashableSendable(2)) == AnyHashableSendable(2))
  }
}
