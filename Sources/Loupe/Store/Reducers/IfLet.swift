extension Reducer {
  /// Runs a child feature on optional state while it is non-nil: presentation.
  ///
  /// ```swift
  /// var body: some Reducer<State, Action> {
  ///   Reduce { state, action in
  ///     switch action {
  ///     case .showDetailToggled:
  ///       state.detail = state.detail == nil ? DetailFeature.State() : nil
  ///       return .none
  ///     case .detail:
  ///       return .none
  ///     }
  ///   }
  ///   .ifLet(\.detail, action: Action.detail) { DetailFeature() }
  /// }
  /// ```
  ///
  /// Each time the optional becomes non-nil the child store (`AppFeature#1/detail`) gets a new
  /// identity (`identity.changed` reason `presented`, then `store.created`), and its first
  /// `state.changed` carries `@identity`: its state starts fresh. When it becomes nil the
  /// identity ends (`dismissed`, `store.destroyed`) and the child's effects are cancelled
  /// (reason `identityEnded`). A value with another `id` (when `Identifiable`) or another
  /// enum case replaces the identity (`replaced`).
  ///
  /// The child runs first, then this reducer. A child action that arrives while the state is
  /// nil is ignored with a `warning` event (`actionForMissingChild`).
  public func ifLet<ChildState, ChildAction, Child: Reducer>(
    _ toChildState: WritableKeyPath<State, ChildState?>,
    action toChildAction: CasePath<Action, ChildAction>,
    @ReducerBuilder<ChildState, ChildAction> then child: () -> Child
  ) -> _IfLetReducer<Self, Child> where ChildState == Child.State, ChildAction == Child.Action {
    _IfLetReducer(parent: self, toChildState: toChildState, toChildAction: toChildAction, child: child())
  }

  /// ``ifLet(_:action:then:)`` with the parent's case constructor, e.g. `Action.detail`.
  public func ifLet<ChildState, ChildAction, Child: Reducer>(
    _ toChildState: WritableKeyPath<State, ChildState?>,
    action embed: @escaping (ChildAction) -> Action,
    @ReducerBuilder<ChildState, ChildAction> then child: () -> Child
  ) -> _IfLetReducer<Self, Child> where ChildState == Child.State, ChildAction == Child.Action {
    ifLet(toChildState, action: CasePath(embed), then: child)
  }
}

/// The reducer ``Reducer/ifLet(_:action:then:)`` builds.
public struct _IfLetReducer<Parent: Reducer, Child: Reducer>: Reducer {
  let parent: Parent
  let toChildState: WritableKeyPath<Parent.State, Child.State?>
  let toChildAction: CasePath<Parent.Action, Child.Action>
  let child: Child
  /// Applied to the child's effects once lifted into the parent (presentation: `dismiss`).
  let liftChildEffect: ((Effect<Parent.Action>) -> Effect<Parent.Action>)?

  init(
    parent: Parent,
    toChildState: WritableKeyPath<Parent.State, Child.State?>,
    toChildAction: CasePath<Parent.Action, Child.Action>,
    child: Child,
    liftChildEffect: ((Effect<Parent.Action>) -> Effect<Parent.Action>)? = nil
  ) {
    self.parent = parent
    self.toChildState = toChildState
    self.toChildAction = toChildAction
    self.child = child
    self.liftChildEffect = liftChildEffect
  }

  public func reduce(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action> {
    var childEffect = Effect<Parent.Action>.none
    if let childAction = toChildAction.extract(action) {
      if state[keyPath: toChildState] == nil {
        ReductionContext.warnIfReducing(
          code: "actionForMissingChild",
          message: "\(ValueRenderer.actionLabel(childAction)) arrived while \(KeyPathNames.describe(toChildState)) was nil; the action was ignored.")
      } else {
        let (effect, owner) = ReductionContext.routing(into: ChildKey(path: toChildState, id: nil), action: childAction) {
          child.reduce(into: &state[keyPath: toChildState]!, action: childAction)
        }
        childEffect = effect.scoped(embed: toChildAction.embed, owner: owner)
        if let liftChildEffect { childEffect = liftChildEffect(childEffect) }
      }
    }
    let parentEffect = parent.reduce(into: &state, action: action)
    return childEffect.merge(with: parentEffect)
  }
}

extension _IfLetReducer: ChildStoreDeclaring {
  func declareChildren(of state: Parent.State, to walker: ChildWalker) {
    parent.walkChildren(of: state, walker: walker)
    walker.optional(toChildState, state: state[keyPath: toChildState], reducer: child)
  }
}
