extension Reducer {
  /// Runs an element feature on each element of an identified array, for actions addressed to
  /// it by id.
  ///
  /// ```swift
  /// struct AppFeature: Reducer {
  ///   struct State { var pages: IdentifiedArrayOf<PageFeature.State> = [] }
  ///   enum Action { case pages(IdentifiedAction<Int, PageFeature.Action>) }
  ///
  ///   var body: some Reducer<State, Action> {
  ///     Reduce { state, action in .none }
  ///       .forEach(\.pages, action: Action.pages) { PageFeature() }
  ///   }
  /// }
  /// store.send(.pages(.element(id: 2, action: .startTapped)))
  /// ```
  ///
  /// Each element is a scoped store, `AppFeature#1/pages[id: 2]`, with one identity for as
  /// long as its id stays in the array (`inserted` … `removed`); removing the element cancels
  /// its effects (reason `identityEnded`), and its cancel ids are its own, so pages never
  /// cancel each other's effects. The element runs first, then this reducer. An action for an
  /// id that is not in the array is ignored with a `warning` event (`actionForMissingChild`).
  public func forEach<ID: Hashable, ElementState, ElementAction, Element: Reducer>(
    _ toElements: WritableKeyPath<State, IdentifiedArray<ID, ElementState>>,
    action toElementAction: CasePath<Action, IdentifiedAction<ID, ElementAction>>,
    @ReducerBuilder<ElementState, ElementAction> element: () -> Element
  ) -> _ForEachReducer<Self, ID, Element> where ElementState == Element.State, ElementAction == Element.Action {
    _ForEachReducer(parent: self, toElements: toElements, toElementAction: toElementAction, element: element())
  }

  /// ``forEach(_:action:element:)`` with the parent's case constructor, e.g. `Action.pages`.
  public func forEach<ID: Hashable, ElementState, ElementAction, Element: Reducer>(
    _ toElements: WritableKeyPath<State, IdentifiedArray<ID, ElementState>>,
    action embed: @escaping (IdentifiedAction<ID, ElementAction>) -> Action,
    @ReducerBuilder<ElementState, ElementAction> element: () -> Element
  ) -> _ForEachReducer<Self, ID, Element> where ElementState == Element.State, ElementAction == Element.Action {
    forEach(toElements, action: CasePath(embed), element: element)
  }
}

/// The reducer ``Reducer/forEach(_:action:element:)`` builds.
public struct _ForEachReducer<Parent: Reducer, ID: Hashable, Element: Reducer>: Reducer {
  let parent: Parent
  let toElements: WritableKeyPath<Parent.State, IdentifiedArray<ID, Element.State>>
  let toElementAction: CasePath<Parent.Action, IdentifiedAction<ID, Element.Action>>
  let element: Element

  public func reduce(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action> {
    var elementEffect = Effect<Parent.Action>.none
    if case .element(let id, let elementAction)? = toElementAction.extract(action) {
      if state[keyPath: toElements][id: id] == nil {
        ReductionContext.warnIfReducing(
          code: "actionForMissingChild",
          message: "\(ValueRenderer.actionLabel(elementAction)) arrived for \(KeyPathNames.describe(toElements))[id: \(ValueRenderer.render(id).jsonText)], which is not there; the action was ignored.")
      } else {
        let (effect, owner) = ReductionContext.routing(into: ChildKey(path: toElements, id: AnyHashable(id)), action: elementAction) {
          element.reduce(into: &state[keyPath: toElements][id: id]!, action: elementAction)
        }
        let embed = toElementAction.embed
        elementEffect = effect.scoped(embed: { embed(.element(id: id, action: $0)) }, owner: owner)
      }
    }
    let parentEffect = parent.reduce(into: &state, action: action)
    return elementEffect.merge(with: parentEffect)
  }
}

extension _ForEachReducer: ChildStoreDeclaring {
  func declareChildren(of state: Parent.State, to walker: ChildWalker) {
    parent.walkChildren(of: state, walker: walker)
    walker.elements(toElements, array: state[keyPath: toElements], reducer: element)
  }
}
