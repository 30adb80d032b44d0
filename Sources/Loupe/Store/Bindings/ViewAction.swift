/// An action with a case for what the view sends, `case view(View)` (TCA's `ViewAction`):
/// the view's actions kept apart from the ones effects and parents send.
///
/// ```swift
/// enum Action: ViewAction {
///   case loginResponse(Result<Token, any Error>)
///   case view(View)
///   enum View: BindableAction { case binding(BindingAction<State>), loginButtonTapped }
/// }
/// BindingReducer(action: \.view)
/// ```
public protocol ViewAction<ViewAction> {
  /// The view's actions.
  associatedtype ViewAction
  /// The view case (the enum's `case view(View)` is it).
  static func view(_ action: ViewAction) -> Self
}
