/// Applies binding actions to the state: put it first in `body`, before the reducer that
/// reacts to them (TCA's `BindingReducer`).
///
/// ```swift
/// var body: some Reducer<State, Action> {
///   BindingReducer()
///   Reduce { state, action in
///     switch action {
///     case .binding(\.query): return .send(.search)   // query is already set
///     case .binding: return .none
///     …
///   }
/// }
/// ```
///
/// With bindings in a nested view action (`case view(View)`, `View: BindableAction`):
/// `BindingReducer(action: \.view)`.
public struct BindingReducer<State, Action>: Reducer {
  let toBinding: (Action) -> BindingAction<State>?

  public init() where Action: BindableAction, Action.State == State {
    toBinding = { $0.binding }
  }

  /// Bindings in the view action at `toViewAction`.
  public init<ViewAction: BindableAction>(action toViewAction: CaseKeyPath<Action, ViewAction>)
  where Action: CasePathable, ViewAction.State == State {
    let path = Action.casePath(toViewAction)
    toBinding = { path.extract($0)?.binding }
  }

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    toBinding(action)?.set(&state)
    return .none
  }
}

extension BindingReducer: BuiltInReducer {}

extension Store where Action: BindableAction, Action.State == State {
  /// Reads a field, and sets it by sending `.binding(.set(keyPath, value))`: `store.query =
  /// "Milk"`. On Apple platforms `@Bindable var store` makes SwiftUI bindings of it
  /// (`$store.query`), as in TCA.
  public subscript<Value: Equatable & Sendable>(dynamicMember keyPath: WritableKeyPath<State, Value> & Sendable) -> Value {
    get { self[dynamicMember: keyPath as KeyPath<State, Value>] }
    set { send(.binding(.set(keyPath, newValue))) }
  }
}

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
