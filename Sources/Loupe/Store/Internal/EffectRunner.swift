/// Where an effect runs and how its actions get back to the store.
struct EffectScope<Action> {
  /// The store identity whose reducer returned the effect.
  let owner: StoreNode
  /// `seq` of the owner's action that returned it.
  let cause: Int
  let active: Bool
  /// Cancel ids the effect is registered under (innermost last).
  var registrations: [CancelRegistration]
  let collector: EffectCollector
  /// Test clocks that track the effect besides the store's (a debounce's explicit clock).
  var testClocks: [TestClock] = []
  /// Sends an action of this level: the action, the effect sending it, and the store it is
  /// for with its label when an inner scope already knows them.
  let deliver: @MainActor (Action, EffectRecord, EffectEntry?) -> Void

  func adding(_ registry: CancellationRegistry, _ key: CancelKey) -> Self {
    var copy = self
    copy.registrations.append(CancelRegistration(registry: registry, key: key))
    return copy
  }

  /// The `by` of a cancellation this scope's effect asks for at `source`.
  func by(at source: CodeLocation, bus: EventBus) -> EffectCancelled.Source? {
    active ? EffectCancelled.Source(store: owner.id, cause: cause, source: bus.located(source)) : nil
  }
}

/// The store an effect's action is sent to, and the action at that store's level (for the
/// `action.received` label; `nil` when no sink is attached).
struct EffectEntry {
  let node: StoreNode
  let label: Any?
}

/// An effect of another action type, mapped into this one: `Effect.map`, and the child
/// effects that scope operators lift into the parent (which also change the owner).
protocol EffectTransform<Action> {
  associatedtype Action
  @MainActor func start(in runtime: RuntimeBase, scope: EffectScope<Action>) -> [EffectRecord]
  /// The same transform of its effects with the dependencies changed by `update`
  /// (`Reducer.dependency(_:_:)`).
  func withDependencies(_ update: @escaping @Sendable (inout DependencyValues) -> Void) -> Self
}

struct MappedEffect<Inner, Action>: EffectTransform {
  let inner: Effect<Inner>
  let transform: (Inner) -> Action
  /// Set by scope operators: the child store that owns `inner`.
  let owner: EffectOwner?

  func start(in runtime: RuntimeBase, scope: EffectScope<Action>) -> [EffectRecord] {
    let transform = self.transform
    let owner = self.owner
    let innerScope = EffectScope<Inner>(
      owner: owner?.node ?? scope.owner, cause: owner?.cause ?? scope.cause, active: scope.active,
      registrations: scope.registrations, collector: scope.collector, testClocks: scope.testClocks,
      deliver: { action, record, entry in
        let entry = entry ?? owner.map { EffectEntry(node: $0.node, label: runtime.bus.isActive ? action : nil) }
        scope.deliver(transform(action), record, entry)
      })
    return runtime.start(inner, in: innerScope)
  }

  func withDependencies(_ update: @escaping @Sendable (inout DependencyValues) -> Void) -> Self {
    MappedEffect(inner: inner.withDependencies(update), transform: transform, owner: owner)
  }
}

extension Effect {
  /// A child's effect lifted into the parent by a scope operator, owned by the child store.
  func scoped<Parent>(embed: @escaping (Action) -> Parent, owner: EffectOwner?) -> Effect<Parent> {
    if isNone { return .none }
    return Effect<Parent>(.transform(MappedEffect(inner: self, transform: embed, owner: owner)))
  }
}

extension RuntimeBase {
  /// Starts `effect` and returns the records it started now (later parts of a `concatenate`
  /// start when the earlier ones end).
  @discardableResult
  func start<A>(_ effect: Effect<A>, in scope: EffectScope<A>) -> [EffectRecord] {
    switch effect.operation {
    case .none:
      return []
    case .send(let action, let source):
      let record = makeRecord(.send, in: scope, source: source)
      if record.status == .running { scope.deliver(action, record, nil) }
      return [record]
    case .run(let run):
      let record = makeRecord(.run, in: scope, source: run.source)
      if record.status == .running { launch(run, record: record, scope: scope) }
      return [record]
    case .merge(let effects):
      return effects.flatMap { start($0, in: scope) }
    case .concatenate(let effects):
      return startConcatenation(effects[...], in: scope)
    case .cancellable(let key, let cancelInFlight, let inner, let source):
      let registry = scope.owner.cancellation
      if cancelInFlight { cancelEffects(in: registry, key: key, reason: .cancelInFlight, by: scope.by(at: source, bus: bus)) }
      return start(inner, in: scope.adding(registry, key))
    case .cancel(let key, let source):
      cancelEffects(in: scope.owner.cancellation, key: key, reason: .cancel, by: scope.by(at: source, bus: bus))
      return []
    case .debounce(let key, let duration, let debounceClock, let inner, let source):
      let delayed = inner.delayed(by: duration, on: debounceClock ?? clock, source: source)
      var scope = scope
      if let testClock = debounceClock?.base as? TestClock { scope.testClocks.append(testClock) }
      return start(Effect(.cancellable(key, cancelInFlight: true, delayed, source)), in: scope)
    case .transform(let transform):
      return transform.start(in: self, scope: scope)
    }
  }

  private func makeRecord<A>(_ kind: EffectRecord.Kind, in scope: EffectScope<A>, source: CodeLocation?) -> EffectRecord {
    let record = EffectRecord(
      id: kind == .driver ? -nextSerial() : bus.nextEffectID(), kind: kind, owner: scope.owner, cause: scope.cause,
      cancelKey: scope.registrations.last?.key, registrations: scope.registrations, source: source)
    for registration in record.registrations { registration.registry.add(record, for: registration.key) }
    scope.owner.effects[record.id] = record
    scope.collector.add(record)
    if kind != .driver, scope.active {
      bus.emit(.effectStarted(EffectStarted(
        store: scope.owner.id, effect: record.id, cause: scope.cause, cancelID: record.cancelIDText, source: bus.located(source))))
    }
    if !scope.owner.isAlive || isInvalidated {
      // Returned by a store whose identity ended in the same action: it never runs.
      cancel(record, reason: isInvalidated ? .storeDestroyed : .identityEnded, by: nil)
    }
    return record
  }

  private func launch<A>(_ run: RunOperation<A>, record: EffectRecord, scope: EffectScope<A>) {
    let send = Send<A>(clock: clock) { action in
      guard record.status == .running else { return }
      scope.deliver(action, record, nil)
    }
    let activity = EffectActivity(clocks: (testClock.map { [$0] } ?? []) + scope.testClocks)
    activity?.began()
    let dependencies = self.dependencies
    var run = run
    if let target = DismissTarget.current {
      // A presented child's effect: `@Dependency(\.dismiss)` dismisses it, sent by this effect.
      let dismiss = DismissEffect { if record.status == .running { target.deliver(record) } }
      let operation = run.operation
      run = RunOperation(
        priority: run.priority,
        operation: { send in try await DismissEffect.$current.withValue(dismiss) { try await operation(send) } },
        handler: run.handler, source: run.source)
    }
    let body: @MainActor @Sendable () async -> Void = { [weak self] in
      var failure: (any Error)?
      do {
        try await EffectActivity.$current.withValue(activity) {
          try await DependencyValues.$current.withValue(dependencies ?? DependencyValues.current) { try await run.operation(send) }
        }
      } catch {
        if record.status != .cancelled {
          failure = error
          if let handler = run.handler {
            await EffectActivity.$current.withValue(activity) {
              await DependencyValues.$current.withValue(dependencies ?? DependencyValues.current) { await handler(error, send) }
            }
          }
        }
      }
      self?.runEnded(record, failure: failure)
      record.markEnded()
      activity?.ended()
    }
    // On a test clock, effects run one at a time on the main thread (as TCA's tests do on the
    // main serial executor): in the order they were started and woken, so ties resolve in
    // sleep order every time.
    if let activity {
      record.task = Task(executorPreference: activity.executor, priority: run.priority, operation: body)
    } else {
      record.task = Task(priority: run.priority, operation: body)
    }
  }

  /// A `run` effect's task returned: report it finished unless it was cancelled.
  private func runEnded(_ record: EffectRecord, failure: (any Error)?) {
    guard record.status == .running else { return }
    record.status = .finished
    unregister(record)
    guard bus.isActive else { return }
    bus.emit(.effectFinished(EffectFinished(
      store: record.owner.id, effect: record.id, outcome: failure == nil ? .completed : .failed,
      error: failure.map { RedactedDescription.of($0, options: bus.renderOptions) })))
  }

  /// A `send` effect's action has been processed.
  func sendEffectProcessed(_ record: EffectRecord) {
    defer { record.markEnded() }
    guard record.status == .running else { return }
    record.status = .finished
    unregister(record)
    guard bus.isActive else { return }
    bus.emit(.effectFinished(EffectFinished(store: record.owner.id, effect: record.id, outcome: .completed)))
  }

  private func startConcatenation<A>(_ effects: ArraySlice<Effect<A>>, in scope: EffectScope<A>) -> [EffectRecord] {
    guard let first = effects.first else { return [] }
    let started = start(first, in: scope)
    let rest = effects.dropFirst()
    guard !rest.isEmpty else { return started }
    // The driver stands for the parts not started yet: cancelling it (by id, or when the
    // identity ends) stops them; it ends when the last part has ended.
    let driver = makeRecord(.driver, in: scope, source: nil)
    whenAllEnded(started) { [weak self] in
      guard let self, driver.status == .running else { return driver.markEnded() }
      let next = self.startConcatenation(rest, in: scope)
      self.whenAllEnded(next) {
        if driver.status == .running {
          driver.status = .finished
          self.unregister(driver)
        }
        driver.markEnded()
      }
    }
    return started + [driver]
  }

  /// Calls `body` on the main actor as soon as every record has ended, in the same turn as
  /// the last one ends (so a ``TestClock`` never sees a gap between two parts).
  private func whenAllEnded(_ records: [EffectRecord], _ body: @escaping @MainActor () -> Void) {
    let pending = records.filter { !$0.hasEnded }
    guard !pending.isEmpty else { return body() }
    var remaining = pending.count
    for record in pending {
      record.onEnd {
        remaining -= 1
        if remaining == 0 { body() }
      }
    }
  }

  // MARK: Cancellation

  func cancelEffects(in registry: CancellationRegistry, key: CancelKey, reason: EffectCancelled.Reason, by source: EffectCancelled.Source?) {
    for record in registry.records(for: key) { cancel(record, reason: reason, by: source) }
  }

  /// Cancels every effect of `nodes`, oldest first.
  func cancelEffects(of nodes: [StoreNode], reason: EffectCancelled.Reason, by source: EffectCancelled.Source?) {
    let records = nodes.flatMap { $0.effects.values }.sorted { $0.id < $1.id }
    for record in records { cancel(record, reason: reason, by: source) }
  }

  func cancel(_ record: EffectRecord, reason: EffectCancelled.Reason, by source: EffectCancelled.Source?) {
    guard record.status == .running else { return }
    record.status = .cancelled
    unregister(record)
    record.task?.cancel()
    // A run effect ends when its task returns; one cancelled before it was launched never will.
    if record.kind != .run || record.task == nil { record.markEnded() }
    guard record.kind != .driver else { return }
    // With a process-wide scope the owner may be another root store, but always one of this
    // session: the registry belongs to the bus.
    guard bus.isActive else { return }
    bus.emit(.effectCancelled(EffectCancelled(
      store: record.owner.id, effect: record.id, cancelID: record.cancelIDText, reason: reason, by: source)))
  }

  private func unregister(_ record: EffectRecord) {
    for registration in record.registrations { registration.registry.remove(record, for: registration.key) }
    record.owner.effects[record.id] = nil
  }
}

extension EventBus {
  /// `source` as events carry it: without its `path` when the session leaves paths out
  /// (`LOUPE_SOURCE_PATHS=off`), `nil` when it leaves sources out. Call only when a sink is
  /// attached.
  func located(_ source: CodeLocation?) -> CodeLocation? {
    guard let source, includesSourceLocations else { return nil }
    return includesSourcePaths ? source : source.withoutPath
  }
}
