/// The parts of a root store's runtime that do not depend on its state and action types:
/// the store tree, lifecycle events, the directory, and effects (see `EffectRunner.swift`).
@MainActor
class RuntimeBase {
  let bus: EventBus
  let directory: LiveStoreDirectory
  let clock: AnyClock
  /// The store's clock when it is a ``TestClock``: effects report to it so `advance` is
  /// deterministic.
  let testClock: TestClock?
  let cancellationScope: CancellationScope
  /// The dependencies the reducer and the effects see; `nil` when they are the ambient live
  /// defaults (then no task-local is set around the reducer: nothing to pay per action).
  /// `TestStore.dependencies` changes them between steps; effects keep those they started with.
  var dependencies: DependencyValues?
  private(set) var root: StoreNode!
  private(set) var isInvalidated = false
  private var serial = 0
  /// What was processed since the root store's last `state.snapshot` (`StateSnapshots.swift`).
  var snapshots = SnapshotSchedule()
  /// The root's last `state.changed` summary, reused while its actions change the same fields.
  var rootSummaries = ChangeSummary.LineCache()
  /// The texts of the paths this store's changes were recorded at lately (``PathTexts``).
  let pathTexts = PathTexts()
  /// While a tool's action is sent (``sendingAsTool(_:_:)``): the tool's name.
  var toolClient: String?
  /// The `action.received` seq of the last action a tool sent.
  var lastToolSeq: Int?

  /// Runs `send` (which sends one action) as a tool's send: its `action.received` has origin
  /// `tool` and the client's name. Returns that event's seq (`nil` when none was emitted).
  func sendingAsTool(_ client: String, _ send: () -> Void) -> Int? {
    toolClient = client
    lastToolSeq = nil
    defer { toolClient = nil }
    send()
    return lastToolSeq
  }

  init(bus: EventBus, clock: AnyClock, cancellation: CancellationScope, dependencies: DependencyValues?) {
    StoreSession.startInspectorIfNeeded()
    self.bus = bus
    self.directory = LiveStoreDirectory.of(bus)
    self.clock = clock
    self.dependencies = dependencies
    self.testClock = clock.base as? TestClock
    self.cancellationScope = cancellation
  }

  /// The root state, boxed (for directory queries and final states).
  var rootStateBox: Any { fatalError("subclass") }

  func nextSerial() -> Int {
    serial += 1
    return serial
  }

  func makeRegistry() -> CancellationRegistry {
    switch cancellationScope {
    case .isolated: CancellationRegistry()
    case .processWide: directory.processWideCancellation
    }
  }

  /// Creates the root node, reports it (`identity.changed` created, `store.created`).
  func makeRoot(id: String, typeName: String, active: Bool) {
    let node = StoreNode(
      serial: 0, id: id, typeName: typeName, identity: directory.nextIdentity(), kind: .root, parent: nil, key: nil,
      relativePath: .root, identityKey: nil, readState: { $0 }, cancellation: makeRegistry())
    node.runtime = self
    root = node
    register(node)
    guard active else { return }
    bus.emit(.identityChanged(IdentityChanged(store: id, identity: node.identity, previous: nil, reason: .created)))
    emitCreated(node)
    if bus.snapshotPolicy.isEnabled { emitSnapshot(cause: nil) }
  }

  // MARK: Directory

  func register(_ node: StoreNode) {
    let info = StoreInfo(id: node.id, type: node.typeName, parent: node.parent?.id, identity: node.identity)
    let storeID = node.id
    directory.add(info) { [weak self, weak node] path in
      guard let self, let node, node.isAlive else { return .failure(.unknownStore(storeID)) }
      return self.renderState(of: node, at: path)
    } target: { [weak node] in
      guard let node, node.isAlive else { return nil }
      return node.scopedStore as? any ToolControllable
    }
  }

  func unregister(_ node: StoreNode) {
    directory.remove(id: node.id, identity: node.identity)
  }

  /// The node's state (or the value at `path` in it), rendered with the session's options
  /// (redaction globs match the full state path from the root), and its shape.
  func renderState(of node: StoreNode, at path: StatePath?) -> Result<(json: JSON, shape: ValueShape?), StateQueryError> {
    guard let value = node.readState(rootStateBox) else { return .failure(.unknownStore(node.id)) }
    let (rendered, shape) = ValueRenderer.renderWithShape(value, at: node.absolutePath, options: bus.renderOptions)
    guard let path, !path.isRoot else { return .success((rendered, shape.nonEmpty)) }
    guard let found = JSONPathLookup.value(at: path, in: rendered) else {
      return .failure(.noValueAtPath(store: node.id, path: path.description))
    }
    return .success((found, shape.descending(path.components)?.nonEmpty))
  }

  /// With `LOUPE_REDACT` paths set, renders a root store's initial state once (the rendering
  /// is thrown away), so that the session's ``RedactedTexts`` knows the values those paths
  /// hide before any of them changes: texts derived from them are scrubbed from the start.
  func noteRedactedValues(in initialState: Any) {
    let options = bus.renderOptions
    guard !options.redactedPaths.isEmpty else { return }
    _ = ValueRenderer.render(initialState, options: options)
  }

  // MARK: Lifecycle events

  func emitCreated(_ node: StoreNode) {
    bus.emit(.storeCreated(StoreCreated(store: node.id, type: node.typeName, parent: node.parent?.id, identity: node.identity)))
  }

  func emitDestroyed(_ node: StoreNode) {
    bus.emit(.storeDestroyed(StoreDestroyed(store: node.id, identity: node.identity)))
  }

  /// Reports identity changes found by a walk and ends the effects of identities that ended.
  func apply(_ steps: [ChildWalker.Step], active: Bool, by source: EffectCancelled.Source?) {
    for step in steps {
      switch step {
      case .began(let node, let reason, let previous):
        guard active else { continue }
        bus.emit(.identityChanged(IdentityChanged(store: node.id, identity: node.identity, previous: previous, reason: reason)))
        emitCreated(node)
      case .ended(let node, let reason):
        if active {
          bus.emit(.identityChanged(IdentityChanged(store: node.id, identity: node.identity, previous: nil, reason: reason)))
        }
        endSubtree(node, active: active, by: source)
      case .replaced(let old, let new):
        if active {
          bus.emit(.identityChanged(IdentityChanged(store: new.id, identity: new.identity, previous: old.identity, reason: .replaced)))
        }
        endSubtree(old, active: active, by: source)
        if active { emitCreated(new) }
      }
    }
  }

  private func endSubtree(_ node: StoreNode, active: Bool, by source: EffectCancelled.Source?) {
    let nodes = node.subtree
    cancelEffects(of: nodes, reason: .identityEnded, by: source)
    guard active else { return }
    for member in nodes.reversed() { emitDestroyed(member) }
  }

  // MARK: Invalidation

  /// Ends the store: cancels every effect (`storeDestroyed`), reports `store.destroyed` for
  /// every child (deepest first) and then the root. Later sends are ignored with a warning.
  func invalidate() {
    guard !isInvalidated, let root else { return }
    isInvalidated = true
    let nodes = root.subtree
    cancelEffects(of: nodes, reason: .storeDestroyed, by: nil)
    let box = nodes.count > 1 ? rootStateBox : nil
    let active = bus.isActive
    for node in nodes.reversed() {
      node.isAlive = false
      if node !== root, let box { node.finalState = node.readState(box) }
      unregister(node)
      if active { emitDestroyed(node) }
    }
  }

  /// Reports an action sent to a store whose identity has ended.
  func warnEnded(_ node: StoreNode, action: @autoclosure () -> Any, source: CodeLocation?) {
    guard bus.isActive else { return }
    let label = ValueRenderer.actionLabel(action())
    let reason = node === root && isInvalidated ? "the store was invalidated" : "its identity \(node.identity) ended"
    bus.emit(.warning(Warning(
      code: "sendToEndedStore",
      message: "\(label) was sent to \(node.id) after \(reason); the action was ignored.",
      store: node.id, source: bus.located(source))))
  }
}

/// Process-wide store bookkeeping.
@MainActor
enum StoreSession {
  private static var inspectorStarted = false

  /// Runs the inspector's autostart hook once, when the first store is created.
  static func startInspectorIfNeeded() {
    guard !inspectorStarted else { return }
    inspectorStarted = true
    InspectorAutostart.run()
  }
}
