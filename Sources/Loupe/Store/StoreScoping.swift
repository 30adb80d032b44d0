extension Store {
  /// The scoped store of a `Scope` child: `AppFeature#1/settings`.
  ///
  /// ```swift
  /// let settings = store.scope(state: \.settings, action: Action.settings)
  /// settings.send(.themeChanged(.dark))   // reported on AppFeature#1/settings, origin send
  /// ```
  ///
  /// The same store object is returned for the same child while it lives. Scoping into state
  /// that no `Scope` in the reducer covers still works: the child store is created then,
  /// with the parent's lifetime.
  public func scope<ChildState, ChildAction>(
    state toChildState: KeyPath<State, ChildState>,
    action toChildAction: CasePath<Action, ChildAction>
  ) -> Store<ChildState, ChildAction> {
    let key = ChildKey(path: toChildState, id: nil)
    let childNode = node.children[key] ?? runtime.adHocChild(of: node, key: key, typeName: Self.typeName(of: ChildState.self)) {
      ($0 as? State).map { $0[keyPath: toChildState] }
    }
    if let cached = childNode.scopedStore as? Store<ChildState, ChildAction> { return cached }
    let parentState = readState
    let store = Store<ChildState, ChildAction>(
      parent: self, node: childNode, state: { parentState()[keyPath: toChildState] },
      extract: { $0[keyPath: toChildState] }, embed: toChildAction.embed)
    childNode.scopedStore = store
    return store
  }

  /// ``scope(state:action:)-(KeyPath<State,ChildState>,CasePath<Action,ChildAction>)`` with the
  /// case constructor, e.g. `Action.settings`.
  public func scope<ChildState, ChildAction>(
    state toChildState: KeyPath<State, ChildState>,
    action embed: @escaping (ChildAction) -> Action
  ) -> Store<ChildState, ChildAction> {
    scope(state: toChildState, action: CasePath(embed))
  }

  /// The scoped store of an `ifLet` child while it is presented, else `nil`.
  ///
  /// The store belongs to the current identity: after the child is dismissed it reads the
  /// child's last state and ignores actions (with a `warning` event); presenting again makes a
  /// new store.
  public func scope<ChildState, ChildAction>(
    state toChildState: KeyPath<State, ChildState?>,
    action toChildAction: CasePath<Action, ChildAction>
  ) -> Store<ChildState, ChildAction>? {
    let key = ChildKey(path: toChildState, id: nil)
    guard let childNode = node.children[key], childNode.isAlive, let initial = readState()[keyPath: toChildState] else { return nil }
    if let cached = childNode.scopedStore as? Store<ChildState, ChildAction> { return cached }
    let parentState = readState
    var last = initial
    let store = Store<ChildState, ChildAction>(
      parent: self, node: childNode,
      state: {
        if let value = parentState()[keyPath: toChildState] { last = value }
        return last
      },
      extract: { $0[keyPath: toChildState] }, embed: toChildAction.embed)
    childNode.scopedStore = store
    return store
  }

  /// ``scope(state:action:)-(KeyPath<State,ChildState?>,CasePath<Action,ChildAction>)`` with the
  /// case constructor, e.g. `Action.detail`.
  public func scope<ChildState, ChildAction>(
    state toChildState: KeyPath<State, ChildState?>,
    action embed: @escaping (ChildAction) -> Action
  ) -> Store<ChildState, ChildAction>? {
    scope(state: toChildState, action: CasePath(embed))
  }

  /// The scoped stores of a `forEach`'s elements, in order, addressable by id:
  ///
  /// ```swift
  /// let pages = store.scope(state: \.pages, action: Action.pages)
  /// pages[id: 2]?.send(.startTapped)     // reported on AppFeature#1/pages[id: 2]
  /// ```
  public func scope<ID: Hashable, ChildState, ChildAction>(
    state toElements: KeyPath<State, IdentifiedArray<ID, ChildState>>,
    action toElementAction: CasePath<Action, IdentifiedAction<ID, ChildAction>>
  ) -> IdentifiedArray<ID, Store<ChildState, ChildAction>> {
    let elements = readState()[keyPath: toElements]
    var stores = IdentifiedArray<ID, Store<ChildState, ChildAction>>(id: { $0.elementID as! ID })
    let group = node.elementGroups[toElements]
    for id in elements.ids {
      guard let childNode = group?.nodes[AnyHashable(id)], childNode.isAlive else { continue }
      stores.append(elementStore(node: childNode, id: id, toElements: toElements, embed: toElementAction.embed))
    }
    return stores
  }

  /// ``scope(state:action:)-(KeyPath<State,IdentifiedArray<ID,ChildState>>,CasePath<Action,IdentifiedAction<ID,ChildAction>>)``
  /// with the case constructor, e.g. `Action.pages`.
  public func scope<ID: Hashable, ChildState, ChildAction>(
    state toElements: KeyPath<State, IdentifiedArray<ID, ChildState>>,
    action embed: @escaping (IdentifiedAction<ID, ChildAction>) -> Action
  ) -> IdentifiedArray<ID, Store<ChildState, ChildAction>> {
    scope(state: toElements, action: CasePath(embed))
  }

  private func elementStore<ID: Hashable, ChildState, ChildAction>(
    node childNode: StoreNode, id: ID, toElements: KeyPath<State, IdentifiedArray<ID, ChildState>>,
    embed: @escaping (IdentifiedAction<ID, ChildAction>) -> Action
  ) -> Store<ChildState, ChildAction> {
    if let cached = childNode.scopedStore as? Store<ChildState, ChildAction> { return cached }
    let parentState = readState
    var last = readState()[keyPath: toElements][id: id]!
    let store = Store<ChildState, ChildAction>(
      parent: self, node: childNode,
      state: {
        if let value = parentState()[keyPath: toElements][id: id] { last = value }
        return last
      },
      extract: { $0[keyPath: toElements][id: id] }, embed: { embed(.element(id: id, action: $0)) })
    store.elementID = AnyHashable(id)
    childNode.scopedStore = store
    return store
  }

  static func typeName(of stateType: Any.Type) -> String {
    let name = TypeNames.name(of: stateType)
    return name.hasSuffix(".State") ? String(name.dropLast(".State".count)) : name
  }
}

extension RuntimeBase {
  /// A child store for a `scope(…)` that no reducer operator declares: it lives as long as its
  /// parent.
  func adHocChild(of parent: StoreNode, key: ChildKey, typeName: String, read: @escaping (Any) -> Any?) -> StoreNode {
    let relativePath = KeyPathNames.path(of: key.path)
    let parentRead = parent.readState
    let node = StoreNode(
      serial: nextSerial(), id: parent.id + "/" + relativePath.description, typeName: typeName,
      identity: directory.nextIdentity(), kind: .scope, parent: parent, key: key, relativePath: relativePath,
      identityKey: nil, readState: { root in parentRead(root).flatMap(read) }, cancellation: makeRegistry())
    node.runtime = self
    node.isAlive = parent.isAlive
    parent.attach(node)
    register(node)
    if bus.isActive {
      bus.emit(.identityChanged(IdentityChanged(store: node.id, identity: node.identity, previous: nil, reason: .created)))
      emitCreated(node)
    }
    return node
  }
}
