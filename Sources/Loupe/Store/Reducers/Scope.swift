/// Runs a child feature's reducer on a part of the parent's state, for the child's actions.
///
/// ```swift
/// struct AppFeature: Reducer {
///   struct State { var settings = SettingsFeature.State() }
///   enum Action { case settings(SettingsFeature.Action) }
///
///   var body: some Reducer<State, Action> {
///     Scope(state: \.settings, action: Action.settings) { SettingsFeature() }
///   }
/// }
/// ```
///
/// The child is a scoped store of its own, `AppFeature#1/settings`, with the parent's
/// lifetime: its actions are reported on it (origin `parent`), its state changes and its
/// effects too, and its cancel ids are its own. `store.scope(state: \.settings, action:
/// Action.settings)` returns that store.
public struct Scope<ParentState, ParentAction, Child: Reducer>: Reducer {
  let toChildState: WritableKeyPath<ParentState, Child.State>
  let toChildAction: CasePath<ParentAction, Child.Action>
  let child: Child

  /// - Parameters:
  ///   - state: The child's state in the parent's (a stored property).
  ///   - action: The parent's case holding child actions.
  ///   - child: The child's reducer.
  public init<ChildState, ChildAction>(
    state toChildState: WritableKeyPath<ParentState, ChildState>,
    action toChildAction: CasePath<ParentAction, ChildAction>,
    @ReducerBuilder<ChildState, ChildAction> child: () -> Child
  ) where ChildState == Child.State, ChildAction == Child.Action {
    self.toChildState = toChildState
    self.toChildAction = toChildAction
    self.child = child()
  }

  /// - Parameters:
  ///   - state: The child's state in the parent's (a stored property).
  ///   - action: The parent's case constructor for child actions, e.g. `Action.settings`.
  ///   - child: The child's reducer.
  public init<ChildState, ChildAction>(
    state toChildState: WritableKeyPath<ParentState, ChildState>,
    action embed: @escaping (ChildAction) -> ParentAction,
    @ReducerBuilder<ChildState, ChildAction> child: () -> Child
  ) where ChildState == Child.State, ChildAction == Child.Action {
    self.init(state: toChildState, action: CasePath(embed), child: child)
  }

  public func reduce(into state: inout ParentState, action: ParentAction) -> Effect<ParentAction> {
    guard let childAction = toChildAction.extract(action) else { return .none }
    let (effect, owner) = ReductionContext.routing(into: ChildKey(path: toChildState, id: nil), action: childAction) {
      child.reduce(into: &state[keyPath: toChildState], action: childAction)
    }
    return effect.scoped(embed: toChildAction.embed, owner: owner)
  }
}

extension Scope: ChildStoreDeclaring {
  func declareChildren(of state: ParentState, to walker: ChildWalker) {
    walker.scope(toChildState, state: state[keyPath: toChildState], reducer: child)
  }
}

extension Scope: BuiltInReducer {}
