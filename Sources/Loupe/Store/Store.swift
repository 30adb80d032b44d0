import Foundation
import Observation

/// Holds a feature's state, runs its reducer for every action, runs the effects it returns,
/// and explains all of it as diagnostic events.
///
/// ```swift
/// let store = Store(initialState: CounterFeature.State()) { CounterFeature() }
/// store.send(.incrementTapped)
/// store.count            // 1, read through dynamic member lookup
/// ```
///
/// Every store has a store id (`CounterFeature#1`, or the `name` you give it; a scoped child
/// appends its state path: `AppFeature#1/pages[id: 2]`) and an identity unique in the session
/// (`i3`). Events go to `bus` (``EventBus/shared`` unless told otherwise); with no sink
/// attached, a send does no diagnostic work at all.
///
/// Stores live on the main actor. A root store ends when it is released or ``invalidate()``
/// is called: its effects are cancelled (reason `storeDestroyed`) and later sends are ignored
/// with a `warning` event.
@MainActor
@dynamicMemberLookup
public final class Store<State, Action> {
  let runtime: RuntimeBase
  let node: StoreNode
  let readState: @MainActor () -> State
  /// Sends an action of this store's type on behalf of `entry` (this store or a descendant),
  /// with the action at the entry's level when known.
  let sendFrom: @MainActor (Action, StoreNode, Any?, CodeLocation?) -> EffectCollector
  /// Subscribes to this store's state after every processed action: (old, new), where old
  /// is given only to subscribers that want it.
  let subscribeToChanges: @MainActor (
    _ wantsPrevious: Bool, _ notify: @escaping @MainActor (State?, State, ReductionContext) -> Void
  ) -> StoreSubscription
  /// The parent store, kept alive by its children.
  private let parent: AnyObject?
  private let isRoot: Bool
  let registrar = ObservationRegistrar()
  /// `\.state`, made once: a key path literal of a generic class is instantiated by the
  /// runtime each time it is evaluated, which cost more than the rest of a `send`.
  let stateKeyPath: KeyPath<Store, State> = \.state
  var observationSubscription: StoreSubscription?
  /// The members observers have read (``StoreObservation``).
  let observation = StoreObservation<State>()
  /// The element id, for the scoped stores of `forEach` elements.
  var elementID: AnyHashable?

  /// Creates a root store.
  ///
  /// - Parameters:
  ///   - initialState: The state to start from.
  ///   - name: The store id; by default `TypeName#N`, N counting stores of that type in the
  ///     session from 1 (TypeName is the reducer's type without its module).
  ///   - bus: Where events go. Tests pass a private ``EventBus`` and attach a recorder.
  ///   - cancellation: `.isolated` (default): cancel ids are this store's own (each scoped
  ///     child identity has its own too). `.processWide`: shared by every store of `bus`
  ///     created with it, keyed by id alone (on ``EventBus/shared``: the whole program).
  ///   - clock: The clock effects see as `send.clock`, and debounce waits on; it is the
  ///     `clock` dependency too. By default, the current `clock` dependency
  ///     (`ContinuousClock` in a running program). Pass a ``TestClock`` in tests: the store's
  ///     effects then run one at a time on the main thread, in a defined order.
  ///   - reducer: The feature's reducer.
  ///   - prepareDependencies: Changes to the dependencies (``DependencyValues``) the
  ///     reducer and its effects see, made on top of the current ones
  ///     (``withDependencies(_:operation:)``). Scoped child stores share them.
  public init<R: Reducer>(
    initialState: State,
    name: String? = nil,
    bus: EventBus = .shared,
    cancellation: CancellationScope = .isolated,
    clock: (any Clock<Duration>)? = nil,
    @ReducerBuilder<State, Action> reducer: () -> R,
    withDependencies prepareDependencies: ((inout DependencyValues) -> Void)? = nil
  ) where R.State == State, R.Action == Action {
    let ambient = DependencyValues.current
    var dependencies: DependencyValues?
    if clock != nil || prepareDependencies != nil || !ambient.isPlainLive {
      var values = ambient.forNewStore()
      if let clock { values.clock = clock }
      prepareDependencies?(&values)
      dependencies = values
    }
    let chosenClock: any Clock<Duration> = dependencies?.clock ?? ContinuousClock()
    let storeClock = AnyClock(chosenClock)
    let runtime = StoreRuntime(
      initialState: initialState, reducer: reducer(), name: name, bus: bus, cancellation: cancellation,
      clock: storeClock, dependencies: dependencies)
    self.runtime = runtime
    self.node = runtime.root
    self.readState = { runtime.state }
    self.sendFrom = { action, entry, label, source in runtime.send(action, entry: entry, label: label, source: source) }
    self.subscribeToChanges = { wantsPrevious, notify in
      let id = runtime.subscribe(wantsPrevious: wantsPrevious, notify)
      return StoreSubscription { [weak runtime] in runtime?.unsubscribe(id) }
    }
    self.parent = nil
    self.isRoot = true
    node.scopedStore = self
  }

  /// A scoped store on `node`, reading and sending through `parent`.
  init<ParentState, ParentAction>(
    parent: Store<ParentState, ParentAction>,
    node: StoreNode,
    state: @escaping @MainActor () -> State,
    extract: @escaping (ParentState) -> State?,
    embed: @escaping (Action) -> ParentAction
  ) {
    self.runtime = parent.runtime
    self.node = node
    self.readState = { node.isAlive ? state() : node.finalState as? State ?? state() }
    let bus = parent.runtime.bus
    self.sendFrom = { action, entry, label, source in
      parent.sendFrom(embed(action), entry, label ?? (bus.isActive ? action : nil), source)
    }
    self.subscribeToChanges = { wantsPrevious, notify in
      parent.subscribeToChanges(wantsPrevious) { old, new, context in
        guard node.isAlive, let new = extract(new) else { return }
        let old = old.flatMap(extract)
        if wantsPrevious && old == nil { return }
        notify(old, new, context)
      }
    }
    self.parent = parent
    self.isRoot = false
  }

  // The root store ends when released. `isolated deinit` runs on the main actor: inline when
  // the last reference goes away there (the usual case), so `store = nil` reports
  // `store.destroyed` at once; otherwise as soon as the main actor is free.
  #if canImport(Darwin)
  // `isolated deinit` needs a newer OS than the package's minimum; on Darwin the main actor
  // is the main thread, so this is the same.
  deinit {
    guard isRoot else { return }
    let runtime = self.runtime
    if Thread.isMainThread {
      MainActor.assumeIsolated { runtime.invalidate() }
    } else {
      Task { @MainActor in runtime.invalidate() }
    }
  }
  #else
  isolated deinit {
    guard isRoot else { return }
    runtime.invalidate()
  }
  #endif

  // MARK: State

  /// The current state. Observable: SwiftUI views and `withObservationTracking` that read it
  /// update when it changes (compared with `==` when `State` is `Equatable`, else after every
  /// action); those that read a member (`store.count`) update when that member changes.
  public var state: State {
    let state = readState()
    observeRead(\State.self, in: state)
    return state
  }

  /// Reads a value of the state: `store.count` for `store.state.count`. Observable on its own.
  public subscript<Value>(dynamicMember keyPath: KeyPath<State, Value>) -> Value {
    let state = readState()
    observeRead(keyPath, in: state)
    return state[keyPath: keyPath]
  }

  /// Calls `body` with the current state.
  public func withState<R>(_ body: (State) throws -> R) rethrows -> R {
    try body(state)
  }

  /// The store id: `PageFeature#2`, `AppFeature#1/pages[id: 2]`.
  public var storeID: String { node.id }

  /// The identity of this store (unique in the session, `i4`). A scoped child's identity ends
  /// when its optional state becomes nil or its element is removed; a new one begins when it
  /// comes back.
  public var identity: String { node.identity }

  /// Whether this store can still receive actions: `false` after ``invalidate()`` or release
  /// of the root, and for a scoped child whose identity has ended.
  public var isAlive: Bool { node.isAlive && !runtime.isInvalidated }

  // MARK: Sending

  /// Sends an action: the reducer runs now, synchronously, and the effects it returns start.
  ///
  /// ```swift
  /// await store.send(.refreshTapped).finish()   // wait for the effects it started
  /// ```
  ///
  /// An action sent to a store whose identity has ended (or that was invalidated) is ignored
  /// and reported as a `warning` event (`sendToEndedStore`).
  ///
  /// - Parameters:
  ///   - action: The action.
  ///   - fileID, filePath, line: Where the send is, for the `source` of its `action.received`
  ///     (CONTRACT §9). Leave them to their defaults.
  @discardableResult
  public func send(
    _ action: Action, fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line
  ) -> StoreTask {
    StoreTask(collector: sendFrom(action, node, nil, CodeLocation(fileID: fileID, filePath: filePath, line: line)))
  }

  /// Calls `observer` after every action the root store processes, with whether the program
  /// sent it (else an effect did) and the state before and after: LoupeTesting's `TestStore`.
  package func _observeActions(_ observer: @escaping @MainActor (Action, Bool, State, State) -> Void) {
    guard let runtime = runtime as? StoreRuntime<State, Action> else { return }
    runtime.actionObserver = observer
  }

  /// The dependencies the store's reducer and the effects it starts from now on see
  /// (LoupeTesting's `TestStore.dependencies`, changeable between the steps of a test).
  package var _dependencies: DependencyValues {
    get { runtime.dependencies ?? DependencyValues.current }
    set { runtime.dependencies = newValue }
  }

  /// Ends a root store now instead of at release: cancels its effects (reason
  /// `storeDestroyed`) and reports `store.destroyed` for it and its children. No-op on scoped
  /// stores and on a store already ended.
  public func invalidate() {
    guard isRoot else { return }
    runtime.invalidate()
  }
}

extension Store: Observable {}

/// The effects started by one ``Store/send(_:)``.
///
/// ```swift
/// let task = store.send(.startTapped)
/// task.cancel()            // cancel them (reason `cancel`, `by` null)
/// await task.finish()      // wait until they have all ended
/// ```
@MainActor
public struct StoreTask: Sendable {
  let collector: EffectCollector

  /// Waits until every effect the send started (including later parts of a `concatenate`)
  /// has ended — completed, failed, or cancelled and returned — and, transitively, every
  /// effect started by the actions those effects sent (an effect sends `.loaded`, whose
  /// reducer returns another `.run`: `finish()` waits for that one too, as TCA's does).
  public func finish() async {
    await collector.finish()
  }

  /// Cancels the effects the send started that are still running, and those started by the
  /// actions they sent.
  public func cancel() {
    collector.cancelAll()
  }

  /// Whether ``cancel()`` was called.
  public var isCancelled: Bool { collector.isCancelled }

  /// Whether every effect the send started, and every effect of the actions they sent, has
  /// ended.
  public var hasFinished: Bool { collector.hasFinished }
}
