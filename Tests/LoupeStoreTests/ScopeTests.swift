import Loupe
import Testing

@MainActor
@Suite struct ScopeTests {
  @Test func aRoutedActionIsReceivedByTheChildWithOriginParent() {
    let (bus, recorder) = makeSession()
    let store = Store(initialState: ParentFeature.State(), bus: bus) { ParentFeature() }
    #expect(recorder.take() == [
      "2 identity.changed ParentFeature#1 i1 created",
      "3 store.created ParentFeature#1 type=ParentFeature parent=- i1",
      "4 identity.changed ParentFeature#1/counter i2 created",
      "5 store.created ParentFeature#1/counter type=Counter parent=ParentFeature#1 i2",
    ])
    store.send(.counter(.increment))
    #expect(store.counter.count == 1)
    #expect(store.total == 1)
    #expect(recorder.take() == [
      "6 action.received ParentFeature#1 ParentFeature.Action.counter send",
      "7 action.received ParentFeature#1/counter Counter.Action.increment parent",
      "8 state.changed ParentFeature#1 cause=6 [total: 0 → 1] \"ParentFeature#1: _total changed.\"",
      "9 state.changed ParentFeature#1/counter cause=7 [count: 0 → 1] \"ParentFeature#1/counter: _count changed.\"",
    ])
  }

  @Test func sendingToAScopedStoreIsReportedOnIt() {
    let (bus, recorder) = makeSession()
    let store = Store(initialState: ParentFeature.State(), bus: bus) { ParentFeature() }
    let counter = store.scope(state: \.counter, action: ParentFeature.Action.counter)
    #expect(counter === store.scope(state: \.counter, action: ParentFeature.Action.counter))
    #expect(counter.storeID == "ParentFeature#1/counter")
    _ = recorder.take()
    counter.send(.increment)
    counter.send(.setLabel("n"))
    #expect(counter.count == 1)
    #expect(recorder.take() == [
      "6 action.received ParentFeature#1/counter Counter.Action.increment send",
      "7 state.changed ParentFeature#1 cause=6 [total: 0 → 1] \"ParentFeature#1: _total changed.\"",
      "8 state.changed ParentFeature#1/counter cause=6 [count: 0 → 1] \"ParentFeature#1/counter: _count changed.\"",
      "9 action.received ParentFeature#1/counter Counter.Action.setLabel send",
      "10 state.changed ParentFeature#1/counter cause=9 [label: \"count\" → \"n\"] \"ParentFeature#1/counter: _label changed.\"",
    ])
  }

  @Test func nestedScopedStoresAppendTheirPaths() throws {
    let (bus, recorder) = makeSession()
    let store = Store(initialState: ParentFeature.State(detail: Detail.State(id: 1)), bus: bus) { ParentFeature() }
    let detail = try #require(store.scope(state: \.detail, action: ParentFeature.Action.detail))
    let counter = detail.scope(state: \.counter, action: Detail.Action.counter)
    #expect(counter.storeID == "ParentFeature#1/detail/counter")
    _ = recorder.take()
    counter.send(.increment)
    store.send(.detail(.counter(.decrement)))
    #expect(recorder.take() == [
      "10 action.received ParentFeature#1/detail/counter Counter.Action.increment send",
      "11 state.changed ParentFeature#1/detail/counter cause=10 [count: 0 → 1] \"ParentFeature#1/detail/counter: _count changed.\"",
      "12 action.received ParentFeature#1 ParentFeature.Action.detail send",
      "13 action.received ParentFeature#1/detail Detail.Action.counter parent",
      "14 action.received ParentFeature#1/detail/counter Counter.Action.decrement parent",
      "15 state.changed ParentFeature#1/detail/counter cause=14 [count: 1 → 0] \"ParentFeature#1/detail/counter: _count changed.\"",
    ])
  }

  @Test func scopingIntoStateNoReducerCoversMakesAStoreWithTheParentsLifetime() {
    let (bus, recorder) = makeSession()
    let store = Store(initialState: ParentFeature.State(), bus: bus) { ParentFeature() }
    _ = recorder.take()
    let total = store.scope(state: \.total, action: { (_: Never) -> ParentFeature.Action in })
    #expect(total.storeID == "ParentFeature#1/total")
    #expect(total.state == 0)
    store.send(.counter(.increment))
    #expect(total.state == 1)
    #expect(recorder.take().prefix(2) == [
      "6 identity.changed ParentFeature#1/total i3 created",
      "7 store.created ParentFeature#1/total type=Int parent=ParentFeature#1 i3",
    ])
  }

  @Test func explicitCasePathsWorkLikeConstructors() {
    let path = CasePath<ParentFeature.Action, Counter.Action>(
      embed: ParentFeature.Action.counter,
      extract: { if case .counter(let action) = $0 { action } else { nil } })
    let reflected = CasePath(ParentFeature.Action.counter)
    for action in [ParentFeature.Action.counter(.increment), .hide, .detail(.edit("x")), .show(1)] {
      #expect(path.extract(action) == reflected.extract(action))
    }
    #expect(reflected.extract(.counter(.setLabel("a"))) == .setLabel("a"))
  }

  @Test func reflectionTellsApartCasesWithTheSamePayloadType() {
    enum Action { case left(Int), right(Int) }
    let left = CasePath(Action.left)
    let right = CasePath(Action.right)
    #expect(left.extract(.left(1)) == 1)
    #expect(left.extract(.right(2)) == nil)
    #expect(right.extract(.right(2)) == 2)
    #expect(right.extract(.left(1)) == nil)
    #expect(left.extract(.left(3)) == 3)
  }
}
