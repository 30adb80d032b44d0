import Loupe
import LoupeTesting
import Testing

/// A child that closes itself with `@Dependency(\.dismiss)`.
struct ClosingFeature: Reducer {
  struct State: Equatable {}
  enum Action: CasePathable {
    case closeTapped
    struct AllCasePaths: CasePathList {
      let closeTapped = CasePath(case: Action.closeTapped)
    }
  }

  @Dependency(\.dismiss) var dismiss

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    .run { _ in await dismiss() }
  }
}

struct HostFeature: Reducer {
  struct State: Equatable {
    @Presents var sheet: ClosingFeature.State?
  }
  enum Action: CasePathable {
    case sheet(PresentationAction<ClosingFeature.Action>)
    case open
    struct AllCasePaths: CasePathList {
      let sheet = CasePath(Action.sheet)
    }
  }

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      if case .open = action { state.sheet = ClosingFeature.State() }
      return .none
    }
    .ifLet(\.$sheet, action: \.sheet) { ClosingFeature() }
  }
}

@MainActor
@Suite struct DismissTests {
  @Test func aPresentedChildDismissesItself() async {
    let store = TestStore(initialState: HostFeature.State()) { HostFeature() }
    await store.send(.open) { $0.sheet = ClosingFeature.State() }
    await store.send(\.sheet.closeTapped)
    await store.receive(\.sheet.dismiss) { $0.sheet = nil }
  }

  @Test func dismissOutsideAPresentationReportsAnIssue() async {
    let store = TestStore(initialState: ClosingFeature.State()) { ClosingFeature() }
    let failures = await capturingIssues {
      await store.send(.closeTapped)
      await store.finish()
    }
    #expect(failures.map(\.message) == [
      "dismiss() was called from an effect of a feature that is not presented (ifLet on a PresentationState)."
    ])
  }
}
