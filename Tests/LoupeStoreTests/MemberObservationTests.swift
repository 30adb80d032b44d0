import Loupe
import Observation
import Testing

/// A list of counters, for observation of `forEach` rows.
struct CounterList: Reducer {
  struct State: Equatable {
    var rows: IdentifiedArray<Int, Row> = [Row(id: 1), Row(id: 2)]
    var title = "Counters"
  }
  struct Row: Equatable, Identifiable {
    let id: Int
    var count = 0
  }
  enum Action {
    case rows(IdentifiedAction<Int, RowAction>)
    case rename(String)
  }
  enum RowAction { case increment }

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      if case .rename(let title) = action { state.title = title }
      return .none
    }
    .forEach(\.rows, action: Action.rows) {
      Reduce<Row, RowAction> { row, _ in
        row.count += 1
        return .none
      }
    }
  }
}

/// Observation per member read (issue 30): a reader is invalidated when what it read changed.
@MainActor
@Suite struct MemberObservationTests {
  /// Whether `read` is invalidated by `change`.
  func invalidates(_ read: () -> Void, by change: () -> Void) -> Bool {
    let changed = Flag()
    withObservationTracking { read() } onChange: { changed.set() }
    change()
    return changed.value
  }

  @Test func aMemberReadIsInvalidatedOnlyWhenItChanges() {
    let store = Store(initialState: Counter.State(), bus: EventBus()) { Counter() }
    #expect(!invalidates({ _ = store.count }, by: { store.send(.setLabel("n")) }))
    #expect(!invalidates({ _ = store.count }, by: { store.send(.noop) }))
    #expect(invalidates({ _ = store.count }, by: { store.send(.increment) }))
    #expect(invalidates({ _ = store.label }, by: { store.send(.setLabel("m")) }))
  }

  @Test func theWholeStateIsInvalidatedOnlyWhenItChanges() {
    let store = Store(initialState: Counter.State(), bus: EventBus()) { Counter() }
    #expect(!invalidates({ _ = store.state }, by: { store.send(.noop) }))
    #expect(invalidates({ _ = store.state }, by: { store.send(.increment) }))
  }

  @Test func aScopedStoresMemberIsInvalidatedOnlyWhenItChanges() {
    let store = Store(initialState: ParentFeature.State(), bus: EventBus()) { ParentFeature() }
    let counter = store.scope(state: \.counter, action: ParentFeature.Action.counter)
    #expect(!invalidates({ _ = counter.count }, by: { counter.send(.setLabel("n")) }))
    #expect(!invalidates({ _ = counter.count }, by: { store.send(.show(1)) }))
    #expect(invalidates({ _ = counter.count }, by: { counter.send(.increment) }))
    #expect(!invalidates({ _ = store.detail?.id }, by: { counter.send(.increment) }))
  }

  @Test func aRowIsInvalidatedOnlyByItsOwnChanges() {
    let store = Store(initialState: CounterList.State(), bus: EventBus()) { CounterList() }
    let rows = store.scope(state: \.rows, action: CounterList.Action.rows)
    let first = rows[id: 1]!
    let second = rows[id: 2]!
    #expect(!invalidates({ _ = first.count }, by: { store.send(.rows(.element(id: 2, action: .increment))) }))
    #expect(!invalidates({ _ = first.count }, by: { store.send(.rename("List")) }))
    #expect(invalidates({ _ = first.count }, by: { store.send(.rows(.element(id: 1, action: .increment))) }))
    #expect(invalidates({ _ = second.count }, by: { store.send(.rows(.element(id: 2, action: .increment))) }))
    #expect(!invalidates({ _ = store.title }, by: { store.send(.rows(.element(id: 1, action: .increment))) }))
  }

  @Test func aMemberThatIsNotEquatableIsInvalidatedWhenTheStateChanges() {
    struct Inner { var value = 0 }
    struct Box { var inner = Inner(); var other = 0 }
    let store = Store(initialState: Box(), bus: EventBus()) {
      Reduce<Box, Void> { box, _ in
        box.other += 1
        return .none
      }
    }
    // `Inner` cannot be compared: any change of the state counts as one of it.
    #expect(invalidates({ _ = store.inner }, by: { store.send(()) }))
  }
}
