import Loupe
import LoupeTesting
import Testing

/// Alerts, dialogs and a presented child, spelled as in TCA.
struct ItemsFeature: Reducer {
  struct State: Equatable {
    @PresentationState var alert: AlertState<Action.Alert>?
    @PresentationState var dialog: ConfirmationDialogState<Action.Dialog>?
    @PresentationState var detail: RowFeature.State?
    var items = ["Milk", "Eggs"]
  }

  enum Action: CasePathable {
    case alert(PresentationAction<Alert>)
    case dialog(PresentationAction<Dialog>)
    case detail(PresentationAction<RowFeature.Action>)
    case deleteButtonTapped
    case menuButtonTapped
    case rowTapped(Int)

    enum Alert: Equatable, CasePathable {
      case confirmDeletion
      struct AllCasePaths: CasePathList {
        let confirmDeletion = CasePath(case: Alert.confirmDeletion)
      }
    }
    enum Dialog: Equatable {
      case sort
    }

    struct AllCasePaths: CasePathList {
      let alert = CasePath(Action.alert)
      let dialog = CasePath(Action.dialog)
      let detail = CasePath(Action.detail)
      let deleteButtonTapped = CasePath(case: Action.deleteButtonTapped)
      let menuButtonTapped = CasePath(case: Action.menuButtonTapped)
    }
  }

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .alert(.presented(.confirmDeletion)):
        state.items = []
        return .none
      case .alert, .detail:
        return .none
      case .dialog(.presented(.sort)):
        state.items.sort()
        return .none
      case .dialog:
        return .none
      case .deleteButtonTapped:
        state.alert = .deleteAll
        return .none
      case .menuButtonTapped:
        state.dialog = ConfirmationDialogState(titleVisibility: .visible) {
          TextState("Menu")
        } actions: {
          ButtonState(action: .sort) { TextState("Sort") }
          ButtonState(role: .cancel) { TextState("Cancel") }
        }
        return .none
      case .rowTapped(let id):
        state.detail = RowFeature.State(id: id)
        return .none
      }
    }
    .ifLet(\.$alert, action: \.alert)
    .ifLet(\.$dialog, action: \.dialog)
    .ifLet(\.$detail, action: \.detail) { RowFeature() }
  }
}

extension AlertState where Action == ItemsFeature.Action.Alert {
  static let deleteAll = AlertState {
    TextState("Delete all?")
  } actions: {
    ButtonState(role: .destructive, action: .confirmDeletion) { TextState("Delete") }
    ButtonState(role: .cancel) { TextState("Cancel") }
  } message: {
    TextState("This cannot be undone.")
  }
}

@MainActor
@Suite struct PresentationTests {
  @Test func aButtonsActionRunsAndClearsTheAlert() async {
    let store = TestStore(initialState: ItemsFeature.State()) { ItemsFeature() }
    await store.send(.deleteButtonTapped) { $0.alert = .deleteAll }
    await store.send(\.alert.presented.confirmDeletion) {
      $0.alert = nil
      $0.items = []
    }
  }

  @Test func dismissClearsTheAlert() async {
    let store = TestStore(initialState: ItemsFeature.State()) { ItemsFeature() }
    await store.send(.deleteButtonTapped) { $0.alert = .deleteAll }
    await store.send(\.alert.dismiss) { $0.alert = nil }
  }

  @Test func aDialogsButtonClearsIt() async {
    let store = TestStore(initialState: ItemsFeature.State(items: ["b", "a"])) { ItemsFeature() }
    await store.send(.menuButtonTapped) {
      $0.dialog = ConfirmationDialogState(titleVisibility: .visible) {
        TextState("Menu")
      } actions: {
        ButtonState(action: .sort) { TextState("Sort") }
        ButtonState(role: .cancel) { TextState("Cancel") }
      }
    }
    await store.send(\.dialog.presented, .sort) {
      $0.dialog = nil
      $0.items = ["a", "b"]
    }
  }

  @Test func aPresentedChildRunsUntilDismissed() async {
    let store = TestStore(initialState: ItemsFeature.State()) { ItemsFeature() }
    await store.send(.rowTapped(3)) { $0.detail = RowFeature.State(id: 3) }
    await store.send(\.detail.presented.addRowButtonTapped) { $0.detail?.count = 1 }
    await store.send(\.detail.dismiss) { $0.detail = nil }
    store.recorder.expect([
      .storeCreated("ItemsFeature#1/detail"),
      .storeDestroyed("ItemsFeature#1/detail"),
    ], kinds: ["store.*"], exhaustivity: .off)
  }

  @Test func anAlertsDiffIsReadable() async {
    let store = TestStore(initialState: ItemsFeature.State()) { ItemsFeature() }
    let line = #line + 2
    let failures = await capturingIssues {
      await store.send(.deleteButtonTapped) {
        $0.alert = AlertState { TextState("Delete?") }
      }
    }
    #expect(failures == [CapturedFailure(message: """
      A state change does not match expectation:

          {
            _alert: {
        −     title: "Delete?"
        +     title: "Delete all?"
        −     message: nil
        +     message: "This cannot be undone."
        −     buttons: []
        +     buttons: [
        +       {role: .destructive, action: .confirmDeletion, label: "Delete"}
        +       {role: .cancel, action: nil, label: "Cancel"}
        +     ]
            }
            … (3 unchanged)
          }

      (Expected: −, Actual: +)
      """, line: line)])
  }
}
