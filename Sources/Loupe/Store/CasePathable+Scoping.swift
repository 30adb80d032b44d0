/// The scope operators with TCA's case key paths (``CasePathable``): `action: \.settings`.

/// A case key path: `\.settings`, `\.rows[id: 2].addTapped`.
public typealias CaseKeyPath<Root: CasePathable, Value> = KeyPath<Root.AllCasePaths, CasePath<Root, Value>>

extension Scope where ParentAction: CasePathable {
  /// `Scope(state: \.settings, action: \.settings) { SettingsFeature() }`.
  public init<ChildState, ChildAction>(
    state toChildState: WritableKeyPath<ParentState, ChildState>,
    action toChildAction: CaseKeyPath<ParentAction, ChildAction>,
    @ReducerBuilder<ChildState, ChildAction> child: () -> Child
  ) where ChildState == Child.State, ChildAction == Child.Action {
    self.init(state: toChildState, action: ParentAction.casePath(toChildAction), child: child)
  }
}

extension Reducer where Action: CasePathable {
  /// `.ifLet(\.detail, action: \.detail) { DetailFeature() }`.
  public func ifLet<ChildState, ChildAction, Child: Reducer>(
    _ toChildState: WritableKeyPath<State, ChildState?>,
    action toChildAction: CaseKeyPath<Action, ChildAction>,
    @ReducerBuilder<ChildState, ChildAction> then child: () -> Child
  ) -> _IfLetReducer<Self, Child> where ChildState == Child.State, ChildAction == Child.Action {
    ifLet(toChildState, action: Action.casePath(toChildAction), then: child)
  }

  /// `.forEach(\.todos, action: \.todos) { Todo() }`.
  public func forEach<ID: Hashable, ElementState, ElementAction, Element: Reducer>(
    _ toElements: WritableKeyPath<State, IdentifiedArray<ID, ElementState>>,
    action toElementAction: CaseKeyPath<Action, IdentifiedAction<ID, ElementAction>>,
    @ReducerBuilder<ElementState, ElementAction> element: () -> Element
  ) -> _ForEachReducer<Self, ID, Element> where ElementState == Element.State, ElementAction == Element.Action {
    forEach(toElements, action: Action.casePath(toElementAction), element: element)
  }
}

extension Store where Action: CasePathable {
  /// `store.scope(state: \.settings, action: \.settings)`.
  public func scope<ChildState, ChildAction>(
    state toChildState: KeyPath<State, ChildState>,
    action toChildAction: CaseKeyPath<Action, ChildAction>
  ) -> Store<ChildState, ChildAction> {
    scope(state: toChildState, action: Action.casePath(toChildAction))
  }

  /// `store.scope(state: \.detail, action: \.detail)`: `nil` while not presented.
  public func scope<ChildState, ChildAction>(
    state toChildState: KeyPath<State, ChildState?>,
    action toChildAction: CaseKeyPath<Action, ChildAction>
  ) -> Store<ChildState, ChildAction>? {
    scope(state: toChildState, action: Action.casePath(toChildAction))
  }

  /// `store.scope(state: \.todos, action: \.todos)`: the elements' stores.
  public func scope<ID: Hashable, ChildState, ChildAction>(
    state toElements: KeyPath<State, IdentifiedArray<ID, ChildState>>,
    action toElementAction: CaseKeyPath<Action, IdentifiedAction<ID, ChildAction>>
  ) -> IdentifiedArray<ID, Store<ChildState, ChildAction>> {
    scope(state: toElements, action: Action.casePath(toElementAction))
  }

  /// Sends the action at a case key path to a case without a payload: `store.send(\.rows[id: 2].addTapped)`.
  @discardableResult
  public func send(
    _ casePath: CaseKeyPath<Action, Void>, fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line
  ) -> StoreTask {
    send(Action.casePath(casePath).embed(()), fileID: fileID, filePath: filePath, line: line)
  }

  /// Sends the action at a case key path with `value`: `store.send(\.rows[id: 2].renamed, "Milk")`.
  @discardableResult
  public func send<Value>(
    _ casePath: CaseKeyPath<Action, Value>, _ value: Value,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line
  ) -> StoreTask {
    send(Action.casePath(casePath).embed(value), fileID: fileID, filePath: filePath, line: line)
  }
}

extension IdentifiedAction: CasePathable {
  public struct AllCasePaths: CasePathList {
    public init() {}
    /// `\.element` (TCA spells `[id:]`, which ``CasePath`` offers too).
    public var element: CasePath<IdentifiedAction, (id: ID, action: Action)> {
      CasePath(
        embed: { IdentifiedAction.element(id: $0.id, action: $0.action) },
        extract: { (id: $0.id, action: $0.action) }, name: "element")
    }
  }
}
