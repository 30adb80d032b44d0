import Loupe
import Testing

/// A parent whose child state is a computed property (issue 30, B3).
struct ComputedScopeFeature: Reducer {
  struct State: Equatable {
    var storage = Counter.State()
    var counter: Counter.State {
      get { storage }
      set { storage = newValue }
    }
    var other: Counter.State {
      get { storage }
      set { storage = newValue }
    }
  }
  enum Action: Equatable {
    case counter(Counter.Action)
    case other(Counter.Action)
  }

  var body: some Reducer<State, Action> {
    Scope(state: \.counter, action: Action.counter) { Counter() }
    Scope(state: \.other, action: Action.other) { Counter() }
  }
}

@MainActor
@Suite struct ComputedScopeTests {
  // B3: no memory address in the id (different on every run), and two computed scopes of the
  // same type apart.
  @Test func aScopeOnAComputedPropertyHasAStableReadableID() {
    let (bus, recorder) = makeSession()
    let store = Store(initialState: ComputedScopeFeature.State(), bus: bus) { ComputedScopeFeature() }
    let ids = recorder.take().filter { $0.contains("store.created") }
    #expect(ids == [
      "3 store.created ComputedScopeFeature#1 type=ComputedScopeFeature parent=- i1",
      "5 store.created ComputedScopeFeature#1/<computed 1: Counter.State> type=Counter parent=ComputedScopeFeature#1 i2",
      "7 store.created ComputedScopeFeature#1/<computed 2: Counter.State> type=Counter parent=ComputedScopeFeature#1 i3",
    ])
    store.send(.counter(.increment))
    #expect(store.counter.count == 1)
  }
}
