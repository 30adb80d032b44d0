/// A root store's runtime: its state, its reducer, and the processing of actions.
///
/// Processing one action (all on the main actor, never re-entered: actions sent while one is
/// processed, e.g. by `.send` effects or subscribers, queue up and run right after it):
///
/// 1. `action.received` for the store it was sent to;
/// 2. the reducer runs; scope operators report `action.received` (origin `parent`) for the
///    children they route into;
/// 3. the reducer tree is walked to reconcile child identities (`identity.changed`,
///    `store.created`, `store.destroyed`, effects of ended identities cancelled);
/// 4. the old and new root state are diffed once and the changes partitioned by store:
///    one `state.changed` per store with changes, plus one for every new identity;
/// 5. effects start (`effect.started`, cancellations);
/// 6. subscribers (sinks, derived values, observation) are notified.
///
/// With no sink attached (checked once per action) no event is built: nothing is rendered,
/// diffed or labelled.
@MainActor
final class StoreRuntime<State, Action>: RuntimeBase {
  private(set) var state: State
  private let reducer: any Reducer<State, Action>
  /// Whether the reducer tree has any scope operator (else the walk is skipped).
  private var hasScopeOperators = false

  private struct Pending {
    let action: Action
    let entry: StoreNode
    /// The action at the entry store's level, when it is not the root (and a sink is attached).
    let label: Any?
    let origin: ActionReceived.Origin
    /// The tool's name, for origin `tool`.
    var client: String? = nil
    /// Where it was sent from: the `send` call, or the line that created the effect.
    let source: CodeLocation?
    let record: EffectRecord?
    let collector: EffectCollector
  }

  private var queue: [Pending] = []
  /// Told of every action this store processes (LoupeTesting's `TestStore`): the action,
  /// whether the program sent it (else an effect did), and the state before and after.
  package var actionObserver: (@MainActor (Action, _ sentByProgram: Bool, _ old: State, _ new: State) -> Void)? {
    didSet {
      if (oldValue == nil) != (actionObserver == nil) { previousStateWanted += actionObserver == nil ? -1 : 1 }
    }
  }
  private var isProcessing = false

  /// Called after every processed action with the state before (when kept) and after.
  typealias Subscriber = @MainActor (_ old: State?, _ new: State, _ context: ReductionContext) -> Void
  private struct SubscriberEntry {
    let id: Int
    let wantsPrevious: Bool
    let notify: Subscriber
  }
  private var subscribers: [SubscriberEntry] = []
  private var nextSubscriberID = 0
  /// How many subscribers need the previous state (`sink`): while none does and no sink is
  /// attached, the old state is not kept, so the reducer mutates the state in place instead
  /// of copying it (a large identified array would be copied on every action).
  private var previousStateWanted = 0

  init<R: Reducer>(
    initialState: State, reducer: R, name: String?, bus: EventBus, cancellation: CancellationScope, clock: AnyClock,
    dependencies: DependencyValues?
  ) where R.State == State, R.Action == Action {
    self.state = initialState
    self.reducer = reducer
    super.init(bus: bus, clock: clock, cancellation: cancellation, dependencies: dependencies)
    let typeName = TypeNames.storeType(of: R.self)
    let id = name ?? "\(typeName)#\(directory.nextIndex(for: typeName))"
    let active = bus.isActive
    makeRoot(id: id, typeName: typeName, active: active)
    if active { noteRedactedValues(in: initialState) }
    let walker = ChildWalker(runtime: self, isInitial: true, active: active, options: .default, oldRootState: { initialState })
    reducer.walkChildren(of: initialState, walker: walker)
    hasScopeOperators = walker.sawDeclarer
    apply(walker.steps, active: active, by: nil)
  }

  override var rootStateBox: Any { state }

  // MARK: Sending

  /// Sends `action` (a root action) on behalf of `entry`, the store it was sent to.
  func send(_ action: Action, entry: StoreNode, label: Any?, source: CodeLocation?) -> EffectCollector {
    let collector = EffectCollector()
    var pending = Pending(action: action, entry: entry, label: label, origin: .send, source: source, record: nil, collector: collector)
    if let client = toolClient {
      // Only the send the tool asked for: a send made while it is processed is the program's.
      toolClient = nil
      pending = Pending(action: action, entry: entry, label: label, origin: .tool, source: nil, record: nil, collector: collector)
      pending.client = client
    }
    enqueue(pending)
    return collector
  }

  /// The scope that effects returned by the root reducer start in.
  private func rootScope(_ context: ReductionContext, collector: EffectCollector) -> EffectScope<Action> {
    EffectScope(
      owner: root, cause: context.cause(for: root), active: context.active, registrations: [], collector: collector,
      deliver: { [weak self] action, record, entry in
        // A `.send` is part of the send that returned it (its effects are the same task's);
        // an action from a running effect starts a task of its own, as in TCA.
        self?.enqueue(Pending(
          action: action, entry: entry?.node ?? record.owner, label: entry?.label, origin: .effect, source: record.source,
          record: record,
          collector: record.kind == .send ? collector : collector.child()))
      })
  }

  private func enqueue(_ pending: Pending) {
    guard !isProcessing else {
      queue.append(pending)
      return
    }
    isProcessing = true
    defer { isProcessing = false }
    process(pending)
    processQueued()
  }

  /// Processes the actions queued while one was processed, in order.
  private func processQueued() {
    guard !queue.isEmpty else { return }
    var index = 0
    while index < queue.count {
      let next = queue[index]
      index += 1
      process(next)
    }
    queue.removeAll(keepingCapacity: true)
  }

  private func process(_ pending: Pending) {
    if let record = pending.record, record.kind == .send, record.status != .running { return }
    defer {
      if let record = pending.record, record.kind == .send { sendEffectProcessed(record) }
    }
    guard !isInvalidated, pending.entry.isAlive else {
      warnEnded(pending.entry, action: pending.label ?? pending.action, source: pending.source)
      return
    }
    let active = bus.isActive
    let options = active ? bus.renderOptions : .default
    var entrySeq = 0
    var source: CodeLocation?
    if active {
      snapshotIfMissed()
      let label = pending.label ?? pending.action
      source = bus.located(pending.source)
      let (actionLabel, value, shape) = ValueRenderer.renderAction(label, options: options)
      entrySeq = bus.emit(.actionReceived(
        store: pending.entry.id, action: actionLabel, value: value,
        origin: pending.origin, effect: pending.origin == .effect ? pending.record?.id : nil, source: source,
        shape: shape.nonEmpty, client: pending.client))
      if pending.origin == .tool { lastToolSeq = entrySeq }
    }
    let context = ReductionContext(
      runtime: self, entry: pending.entry, entrySeq: entrySeq, entrySource: source, active: active, options: options)
    let oldState: State? = active || previousStateWanted > 0 ? state : nil
    let effect = ReductionContextLocal.$current.withValue(context) {
      if let dependencies {
        DependencyValues.$current.withValue(dependencies) { reducer.reduce(into: &state, action: pending.action) }
      } else {
        reducer.reduce(into: &state, action: pending.action)
      }
    }
    context.close()
    if let actionObserver, let oldState {
      actionObserver(pending.action, pending.origin == .send || pending.origin == .tool, oldState, state)
    }

    var newNodes: [StoreNode] = []
    if hasScopeOperators {
      let walker = ChildWalker(runtime: self, isInitial: false, active: active, options: options, oldRootState: { oldState.map { $0 as Any } })
      reducer.walkChildren(of: state, walker: walker)
      newNodes = walker.newNodes
      let by = active ? EffectCancelled.Source(store: pending.entry.id, cause: entrySeq, source: source) : nil
      apply(walker.steps, active: active, by: by)
    }
    if active, let oldState {
      let bytes = emitStateChanges(from: oldState, to: state, context: context, newNodes: newNodes)
      countForSnapshot(action: entrySeq, bytes: bytes)
    }
    for node in newNodes {
      node.isNewIdentity = false
      node.identityChanges = []
    }
    if !effect.isNone { start(effect, in: rootScope(context, collector: pending.collector)) }
    if !subscribers.isEmpty {
      for subscriber in subscribers { subscriber.notify(oldState, state, context) }
    }
  }

  // MARK: A tool's state

  /// Replaces the state with `newState` for a tool (`loupe/setState`, CONTRACT §16), as an
  /// action that sets it would: a `mark` names it (`setState App#1 by NAME`), then scoped
  /// children are reconciled (identities, effects of ended ones cancelled), one `state.changed`
  /// per store with changes (origin `tool`, `cause` the mark), and subscribers (derived values,
  /// observation) are told. No reducer runs and no effect starts. Returns the mark's seq.
  func replaceState(with newState: State, client: String) -> Int? {
    guard !isInvalidated, !isProcessing else { return nil }
    isProcessing = true
    defer { isProcessing = false }
    defer { processQueued() }
    let active = bus.isActive
    let options = active ? bus.renderOptions : .default
    var markSeq = 0
    if active {
      snapshotIfMissed()
      markSeq = bus.emit(.mark(Mark(label: "setState \(root.id) by \(client)")))
    }
    let context = ReductionContext(runtime: self, entry: root, entrySeq: markSeq, entrySource: nil, active: active, options: options)
    context.toolClient = client
    let oldState = state
    state = newState
    context.close()
    var newNodes: [StoreNode] = []
    if hasScopeOperators {
      let walker = ChildWalker(runtime: self, isInitial: false, active: active, options: options, oldRootState: { oldState })
      reducer.walkChildren(of: state, walker: walker)
      newNodes = walker.newNodes
      let by = active ? EffectCancelled.Source(store: root.id, cause: markSeq, source: nil) : nil
      apply(walker.steps, active: active, by: by)
    }
    if active {
      let bytes = emitStateChanges(from: oldState, to: state, context: context, newNodes: newNodes)
      countForSnapshot(action: markSeq, bytes: bytes)
    }
    for node in newNodes {
      node.isNewIdentity = false
      node.identityChanges = []
    }
    for subscriber in subscribers { subscriber.notify(oldState, state, context) }
    return active ? markSeq : nil
  }

  // MARK: Subscribers

  /// Adds a subscriber called after every processed action; returns its id.
  func subscribe(wantsPrevious: Bool, _ notify: @escaping Subscriber) -> Int {
    nextSubscriberID += 1
    subscribers.append(SubscriberEntry(id: nextSubscriberID, wantsPrevious: wantsPrevious, notify: notify))
    if wantsPrevious { previousStateWanted += 1 }
    return nextSubscriberID
  }

  func unsubscribe(_ id: Int) {
    guard let index = subscribers.firstIndex(where: { $0.id == id }) else { return }
    if subscribers[index].wantsPrevious { previousStateWanted -= 1 }
    subscribers.remove(at: index)
  }
}

/// Which effects `cancel(id:)` and `cancelInFlight` can reach.
public enum CancellationScope: Sendable, Hashable {
  /// Each store identity has its own cancel ids (the default): a store can only cancel
  /// effects it started itself.
  case isolated
  /// All stores of the session (the ``EventBus`` they report to) created with this scope
  /// share one registry keyed by id alone, as in TCA: one page's `cancelInFlight` cancels
  /// another page's timer with the same id. Events still name both stores
  /// (`effect.cancelled` on the other store, `by` this one). On ``EventBus/shared`` the
  /// session is the whole program; a test's private bus is a scope of its own, so tests that
  /// use this scope can run in parallel.
  case processWide
}
