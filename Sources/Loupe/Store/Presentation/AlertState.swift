/// An alert kept in state (TCA's `AlertState`): its title, message and buttons, each button
/// with the action it sends. Present it with `.ifLet(\.$alert, action: \.alert)`: the store
/// clears it on `.dismiss` and after a button's action.
///
/// ```swift
/// state.alert = AlertState {
///   TextState("Delete?")
/// } actions: {
///   ButtonState(role: .destructive, action: .confirmDeletion) { TextState("Delete") }
///   ButtonState(role: .cancel) { TextState("Cancel") }
/// } message: {
///   TextState("This cannot be undone.")
/// }
/// ```
public struct AlertState<Action> {
  public var title: TextState
  public var message: TextState?
  public var buttons: [ButtonState<Action>]

  public init(
    title: () -> TextState,
    @ButtonStateBuilder<Action> actions: () -> [ButtonState<Action>] = { [] },
    message: (() -> TextState)? = nil
  ) {
    self.title = title()
    self.buttons = actions()
    self.message = message?()
  }
}

extension AlertState: Equatable where Action: Equatable {}
extension AlertState: Hashable where Action: Hashable {}
extension AlertState: Sendable where Action: Sendable {}

/// Whether a confirmation dialog shows its title (TCA's `ConfirmationDialogStateTitleVisibility`).
public enum ConfirmationDialogStateTitleVisibility: Equatable, Hashable, Sendable {
  case automatic
  case hidden
  case visible
}

/// A confirmation dialog kept in state (TCA's `ConfirmationDialogState`), presented and
/// cleared like ``AlertState``.
public struct ConfirmationDialogState<Action> {
  public var titleVisibility: ConfirmationDialogStateTitleVisibility
  public var title: TextState
  public var message: TextState?
  public var buttons: [ButtonState<Action>]

  public init(
    titleVisibility: ConfirmationDialogStateTitleVisibility = .automatic,
    title: () -> TextState,
    @ButtonStateBuilder<Action> actions: () -> [ButtonState<Action>] = { [] },
    message: (() -> TextState)? = nil
  ) {
    self.titleVisibility = titleVisibility
    self.title = title()
    self.buttons = actions()
    self.message = message?()
  }
}

extension ConfirmationDialogState: Equatable where Action: Equatable {}
extension ConfirmationDialogState: Hashable where Action: Hashable {}
extension ConfirmationDialogState: Sendable where Action: Sendable {}

/// State that goes away by itself once one of its buttons is used: the presentation reducer
/// clears it after any action it sends.
protocol EphemeralState {}
extension AlertState: EphemeralState {}
extension ConfirmationDialogState: EphemeralState {}
