import LoupeTesting
import Testing

/// The derived-value checks: recomputed at most N times, never with an unchanged output.
@MainActor
@Suite struct DerivedCheckTests {
  typealias TodosStore = Store<TodosFeature.State, TodosFeature.Action>

  func todos() -> (DiagnosticRecorder, TodosStore) {
    let recorder = DiagnosticRecorder()
    let store = recorder.store(initialState: TodosFeature.State()) { TodosFeature() }
    return (recorder, store)
  }

  @Test func aMemoizedValueRecomputesOnlyWhenItsInputChanges() {
    let (recorder, store) = todos()
    let remaining = store.derived("remaining", select: \.todos) { todos in todos.filter { !$0.isDone }.count }
    store.send(.add("Milk"))
    store.send(.draftChanged("Eg"))
    store.send(.draftChanged("Eggs"))
    store.send(.toggle(1))
    #expect(remaining.value == 0)
    recorder.assertDerived("remaining", recomputedAtMost: 2)
    recorder.assertNoWastedRecomputation()
    recorder.expect([
      .derivedRecomputed("remaining", store: "TodosFeature#1", outputChanged: true),  // its first computation
      .derivedRecomputed("remaining", outputChanged: true),  // after .add
      .derivedRecomputed("remaining", outputChanged: true),  // after .toggle; the drafts did not touch todos
    ], kinds: ["derived.*"])
  }

  @Test func anUnmemoizedValueFailsNoWastedRecomputation() {
    let (recorder, store) = todos()
    let remaining = store.map("remaining") { state in state.todos.filter { !$0.isDone }.count }
    store.send(.add("Milk"))
    store.send(.draftChanged("Eggs"))
    #expect(remaining.value == 1)
    let line = #line + 2
    let failures = capturingIssues {
      recorder.assertNoWastedRecomputation("remaining")
    }
    #expect(failures == [CapturedFailure(message: """
      The derived value remaining of TodosFeature#1 was recomputed 1 time with an unchanged output.

          #8 action.received TodosFeature#1 action: TodosFeature.Action.draftChanged, value: .draftChanged("Eggs"), origin: send, source: DerivedCheckTests.swift:36
        + #10 derived.recomputed TodosFeature#1 derived: remaining, cause: #8, outputChanged: false

      (Expected: −, Actual: +)

      Memoize it on its input: store.derived(_:select:compute:) computes again only when the selected input changes.
      """, line: line)])
  }

  @Test func tooManyRecomputationsFailRecomputedAtMost() {
    let (recorder, store) = todos()
    let remaining = store.derived("remaining", select: \.todos) { todos in todos.filter { !$0.isDone }.count }
    for title in ["Milk", "Eggs", "Bread"] { store.send(.add(title)) }
    #expect(remaining.value == 3)
    let line = #line + 2
    let failures = capturingIssues {
      recorder.assertDerived("remaining", store: "TodosFeature#1", recomputedAtMost: 2)
    }
    #expect(failures == [CapturedFailure(message: """
      The derived value remaining of TodosFeature#1 was recomputed 3 times; at most 2 were expected.

          #5 action.received TodosFeature#1 action: TodosFeature.Action.add, value: .add("Milk"), origin: send, source: DerivedCheckTests.swift:57
          #7 derived.recomputed TodosFeature#1 derived: remaining, cause: #5, outputChanged: true
          #8 action.received TodosFeature#1 action: TodosFeature.Action.add, value: .add("Eggs"), origin: send, source: DerivedCheckTests.swift:57
          #10 derived.recomputed TodosFeature#1 derived: remaining, cause: #8, outputChanged: true
          #11 action.received TodosFeature#1 action: TodosFeature.Action.add, value: .add("Bread"), origin: send, source: DerivedCheckTests.swift:57
        + #13 derived.recomputed TodosFeature#1 derived: remaining, cause: #11, outputChanged: true

      (Expected: −, Actual: +)
      """, line: line)])
  }

  @Test func aDerivedValueThatNeverComputedIsReported() {
    let (recorder, store) = todos()
    let remaining = store.derived("remaining", select: \.todos) { $0.count }
    _ = remaining
    let line = #line + 2
    let failures = capturingIssues {
      recorder.assertDerived("remainig", recomputedAtMost: 1)
    }
    #expect(failures == [CapturedFailure(message: """
      No derived value remainig was ever computed; the stream's derived values are remaining of TodosFeature#1. Derived values report only while a sink is attached: create them after the recorder, on a store made with its bus.
      """, line: line)])
  }
}
