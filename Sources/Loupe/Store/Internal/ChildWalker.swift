/// Finds the scoped child stores that the reducer tree defines for a state, and reconciles them
/// with the live ones: new children begin an identity, missing ones end theirs, an optional
/// child whose value became a different one is replaced.
///
/// The store walks its reducer once at creation and after every action (only when the tree has
/// any `Scope`, `ifLet` or `forEach`). The walk is cheap when nothing moved: a `forEach` whose
/// ids are unchanged (compared as arrays, identical storage short-circuits) and whose element
/// reducer declares no children of its own costs one comparison.
@MainActor
final class ChildWalker {
  enum Step {
    case began(StoreNode, IdentityChanged.Reason, previous: String?)
    case ended(StoreNode, IdentityChanged.Reason)
    case replaced(old: StoreNode, new: StoreNode)
  }

  let runtime: RuntimeBase
  let isInitial: Bool
  let active: Bool
  let options: RenderOptions
  private let oldRootState: () -> Any?
  private var oldRootBox: Any??
  private(set) var current: StoreNode
  /// Whether a scope operator was met (reset per element to learn whether elements declare).
  var sawDeclarer = false
  private(set) var steps: [Step] = []
  private(set) var newNodes: [StoreNode] = []

  /// - Parameter oldRootState: The root state before the action, when the store kept it
  ///   (with a sink attached, or a subscriber that wants it); ended children then keep their
  ///   last state.
  init(runtime: RuntimeBase, isInitial: Bool, active: Bool, options: RenderOptions, oldRootState: @escaping () -> Any?) {
    self.runtime = runtime
    self.isInitial = isInitial
    self.active = active
    self.options = options
    self.oldRootState = oldRootState
    self.current = runtime.root
  }

  private var oldRoot: Any? {
    if let box = oldRootBox { return box }
    let box = oldRootState()
    oldRootBox = .some(box)
    return box
  }

  private func descend(_ node: StoreNode, _ body: () -> Void) {
    let saved = current
    current = node
    body()
    current = saved
  }

  // MARK: Operators

  /// A `Scope` child: one identity for the parent's whole life.
  func scope<Parent, Child: Reducer>(_ keyPath: WritableKeyPath<Parent, Child.State>, state: Child.State, reducer: Child) {
    sawDeclarer = true
    let key = ChildKey(path: keyPath, id: nil)
    let node: StoreNode
    if let existing = current.children[key] {
      node = existing
    } else {
      let read = current.readState
      node = begin(
        key: key, kind: .scope, relativePath: KeyPathNames.path(of: keyPath), typeName: TypeNames.storeType(of: Child.self),
        identityKey: nil, read: { root in (read(root) as? Parent).map { $0[keyPath: keyPath] } }, state: state, reason: .created)
    }
    descend(node) { reducer.walkChildren(of: state, walker: self) }
  }

  /// An `ifLet` child: a new identity each time the optional becomes non-nil, or holds a
  /// different value (another `id`, another enum case).
  func optional<Parent, Child: Reducer>(_ keyPath: WritableKeyPath<Parent, Child.State?>, state: Child.State?, reducer: Child) {
    sawDeclarer = true
    let key = ChildKey(path: keyPath, id: nil)
    let existing = current.children[key]
    guard let state else {
      if let existing {
        end(existing)
        steps.append(.ended(existing, .dismissed))
      }
      return
    }
    let identityKey = IdentityKeys.key(of: state)
    if let existing, existing.identityKey == identityKey {
      descend(existing) { reducer.walkChildren(of: state, walker: self) }
      return
    }
    if let existing { end(existing) }
    let read = current.readState
    let node = begin(
      key: key, kind: .presented, relativePath: KeyPathNames.path(of: keyPath), typeName: TypeNames.storeType(of: Child.self),
      identityKey: identityKey, read: { root in (read(root) as? Parent).flatMap { $0[keyPath: keyPath] } }, state: state,
      reason: existing != nil ? .replaced : (isInitial ? .created : .presented), replacing: existing)
    descend(node) { reducer.walkChildren(of: state, walker: self) }
  }

  /// `forEach` children: one identity per element lifetime in the array.
  func elements<Parent, ID: Hashable, Element: Reducer>(
    _ keyPath: WritableKeyPath<Parent, IdentifiedArray<ID, Element.State>>, array: IdentifiedArray<ID, Element.State>, reducer: Element
  ) {
    sawDeclarer = true
    let group: ElementGroup
    if let existing = current.elementGroups[keyPath] {
      group = existing
    } else {
      group = ElementGroup()
      current.elementGroups[keyPath] = group
    }
    let ids = array.ids
    let lastIDs = group.lastIDs as? [ID] ?? []
    if group.lastIDs == nil || lastIDs != ids {
      let present = Set(ids)
      for id in lastIDs where !present.contains(id) {
        guard let node = group.nodes.removeValue(forKey: AnyHashable(id)) else { continue }
        end(node)
        steps.append(.ended(node, .removed))
      }
      let previous = Set(lastIDs)
      let read = current.readState
      let basePath = KeyPathNames.path(of: keyPath)
      for id in ids where !previous.contains(id) {
        guard let element = array[id: id] else { continue }
        let node = begin(
          key: ChildKey(path: keyPath, id: AnyHashable(id)), kind: .element,
          relativePath: basePath / .id(ValueRenderer.render(id)), typeName: TypeNames.storeType(of: Element.self),
          identityKey: nil, read: { root in (read(root) as? Parent)?[keyPath: keyPath][id: id] }, state: element,
          reason: isInitial ? .created : .inserted)
        group.nodes[AnyHashable(id)] = node
      }
      group.lastIDs = ids
    }
    guard group.elementsDeclareChildren != false else { return }
    for id in ids {
      guard let node = group.nodes[AnyHashable(id)], let element = array[id: id] else { continue }
      sawDeclarer = false
      descend(node) { reducer.walkChildren(of: element, walker: self) }
      if group.elementsDeclareChildren == nil { group.elementsDeclareChildren = sawDeclarer }
    }
    sawDeclarer = true
  }

  // MARK: Lifetimes

  private func begin<State>(
    key: ChildKey, kind: StoreNode.Kind, relativePath: StatePath, typeName: String, identityKey: AnyHashable?,
    read: @escaping (Any) -> Any?, state: State, reason: IdentityChanged.Reason, replacing replaced: StoreNode? = nil
  ) -> StoreNode {
    let parent = current
    let node = StoreNode(
      serial: runtime.nextSerial(), id: parent.id + "/" + relativePath.description, typeName: typeName,
      identity: runtime.directory.nextIdentity(), kind: kind, parent: parent, key: key, relativePath: relativePath,
      identityKey: identityKey, readState: read, cancellation: runtime.makeRegistry())
    node.runtime = runtime
    parent.attach(node)
    runtime.register(node)
    let previous = kind == .element ? nil : parent.previousLifetimes.removeValue(forKey: key)
    if !isInitial {
      node.isNewIdentity = true
      newNodes.append(node)
      // Only the top of a new subtree reports its state; the rest is inside it.
      if active && !parent.isNewIdentity {
        let base = node.absolutePath
        if let previous, let previousState = previous.state as? State {
          node.identityChanges = StateDiff.diffWithShapes(previousState, state, at: base, options: options).map { $0.relative(to: base) }
        } else {
          let (value, shape) = ValueRenderer.renderWithShape(state, at: base, options: options)
          node.identityChanges = [Change(path: "", op: .insert, new: value, newShape: shape.nonEmpty)]
        }
      }
    }
    if let replaced {
      steps.append(.replaced(old: replaced, new: node))
    } else {
      steps.append(.began(node, reason, previous: previous?.identity))
    }
    return node
  }

  /// Ends `node`'s identity and every identity below it.
  private func end(_ node: StoreNode) {
    let root = oldRoot
    for member in node.subtree {
      member.isAlive = false
      member.finalState = root.flatMap(member.readState)
      runtime.unregister(member)
    }
    guard let parent = node.parent else { return }
    parent.detach(node)
    if let key = node.key, node.kind != .element {
      parent.previousLifetimes[key] = PreviousLifetime(identity: node.identity, state: node.finalState)
    }
  }
}

/// What makes an optional child's value the same identity as before.
@MainActor
enum IdentityKeys {
  /// Whether each type seen is an enum, so structs are never reflected twice.
  private static var isEnum: [ObjectIdentifier: Bool] = [:]

  static func key(of value: Any) -> AnyHashable? {
    if let identifiable = value as? any Identifiable { return id(of: identifiable) }
    let type = ObjectIdentifier(Swift.type(of: value))
    if isEnum[type] == false { return nil }
    let name = CaseReflection.caseName(of: value)
    isEnum[type] = name != nil
    return name.map { AnyHashable($0) }
  }

  private static func id<T: Identifiable>(of value: T) -> AnyHashable { AnyHashable(value.id) }
}

extension Reducer {
  /// Walks this reducer's scope operators over `state` (see ``ChildWalker``).
  ///
  /// Uses plain existential casts (`any Reducer`, `any AnyChildStoreDeclaring`), whose
  /// conformance lookups the runtime caches; casts to parameterized existentials (`any
  /// Reducer<State, Action>`) re-check their generic requirements on every call and would
  /// dominate the cost of an idle send.
  @MainActor
  func walkChildren(of state: State, walker: ChildWalker) {
    if let declaring = self as? any AnyChildStoreDeclaring {
      declaring.declareChildren(ofAny: state, to: walker)
      return
    }
    guard Body.self != Never.self, let body = self.body as? any Reducer else { return }
    walkReducer(body, state: state, walker: walker)
  }
}

@MainActor
private func walkReducer<R: Reducer>(_ reducer: R, state: Any, walker: ChildWalker) {
  guard let state = state as? R.State else { return }
  reducer.walkChildren(of: state, walker: walker)
}

/// Reducers that contain scope operators (or other reducers) and tell the walker about them.
protocol ChildStoreDeclaring<State>: AnyChildStoreDeclaring {
  associatedtype State
  @MainActor func declareChildren(of state: State, to walker: ChildWalker)
}

/// ``ChildStoreDeclaring`` without its associated type, for a cheap dynamic cast.
protocol AnyChildStoreDeclaring {
  @MainActor func declareChildren(ofAny state: Any, to walker: ChildWalker)
}

extension ChildStoreDeclaring {
  @MainActor func declareChildren(ofAny state: Any, to walker: ChildWalker) {
    guard let state = state as? State else { return }
    declareChildren(of: state, to: walker)
  }
}
