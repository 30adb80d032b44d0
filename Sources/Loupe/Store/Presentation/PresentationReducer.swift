extension Reducer {
  /// Runs a presented child feature (TCA's `ifLet(\.$destination, action: \.destination)`):
  /// ``PresentationAction/presented(_:)`` actions go to the child while its state is non-nil,
  /// ``PresentationAction/dismiss`` clears the state after this reducer has seen it.
  ///
  /// ```swift
  /// Reduce { state, action in … }
  ///   .ifLet(\.$detail, action: \.detail) { DetailFeature() }
  /// ```
  ///
  /// The child store is named after the action's case (`AppFeature#1/detail`); it has the
  /// identity, effect cancellation and events of ``ifLet(_:action:then:)``.
  public func ifLet<ChildState, ChildAction, Child: Reducer>(
    _ toPresentationState: WritableKeyPath<State, PresentationState<ChildState>>,
    action toPresentationAction: CasePath<Action, PresentationAction<ChildAction>>,
    @ReducerBuilder<ChildState, ChildAction> then child: () -> Child
  ) -> _PresentationReducer<Self, Child> where ChildState == Child.State, ChildAction == Child.Action {
    _PresentationReducer(parent: self, toState: toPresentationState, toAction: toPresentationAction, child: child())
  }

  /// Presents state that has no reducer of its own: an ``AlertState`` or a
  /// ``ConfirmationDialogState``, cleared on `.dismiss` and after a button's action.
  ///
  /// ```swift
  /// .ifLet(\.$alert, action: \.alert)
  /// ```
  public func ifLet<ChildState, ChildAction>(
    _ toPresentationState: WritableKeyPath<State, PresentationState<ChildState>>,
    action toPresentationAction: CasePath<Action, PresentationAction<ChildAction>>
  ) -> _PresentationReducer<Self, EmptyReducer<ChildState, ChildAction>> {
    ifLet(toPresentationState, action: toPresentationAction) { EmptyReducer() }
  }

  /// ``ifLet(_:action:then:)-(WritableKeyPath<State,PresentationState<ChildState>>,CasePath<Action,PresentationAction<ChildAction>>,_)``
  /// with the case constructor, e.g. `Action.detail`.
  public func ifLet<ChildState, ChildAction, Child: Reducer>(
    _ toPresentationState: WritableKeyPath<State, PresentationState<ChildState>>,
    action embed: @escaping (PresentationAction<ChildAction>) -> Action,
    @ReducerBuilder<ChildState, ChildAction> then child: () -> Child
  ) -> _PresentationReducer<Self, Child> where ChildState == Child.State, ChildAction == Child.Action {
    ifLet(toPresentationState, action: CasePath(embed), then: child)
  }

  /// Presents an alert or dialog with the case constructor, e.g. `Action.alert`.
  public func ifLet<ChildState, ChildAction>(
    _ toPresentationState: WritableKeyPath<State, PresentationState<ChildState>>,
    action embed: @escaping (PresentationAction<ChildAction>) -> Action
  ) -> _PresentationReducer<Self, EmptyReducer<ChildState, ChildAction>> {
    ifLet(toPresentationState, action: CasePath(embed)) { EmptyReducer() }
  }
}

extension Reducer where Action: CasePathable {
  /// `.ifLet(\.$detail, action: \.detail) { DetailFeature() }`.
  public func ifLet<ChildState, ChildAction, Child: Reducer>(
    _ toPresentationState: WritableKeyPath<State, PresentationState<ChildState>>,
    action toPresentationAction: CaseKeyPath<Action, PresentationAction<ChildAction>>,
    @ReducerBuilder<ChildState, ChildAction> then child: () -> Child
  ) -> _PresentationReducer<Self, Child> where ChildState == Child.State, ChildAction == Child.Action {
    ifLet(toPresentationState, action: Action.casePath(toPresentationAction), then: child)
  }

  /// `.ifLet(\.$alert, action: \.alert)`.
  public func ifLet<ChildState, ChildAction>(
    _ toPresentationState: WritableKeyPath<State, PresentationState<ChildState>>,
    action toPresentationAction: CaseKeyPath<Action, PresentationAction<ChildAction>>
  ) -> _PresentationReducer<Self, EmptyReducer<ChildState, ChildAction>> {
    ifLet(toPresentationState, action: Action.casePath(toPresentationAction)) { EmptyReducer() }
  }
}

/// The reducer of the presentation `ifLet`s: an ``Reducer/ifLet(_:action:then:)`` on the
/// wrapped optional, plus dismissal.
public struct _PresentationReducer<Parent: Reducer, Child: Reducer>: Reducer {
  let base: _IfLetReducer<Parent, Child>
  let toState: WritableKeyPath<Parent.State, PresentationState<Child.State>>
  let toAction: CasePath<Parent.Action, PresentationAction<Child.Action>>

  init(
    parent: Parent,
    toState: WritableKeyPath<Parent.State, PresentationState<Child.State>>,
    toAction: CasePath<Parent.Action, PresentationAction<Child.Action>>,
    child: Child
  ) {
    let toChildState = toState.appending(path: \PresentationState<Child.State>.wrappedValue)
    // `$alert` is a computed property, which key paths cannot name: the child store takes
    // the name of the action's case (`alert`), which the `.dismiss` action tells.
    if let name = CaseReflection.caseName(of: toAction.embed(.dismiss)) {
      KeyPathNames.name(toChildState, name)
    }
    let presented = CasePath<Parent.Action, Child.Action>(
      embed: { toAction.embed(.presented($0)) },
      extract: { if case .presented(let action)? = toAction.extract($0) { action } else { nil } })
    let dismiss = toAction.embed(.dismiss)
    self.base = _IfLetReducer(
      parent: parent, toChildState: toChildState, toChildAction: presented, child: child,
      liftChildEffect: { Effect(.transform(DismissibleEffect(inner: $0, dismissAction: dismiss))) })
    self.toState = toState
    self.toAction = toAction
  }

  public func reduce(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action> {
    let presentationAction = toAction.extract(action)
    let effect = base.reduce(into: &state, action: action)
    switch presentationAction {
    case .dismiss?:
      state[keyPath: toState].wrappedValue = nil
    case .presented? where Child.State.self is any EphemeralState.Type:
      // An alert's button was used: the alert goes away.
      state[keyPath: toState].wrappedValue = nil
    default:
      break
    }
    return effect
  }
}

extension _PresentationReducer: ChildStoreDeclaring {
  func declareChildren(of state: Parent.State, to walker: ChildWalker) {
    base.declareChildren(of: state, to: walker)
  }
}
