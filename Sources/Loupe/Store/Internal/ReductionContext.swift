import LoupeCore

/// What scope operators need to know while a store runs its reducer: which store node they are
/// in, which action started the processing, and where to report routed actions.
///
/// The store creates one per processed action on the main actor and exposes it through a
/// task-local for the duration of one synchronous `reduce` call; reducer code (nonisolated)
/// reaches it through ``usable``, which checks ``isOpen`` so that a task spawned inside a
/// reducer, which inherits the task-local, never touches it afterwards.
@MainActor
final class ReductionContext {
  /// The context of the reduce running on this thread right now, if any.
  nonisolated static var usable: ReductionContext? {
    guard let context = ReductionContextLocal.current, context.isOpen.load(ordering: .acquiring) else { return nil }
    return context
  }

  nonisolated let isOpen = AtomicBool(true)
  unowned let runtime: RuntimeBase
  /// The store the action was sent to (by the program or an effect).
  let entry: StoreNode
  let entrySeq: Int
  /// The `source` of the entry's `action.received` (paths already dropped if asked): routed
  /// actions (origin `parent`) and warnings carry it.
  let entrySource: CodeLocation?
  nonisolated let active: Bool
  let options: RenderOptions
  /// The tool that replaced the state (`loupe/setState`): its `state.changed` events have
  /// origin `tool` and its name.
  var toolClient: String?

  /// The store node each nested reducer runs for below the root; `nil` when a scope has no
  /// node.
  private var stack: [StoreNode?] = []
  /// `seq` of the `action.received` of each child a scope operator routed the action into.
  private var causes: [ObjectIdentifier: Int] = [:]

  init(runtime: RuntimeBase, entry: StoreNode, entrySeq: Int, entrySource: CodeLocation?, active: Bool, options: RenderOptions) {
    self.runtime = runtime
    self.entry = entry
    self.entrySeq = entrySeq
    self.entrySource = entrySource
    self.active = active
    self.options = options
  }

  func close() { isOpen.store(false, ordering: .releasing) }

  var currentNode: StoreNode? { stack.isEmpty ? runtime.root : stack[stack.count - 1] }

  /// The `seq` that caused changes in `node`: its own `action.received` in this processing,
  /// else its nearest ancestor's, else the action that started the processing.
  func cause(for node: StoreNode) -> Int {
    guard !causes.isEmpty else { return entrySeq }
    var current: StoreNode? = node
    while let candidate = current, candidate !== entry {
      if let seq = causes[ObjectIdentifier(candidate)] { return seq }
      current = candidate.parent
    }
    return entrySeq
  }

  /// Enters the child at `key` of the current node to route `childAction` into it. Emits the
  /// child's `action.received` (origin `parent`) unless the action was sent to that child or
  /// to one of its descendants in the first place. Returns the owner for the child's effects.
  func enterChild(_ key: ChildKey, action childAction: @autoclosure () -> Any) -> EffectOwner? {
    guard let parent = currentNode, let child = parent.children[key] else {
      stack.append(nil)
      return nil
    }
    stack.append(child)
    if active && !child.isAncestor(ofOrSameAs: entry) {
      let action = childAction()
      let (value, shape) = ValueRenderer.renderWithShape(action, options: options)
      let seq = runtime.bus.emit(.actionReceived(ActionReceived(
        store: child.id, action: ValueRenderer.actionLabel(action),
        value: value, origin: .parent, source: entrySource, shape: shape.nonEmpty)))
      causes[ObjectIdentifier(child)] = seq
    }
    return EffectOwner(node: child, cause: cause(for: child))
  }

  func exitChild() { stack.removeLast() }

  /// Reports a misuse the reducer survived (e.g. an action for an element that is not there).
  func warn(code: String, message: String) {
    guard active else { return }
    runtime.bus.emit(.warning(Warning(code: code, message: message, store: currentNode?.id, source: entrySource)))
  }
}

/// Holds the task-local (outside the main-actor class, so reducers can read it).
enum ReductionContextLocal {
  @TaskLocal static var current: ReductionContext?
}

/// The store node whose reducer returned an effect, and the action `seq` that caused it.
struct EffectOwner: Sendable {
  let node: StoreNode
  let cause: Int
}

extension ReductionContext {
  /// Runs `body` as the child at `key` when a store is reducing; plainly otherwise.
  nonisolated static func routing<A, T>(
    into key: @autoclosure () -> ChildKey, action: A, _ body: () -> Effect<T>
  ) -> (effect: Effect<T>, owner: EffectOwner?) {
    guard let context = usable else { return (body(), nil) }
    let key = key()
    // `assumeIsolated` runs synchronously on this thread: the action is not shared, only lent.
    let lent = UncheckedSendable(action)
    let owner = MainActor.assumeIsolated { context.enterChild(key, action: lent.value) }
    defer { MainActor.assumeIsolated { context.exitChild() } }
    return (body(), owner)
  }

  /// Emits a warning when a store is reducing.
  nonisolated static func warnIfReducing(code: String, message: @autoclosure () -> String) {
    guard let context = usable, context.active else { return }
    let message = message()
    MainActor.assumeIsolated { context.warn(code: code, message: message) }
  }
}
