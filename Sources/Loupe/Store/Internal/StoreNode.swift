/// One store identity: a root store for its whole life, or one lifetime of a scoped child
/// (a `Scope` child for its parent's life, an `ifLet` child from presentation to dismissal, a
/// `forEach` element from insertion to removal). A new lifetime is a new node.
@MainActor
final class StoreNode {
  enum Kind { case root, scope, presented, element }

  /// Creation order within the root store: parents before children.
  let serial: Int
  /// The store id: `AppFeature#1`, `AppFeature#1/pages[id: 2]`.
  let id: String
  let typeName: String
  /// Unique in the session: `i7`.
  let identity: String
  let kind: Kind
  private(set) weak var parent: StoreNode?
  /// Where the node sits in its parent.
  let key: ChildKey?
  /// The node's state path relative to its parent (`pages[id: 2]`) and to the root.
  let relativePath: StatePath
  let absolutePath: StatePath
  /// What makes two values in the same place the same identity (the `id` of an
  /// `Identifiable` optional child, the case of an enum one).
  let identityKey: AnyHashable?
  /// Reads the node's state from the root state (type-erased both ways).
  let readState: (Any) -> Any?
  let cancellation: CancellationRegistry
  /// The root store's runtime (for its bus); `nil` once the store is gone.
  weak var runtime: RuntimeBase?

  var isAlive = true
  /// The identity began in the action being processed (its state.changed gets `@identity`).
  var isNewIdentity = false
  /// For a new identity: the diff from the previous lifetime's last state (only when active).
  var identityChanges: [Change] = []
  /// The state when the identity ended, for scoped stores that outlive it.
  var finalState: Any?

  var children: [ChildKey: StoreNode] = [:]
  var childrenByPath: [StatePath: StoreNode] = [:]
  var longestChildPath = 0
  var elementGroups: [AnyKeyPath: ElementGroup] = [:]
  /// The last lifetime of each `Scope`/`ifLet` child that has ended, for `previous` and the
  /// `@identity` diff. (Not kept for `forEach` elements, whose ids are unbounded.)
  var previousLifetimes: [ChildKey: PreviousLifetime] = [:]
  /// Effects this identity started that are still running, by effect id.
  var effects: [Int: EffectRecord] = [:]
  /// The scoped `Store` handed out for this node, reused by `scope(…)`.
  weak var scopedStore: AnyObject?

  init(
    serial: Int, id: String, typeName: String, identity: String, kind: Kind, parent: StoreNode?, key: ChildKey?,
    relativePath: StatePath, identityKey: AnyHashable?, readState: @escaping (Any) -> Any?, cancellation: CancellationRegistry
  ) {
    self.serial = serial
    self.id = id
    self.typeName = typeName
    self.identity = identity
    self.kind = kind
    self.parent = parent
    self.key = key
    self.relativePath = relativePath
    self.absolutePath = StatePath((parent?.absolutePath.components ?? []) + relativePath.components)
    self.identityKey = identityKey
    self.readState = readState
    self.cancellation = cancellation
  }

  func attach(_ child: StoreNode) {
    guard let key = child.key else { return }
    children[key] = child
    childrenByPath[child.relativePath] = child
    longestChildPath = max(longestChildPath, child.relativePath.components.count)
  }

  func detach(_ child: StoreNode) {
    guard let key = child.key, children[key] === child else { return }
    children[key] = nil
    if childrenByPath[child.relativePath] === child { childrenByPath[child.relativePath] = nil }
  }

  /// This node and every node below it, parents first.
  var subtree: [StoreNode] {
    var nodes = [self]
    var index = 0
    while index < nodes.count {
      nodes.append(contentsOf: nodes[index].children.values.sorted { $0.serial < $1.serial })
      index += 1
    }
    return nodes
  }

  /// Whether `self` is `other` or one of its ancestors.
  func isAncestor(ofOrSameAs other: StoreNode) -> Bool {
    var node: StoreNode? = other
    while let current = node {
      if current === self { return true }
      node = current.parent
    }
    return false
  }
}

/// A child's place in its parent: the key path of the scope operator, plus the element id for
/// `forEach`.
struct ChildKey: Hashable {
  let path: AnyKeyPath
  let id: AnyHashable?
}

/// The `forEach` children under one key path.
@MainActor
final class ElementGroup {
  /// The ids seen last time, as `[ID]`, to skip reconciling when they are unchanged.
  var lastIDs: Any?
  var nodes: [AnyHashable: StoreNode] = [:]
  /// Whether the element reducer declares children of its own (unknown until one element has
  /// been walked). When it does not, unchanged ids mean nothing to walk.
  var elementsDeclareChildren: Bool?
}

struct PreviousLifetime {
  let identity: String
  let state: Any?
}
