import Loupe
import Testing

@MainActor
@Suite struct StoreBasicsTests {
  @Test func creatingARootStoreReportsItsIdentityAndCreation() {
    let (bus, recorder) = makeSession()
    let store = Store(initialState: Counter.State(), bus: bus) { Counter() }
    #expect(store.storeID == "Counter#1")
    #expect(store.identity == "i1")
    #expect(recorder.lines == [
      "2 identity.changed Counter#1 i1 created",
      "3 store.created Counter#1 type=Counter parent=- i1",
    ])
  }

  @Test func storesOfOneTypeAreNumberedInTheSession() {
    let (bus, _) = makeSession()
    let first = Store(initialState: Counter.State(), bus: bus) { Counter() }
    let second = Store(initialState: Counter.State(), bus: bus) { Counter() }
    let named = Store(initialState: Counter.State(), name: "Main", bus: bus) { Counter() }
    let third = Store(initialState: Counter.State(), bus: bus) { Counter() }
    #expect([first.storeID, second.storeID, named.storeID, third.storeID] == ["Counter#1", "Counter#2", "Main", "Counter#3"])
    #expect([first.identity, second.identity, named.identity, third.identity] == ["i1", "i2", "i3", "i4"])
  }

  @Test func aStoreBuiltFromReduceIsNamedAfterItsState() {
    let (bus, _) = makeSession()
    let store = Store(initialState: Counter.State(), bus: bus) {
      Reduce<Counter.State, Counter.Action> { state, _ in
        state.count += 1
        return .none
      }
    }
    #expect(store.storeID == "Counter#1")
  }

  @Test func sendReportsTheActionAndTheStateChange() {
    let (bus, recorder) = makeSession()
    let store = Store(initialState: Counter.State(), bus: bus) { Counter() }
    _ = recorder.take()
    store.send(.increment)
    store.send(.setLabel("clicks"))
    #expect(store.count == 1)
    #expect(store.state.label == "clicks")
    #expect(recorder.take() == [
      "4 action.received Counter#1 Counter.Action.increment send",
      "5 state.changed Counter#1 cause=4 [count: 0 → 1] \"Counter#1: _count changed.\"",
      "6 action.received Counter#1 Counter.Action.setLabel send",
      "7 state.changed Counter#1 cause=6 [label: \"count\" → \"clicks\"] \"Counter#1: _label changed.\"",
    ])
  }

  @Test func anActionThatChangesNothingHasNoStateChange() {
    let (bus, recorder) = makeSession()
    let store = Store(initialState: Counter.State(), bus: bus) { Counter() }
    _ = recorder.take()
    store.send(.noop)
    #expect(recorder.take() == ["4 action.received Counter#1 Counter.Action.noop send"])
  }

  @Test func actionValuesAreRendered() throws {
    let (bus, recorder) = makeSession()
    let store = Store(initialState: Counter.State(), bus: bus) { Counter() }
    store.send(.setLabel("x"))
    let received = try #require(recorder.events.compactMap { event -> ActionReceived? in
      if case .actionReceived(let e) = event.payload { e } else { nil }
    }.first)
    #expect(received.value == ["setLabel": "x"])
  }

  @Test func withStateAndDynamicMembersReadTheState() {
    let store = Store(initialState: Counter.State(count: 5), bus: EventBus()) { Counter() }
    #expect(store.withState(\.count) == 5)
    #expect(store.count == 5)
  }

  @Test func invalidatingEndsTheStoreAndLaterSendsWarn() {
    let (bus, recorder) = makeSession()
    let store = Store(initialState: Counter.State(), bus: bus) { Counter() }
    _ = recorder.take()
    store.invalidate()
    store.invalidate()
    store.send(.increment)
    #expect(store.count == 0)
    #expect(!store.isAlive)
    #expect(recorder.take() == [
      "4 store.destroyed Counter#1 i1",
      "5 warning sendToEndedStore Counter#1: Counter.Action.increment was sent to Counter#1 after the store was invalidated; the action was ignored.",
    ])
  }

  @Test func releasingTheStoreDestroysIt() {
    let (bus, recorder) = makeSession()
    var store: Store<Counter.State, Counter.Action>? = Store(initialState: Counter.State(), bus: bus) { Counter() }
    _ = recorder.take()
    store?.send(.increment)
    store = nil
    #expect(recorder.take() == [
      "4 action.received Counter#1 Counter.Action.increment send",
      "5 state.changed Counter#1 cause=4 [count: 0 → 1] \"Counter#1: _count changed.\"",
      "6 store.destroyed Counter#1 i1",
    ])
  }
}
