/// Captures the events of the stores in a test: no environment variable, no server.
///
/// The recorder owns a private ``EventBus``; stores created with it (``store(initialState:name:cancellation:clock:reducer:)``,
/// or `Store(…, bus: recorder.bus)`) report there and nowhere else, so store ids
/// (`TimerFeature#1`), effect ids and `seq` numbers start afresh in every test and the
/// stream is the same on every run.
///
/// ```swift
/// let recorder = DiagnosticRecorder()
/// let clock = TestClock()
/// let store = recorder.store(initialState: TimerFeature.State(), clock: clock) { TimerFeature() }
///
/// store.send(.startTapped)
/// await clock.advance(by: .seconds(1))
/// store.send(.stopTapped)
///
/// recorder.expect([
///   .identityChanged("TimerFeature#1", reason: .created),
///   .storeCreated("TimerFeature#1"),
///   .action("TimerFeature.Action.startTapped"),
///   …
/// ])
/// recorder.assertNoEffectLeftRunning()
/// ```
///
/// Events arrive synchronously as the store emits them, from any thread; reading is
/// thread-safe. To read the events of effects, await them first (`StoreTask.finish()`,
/// `TestClock.advance(by:)`, `TestClock.waitUntilEffectsSettle()`).
public final class DiagnosticRecorder: DiagnosticStream, @unchecked Sendable {
  // Unchecked as its superclass: only `let`s of Sendable types.

  /// The bus to create the stores under test with.
  public let bus: EventBus

  /// Creates a recorder on a new private bus.
  ///
  /// The stores of a private bus take no `state.snapshot` by default: a snapshot restates the
  /// whole state, which a test asserts through the changes, and the stream a test expects
  /// stays the same whatever the snapshot policy. Pass `snapshots: .default` to record them
  /// (to rebuild states at any `seq` with `StateRebuilder`, as the inspector's readers do).
  ///
  /// - Parameters:
  ///   - program: The program name in `session.started`.
  ///   - pid: The pid in `session.started`.
  ///   - snapshots: When the stores take `state.snapshot` events (``SnapshotPolicy``).
  public convenience init(program: String = "test", pid: Int = 1, snapshots: SnapshotPolicy = .off) {
    let bus = EventBus(program: program, pid: pid)
    bus.snapshotPolicy = snapshots
    self.init(attachingTo: bus)
  }

  /// Creates a recorder that captures what `bus` carries from now on. A bus's first sink
  /// receives `session.started`; a recorder attached later starts with the next event.
  public init(attachingTo bus: EventBus) {
    self.bus = bus
    super.init(events: [])
    bus.attach(storage)
  }

  deinit {
    bus.detach(storage)
  }

  /// Creates a root store that reports to this recorder: `Store(…, bus: recorder.bus)`.
  ///
  /// - Parameters:
  ///   - initialState: The state to start from.
  ///   - name: The store id (by default `TypeName#N`).
  ///   - cancellation: `.isolated` (default) or `.processWide` cancel ids.
  ///   - clock: The clock effects see; pass a ``TestClock`` to drive time. By default the
  ///     current `clock` dependency.
  ///   - reducer: The feature's reducer.
  ///   - prepareDependencies: Changes to the dependencies the store's reducer and effects see.
  @MainActor
  public func store<State, Action, R: Reducer>(
    initialState: State,
    name: String? = nil,
    cancellation: CancellationScope = .isolated,
    clock: (any Clock<Duration>)? = nil,
    @ReducerBuilder<State, Action> reducer: () -> R,
    withDependencies prepareDependencies: ((inout DependencyValues) -> Void)? = nil
  ) -> Store<State, Action> where R.State == State, R.Action == Action {
    Store(
      initialState: initialState, name: name, bus: bus, cancellation: cancellation, clock: clock, reducer: reducer,
      withDependencies: prepareDependencies)
  }
}
