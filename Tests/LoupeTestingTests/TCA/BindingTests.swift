import Loupe
import LoupeCore
import LoupeTesting
import Testing

/// Bindings spelled as in TCA.
struct SearchFormFeature: Reducer {
  struct State: Equatable {
    var query = ""
    var isEnabled = false
    var searches = 0
  }

  enum Action: BindableAction, Equatable {
    case binding(BindingAction<State>)
  }

  var body: some Reducer<State, Action> {
    BindingReducer()
    Reduce { state, action in
      switch action {
      case .binding(\.query):
        state.searches += 1
        return .none
      case .binding:
        return .none
      }
    }
  }
}

/// Bindings in a nested view action: `BindingReducer(action: \.view)`.
struct LoginFormFeature: Reducer {
  struct State: Equatable {
    var email = ""
    var isFormValid = false
  }

  enum Action: CasePathable {
    case view(View)

    enum View: BindableAction {
      case binding(BindingAction<State>)
    }

    struct AllCasePaths: CasePathList {
      let view = CasePath(Action.view)
    }
  }

  var body: some Reducer<State, Action> {
    BindingReducer(action: \.view)
    Reduce { state, action in
      switch action {
      case .view(.binding):
        state.isFormValid = !state.email.isEmpty
        return .none
      }
    }
  }
}

@MainActor
@Suite struct BindingTests {
  @Test func aBindingActionSetsTheFieldAndMatchesItsKeyPath() async {
    let store = TestStore(initialState: SearchFormFeature.State()) { SearchFormFeature() }
    await store.send(.binding(.set(\.query, "Milk"))) {
      $0.query = "Milk"
      $0.searches = 1
    }
    await store.send(.binding(.set(\.isEnabled, true))) { $0.isEnabled = true }
  }

  @Test func bindingActionsAreEqualWhenTheySetTheSameValue() {
    typealias Binding = BindingAction<SearchFormFeature.State>
    #expect(Binding.set(\.query, "a") == Binding.set(\.query, "a"))
    #expect(Binding.set(\.query, "a") != Binding.set(\.query, "b"))
    #expect(Binding.set(\.isEnabled, true) != Binding.set(\.query, "a"))
  }

  @Test func aBindingInAViewAction() async {
    let store = TestStore(initialState: LoginFormFeature.State()) { LoginFormFeature() }
    await store.send(.view(.binding(.set(\.email, "a@b.c")))) {
      $0.email = "a@b.c"
      $0.isFormValid = true
    }
  }

  @Test func settingAFieldOfTheStoreSendsABindingAction() {
    let store = Store(initialState: SearchFormFeature.State()) { SearchFormFeature() }
    store.query = "Eggs"
    #expect(store.query == "Eggs")
    #expect(store.searches == 1)
  }

  @Test func aBindingActionRendersAsTheFieldAndValue() async {
    let store = TestStore(initialState: SearchFormFeature.State()) { SearchFormFeature() }
    await store.send(.binding(.set(\.isEnabled, true))) { $0.isEnabled = true }
    store.recorder.expect([
      .action(SearchFormFeature.Action.binding(.set(\.isEnabled, true))),
    ], kinds: ["action.*"])
    #expect(ValueRenderer.render(SearchFormFeature.Action.binding(.set(\.isEnabled, true))).jsonText
      == #"{"binding":{"set":"isEnabled","value":true}}"#)
  }
}
