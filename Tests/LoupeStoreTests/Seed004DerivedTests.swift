import Loupe
import Observation
import Testing

/// Seed 004: derived values memoized on what they select, and keyed tasks.
@MainActor
@Suite struct Seed004DerivedTests {
  func makeStore(clock: TestClock = TestClock()) -> (Store<TodosFeature.State, TodosFeature.Action>, EventRecorder) {
    let (bus, recorder) = makeSession()
    let store = Store(initialState: TodosFeature.State(), bus: bus, clock: clock) { TodosFeature() }
    _ = recorder.take()
    return (store, recorder)
  }

  func recomputations(_ recorder: EventRecorder) -> [String] {
    recorder.take().filter { $0.contains("derived.recomputed") }
  }

  @Test func aMemoizedDerivedValueRecomputesOnlyWhenItsInputChanges() {
    let (store, recorder) = makeStore()
    var computations = 0
    let visible = store.derived("visibleTodos", select: { VisibleInput(todos: $0.todos, filter: $0.filter) }) { input in
      computations += 1
      return input.todos.filter { todo in
        switch input.filter {
        case .all: true
        case .active: !todo.isDone
        case .done: todo.isDone
        }
      }.map(\.title)
    }
    #expect(visible.value == [])
    store.send(.add(1, "milk"))
    store.send(.bumpUnrelated)
    store.send(.bumpUnrelated)
    store.send(.toggle(1))
    store.send(.setFilter(.active))
    store.send(.bumpUnrelated)
    #expect(visible.value == [])
    #expect(computations == 4)
    #expect(recomputations(recorder) == [
      "4 derived.recomputed TodosFeature#1 visibleTodos cause=- changed=true",
      "7 derived.recomputed TodosFeature#1 visibleTodos cause=5 changed=true",
      "14 derived.recomputed TodosFeature#1 visibleTodos cause=12 changed=false",
      "17 derived.recomputed TodosFeature#1 visibleTodos cause=15 changed=true",
    ])
  }

  @Test func aNonMemoizedMapRecomputesOnEveryActionWithUnchangedOutput() {
    let (store, recorder) = makeStore()
    let doneCount = store.map("doneCount") { $0.todos.filter(\.isDone).count }
    store.send(.add(1, "milk"))
    store.send(.bumpUnrelated)
    store.send(.toggle(1))
    #expect(doneCount.value == 1)
    #expect(recomputations(recorder) == [
      "4 derived.recomputed TodosFeature#1 doneCount cause=- changed=true",
      "7 derived.recomputed TodosFeature#1 doneCount cause=5 changed=false",
      "10 derived.recomputed TodosFeature#1 doneCount cause=8 changed=false",
      "13 derived.recomputed TodosFeature#1 doneCount cause=11 changed=true",
    ])
  }

  @Test func chainedDerivedValuesRecomputeWhenTheirSourceChanges() {
    let (store, recorder) = makeStore()
    let count = store.derived("count", select: \.todos.count)
    let label = count.derived("label", select: { $0 }) { "\($0) todos" }
    var labels: [String] = []
    let subscription = label.sink { labels.append($0.current) }
    store.send(.add(1, "milk"))
    store.send(.bumpUnrelated)
    store.send(.add(2, "eggs"))
    #expect(label.value == "2 todos")
    #expect(labels == ["0 todos", "1 todos", "2 todos"])
    #expect(recomputations(recorder) == [
      "4 derived.recomputed TodosFeature#1 count cause=- changed=true",
      "5 derived.recomputed TodosFeature#1 label cause=- changed=true",
      "8 derived.recomputed TodosFeature#1 count cause=6 changed=true",
      "9 derived.recomputed TodosFeature#1 label cause=6 changed=true",
      "14 derived.recomputed TodosFeature#1 count cause=12 changed=true",
      "15 derived.recomputed TodosFeature#1 label cause=12 changed=true",
    ])
    subscription.cancel()
  }

  @Test func derivedValuesAreObservable() {
    let (store, _) = makeStore()
    let count = store.derived("count", select: \.todos.count)
    let changed = Flag()
    withObservationTracking { _ = count.value } onChange: { changed.set() }
    store.send(.bumpUnrelated)
    #expect(!changed.value)
    store.send(.add(1, "milk"))
    #expect(changed.value)
  }

  @Test func aDerivedValueOnAScopedStoreNamesThatStore() {
    let (bus, recorder) = makeSession()
    let store = Store(initialState: ParentFeature.State(), bus: bus) { ParentFeature() }
    let counter = store.scope(state: \.counter, action: ParentFeature.Action.counter)
    let doubled = counter.derived("doubled", select: \.count) { $0 * 2 }
    _ = recorder.take()
    counter.send(.increment)
    #expect(doubled.value == 2)
    #expect(recorder.take() == [
      "7 action.received ParentFeature#1/counter Counter.Action.increment send",
      "8 state.changed ParentFeature#1 cause=7 [total: 0 → 1] \"ParentFeature#1: _total changed.\"",
      "9 state.changed ParentFeature#1/counter cause=7 [count: 0 → 1] \"ParentFeature#1/counter: _count changed.\"",
      "10 derived.recomputed ParentFeature#1/counter doubled cause=7 changed=true",
    ])
    store.send(.counter(.increment))
    #expect(recorder.take().last == "15 derived.recomputed ParentFeature#1/counter doubled cause=12 changed=true")
  }

  @Test func aNewSearchDropsTheOneInFlight() async {
    let clock = TestClock()
    let (store, recorder) = makeStore(clock: clock)
    store.send(.search("sw"))
    await clock.advance(by: .milliseconds(500))
    store.send(.search("swi"))
    await clock.advance(by: .seconds(1))
    #expect(store.results == ["swi1", "swi2"])
    #expect(recorder.take() == [
      "4 action.received TodosFeature#1 TodosFeature.Action.search send",
      "5 state.changed TodosFeature#1 cause=4 [query: \"\" → \"sw\"] \"TodosFeature#1: _query changed.\"",
      "6 effect.started TodosFeature#1 e1 cause=4 id=TodosFeature.CancelID.search",
      "7 action.received TodosFeature#1 TodosFeature.Action.search send",
      "8 state.changed TodosFeature#1 cause=7 [query: \"sw\" → \"swi\"] \"TodosFeature#1: _query changed.\"",
      "9 effect.cancelled TodosFeature#1 e1 cancelInFlight id=TodosFeature.CancelID.search by=TodosFeature#1@7",
      "10 effect.started TodosFeature#1 e2 cause=7 id=TodosFeature.CancelID.search",
      "11 action.received TodosFeature#1 TodosFeature.Action.searchResults effect e2",
      "12 state.changed TodosFeature#1 cause=11 [+results[0]: \"swi1\", +results[1]: \"swi2\"] \"TodosFeature#1: _results changed.\"",
      "13 effect.finished TodosFeature#1 e2 completed",
    ])
  }
}
