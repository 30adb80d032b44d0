import Observation

/// A value computed from a store's state, recomputed only when the part of the state it
/// selects changes (Verge's `Derived`, reselect's memoized selectors).
///
/// ```swift
/// let visibleCount = store.derived("visibleCount", select: \.todos) { todos in
///   todos.filter { !$0.isDone }.count
/// }
/// visibleCount.value                                   // read (observable)
/// visibleCount.sink { $0.ifChanged(\.self) { badge.text = "\($0)" } }
/// let label = visibleCount.derived("label", select: \.self) { "\($0) left" }   // chained
/// ```
///
/// Every computation is reported as `derived.recomputed` with the store, the name, the action
/// that caused it (`cause`, `null` for the first computation), whether the output changed
/// (when `Value` is `Equatable`; otherwise always `true`) and how long it took. A memoized
/// derived value computes again only when its selected input changes; ``Store/map(_:_:)``
/// computes on every action, and its events show the wasted work as `outputChanged: false`.
///
/// Subscribers and observers are told only when the output changed.
@MainActor
public final class Derived<Value> {
  /// The name in `derived.recomputed` events.
  public let name: String
  /// The line that declared it: the `source` of its `derived.recomputed` events.
  private let location: CodeLocation
  private var current: Value
  private let storeID: String
  private let bus: EventBus
  private let isEqual: ((Value, Value) -> Bool)?
  /// The `seq` that caused a recomputation: the action received by the derived value's store.
  private let causeIn: @MainActor (ReductionContext) -> Int
  private var subscribers: [(id: Int, notify: @MainActor (Value?, Value, ReductionContext) -> Void)] = []
  private var nextSubscriberID = 0
  private var upstream: StoreSubscription?
  /// Keeps the source (a store or another derived value) alive.
  private var source: AnyObject?
  let registrar = ObservationRegistrar()
  /// `\.value`, made once (a generic class's key path literal is instantiated each time).
  private let valueKeyPath: KeyPath<Derived, Value> = \.value

  /// The current value. Observable.
  public var value: Value {
    registrar.access(self, keyPath: valueKeyPath)
    return current
  }

  private init(
    name: String, location: CodeLocation, initial: Value, storeID: String, bus: EventBus, isEqual: ((Value, Value) -> Bool)?,
    causeIn: @escaping @MainActor (ReductionContext) -> Int
  ) {
    self.name = name
    self.location = location
    self.causeIn = causeIn
    self.current = initial
    self.storeID = storeID
    self.bus = bus
    self.isEqual = isEqual
  }

  /// Builds a derived value over a source that reports (old, new) pairs of `Source`.
  static func make<Source, Input>(
    name: String, location: CodeLocation, storeID: String, bus: EventBus, causeIn: @escaping @MainActor (ReductionContext) -> Int,
    source: AnyObject, initialSource: Source,
    subscribe: (@escaping @MainActor (Source?, Source, ReductionContext) -> Void) -> StoreSubscription,
    select: @escaping (Source) -> Input, inputsEqual: ((Input, Input) -> Bool)?,
    compute: @escaping (Input) -> Value, isEqual: ((Value, Value) -> Bool)?
  ) -> Derived<Value> {
    var lastInput = select(initialSource)
    let start = bus.isActive ? ContinuousClock.now : nil
    let initial = compute(lastInput)
    let derived = Derived(
      name: name, location: location, initial: initial, storeID: storeID, bus: bus, isEqual: isEqual, causeIn: causeIn)
    derived.source = source
    if let start {
      derived.report(cause: nil, outputChanged: true, duration: ContinuousClock.now - start)
    }
    derived.upstream = subscribe { [weak derived] _, new, context in
      guard let derived else { return }
      let input = select(new)
      if let inputsEqual, inputsEqual(input, lastInput) { return }
      lastInput = input
      derived.recompute(context: context) { compute(input) }
    }
    return derived
  }

  private func recompute(context: ReductionContext, _ compute: () -> Value) {
    let active = context.active && bus.isActive
    let start = active ? ContinuousClock.now : nil
    let new = compute()
    let changed = isEqual.map { !$0(current, new) } ?? true
    if let start {
      report(cause: causeIn(context), outputChanged: changed, duration: ContinuousClock.now - start)
    }
    guard changed else { return }
    let old = current
    registrar.withMutation(of: self, keyPath: valueKeyPath) { current = new }
    for subscriber in subscribers { subscriber.notify(old, new, context) }
  }

  private func report(cause: Int?, outputChanged: Bool, duration: Duration) {
    let (seconds, attoseconds) = duration.components
    let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
    bus.emit(.derivedRecomputed(DerivedRecomputed(
      store: storeID, derived: name, cause: cause, outputChanged: outputChanged, durationNs: nanoseconds,
      source: bus.located(location))))
  }

  private func subscribe(_ notify: @escaping @MainActor (Value?, Value, ReductionContext) -> Void) -> StoreSubscription {
    nextSubscriberID += 1
    let id = nextSubscriberID
    subscribers.append((id, notify))
    return StoreSubscription { [weak self] in self?.subscribers.removeAll { $0.id == id } }
  }

  /// Calls `receive` now with the current value (`previous` nil), then each time the value
  /// changes. Keep the returned subscription.
  public func sink(_ receive: @escaping @MainActor (Changes<Value>) -> Void) -> StoreSubscription {
    receive(Changes(previous: nil, current: current))
    return subscribe { old, new, context in
      receive(Changes(previous: old, current: new, cause: context.active ? self.causeIn(context) : nil))
    }
  }

  // MARK: Chaining

  /// A derived value computed from this one, memoized on `select`'s output.
  public func derived<Input: Equatable, Output>(
    _ name: String, select: @escaping (Value) -> Input, compute: @escaping (Input) -> Output,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line
  ) -> Derived<Output> {
    chain(name, select: select, inputsEqual: { $0 == $1 }, compute: compute, isEqual: nil, source: CodeLocation(fileID: fileID, filePath: filePath, line: line))
  }

  /// A derived value computed from this one, memoized on `select`'s output.
  public func derived<Input: Equatable, Output: Equatable>(
    _ name: String, select: @escaping (Value) -> Input, compute: @escaping (Input) -> Output,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line
  ) -> Derived<Output> {
    chain(name, select: select, inputsEqual: { $0 == $1 }, compute: compute, isEqual: { $0 == $1 }, source: CodeLocation(fileID: fileID, filePath: filePath, line: line))
  }

  /// A derived value computed from this one each time it changes.
  public func map<Output>(
    _ name: String, _ transform: @escaping (Value) -> Output,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line
  ) -> Derived<Output> {
    chain(name, select: { $0 }, inputsEqual: nil, compute: transform, isEqual: nil, source: CodeLocation(fileID: fileID, filePath: filePath, line: line))
  }

  /// A derived value computed from this one each time it changes.
  public func map<Output: Equatable>(
    _ name: String, _ transform: @escaping (Value) -> Output,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line
  ) -> Derived<Output> {
    chain(name, select: { $0 }, inputsEqual: nil, compute: transform, isEqual: { $0 == $1 }, source: CodeLocation(fileID: fileID, filePath: filePath, line: line))
  }

  private func chain<Input, Output>(
    _ name: String, select: @escaping (Value) -> Input, inputsEqual: ((Input, Input) -> Bool)?,
    compute: @escaping (Input) -> Output, isEqual: ((Output, Output) -> Bool)?, source location: CodeLocation
  ) -> Derived<Output> {
    .make(
      name: name, location: location, storeID: storeID, bus: bus, causeIn: causeIn, source: self, initialSource: current,
      subscribe: subscribe, select: select, inputsEqual: inputsEqual, compute: compute, isEqual: isEqual)
  }
}

extension Derived: Observable {}

extension Store {
  /// A derived value memoized on `select`'s output: `compute` runs again only when the
  /// selected input changes (see ``Derived``).
  ///
  /// - Parameters:
  ///   - name: Its name in `derived.recomputed` events.
  ///   - select: Picks the input from the state; keep it cheap, it runs after every action.
  ///   - compute: Computes the value from the input.
  public func derived<Input: Equatable, Value>(
    _ name: String, select: @escaping (State) -> Input, compute: @escaping (Input) -> Value,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line
  ) -> Derived<Value> {
    makeDerived(name, select: select, inputsEqual: { $0 == $1 }, compute: compute, isEqual: nil, source: CodeLocation(fileID: fileID, filePath: filePath, line: line))
  }

  /// A derived value memoized on `select`'s output; subscribers hear only of changed outputs.
  public func derived<Input: Equatable, Value: Equatable>(
    _ name: String, select: @escaping (State) -> Input, compute: @escaping (Input) -> Value,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line
  ) -> Derived<Value> {
    makeDerived(name, select: select, inputsEqual: { $0 == $1 }, compute: compute, isEqual: { $0 == $1 }, source: CodeLocation(fileID: fileID, filePath: filePath, line: line))
  }

  /// A derived value that is the part of the state at `keyPath`.
  public func derived<Value: Equatable>(
    _ name: String, select keyPath: KeyPath<State, Value>,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line
  ) -> Derived<Value> {
    makeDerived(name, select: { $0[keyPath: keyPath] }, inputsEqual: { $0 == $1 }, compute: { $0 }, isEqual: { $0 == $1 }, source: CodeLocation(fileID: fileID, filePath: filePath, line: line))
  }

  /// A derived value that is NOT memoized: `transform` runs after every action. Prefer
  /// ``derived(_:select:compute:)``; `map` is for cheap transforms, and its
  /// `derived.recomputed` events (`outputChanged: false`) show when it should be memoized.
  public func map<Value>(
    _ name: String, _ transform: @escaping (State) -> Value,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line
  ) -> Derived<Value> {
    makeDerived(name, select: { $0 }, inputsEqual: nil, compute: transform, isEqual: nil, source: CodeLocation(fileID: fileID, filePath: filePath, line: line))
  }

  /// A derived value that is NOT memoized (see ``map(_:_:)-…``); subscribers hear only of
  /// changed outputs.
  public func map<Value: Equatable>(
    _ name: String, _ transform: @escaping (State) -> Value,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line
  ) -> Derived<Value> {
    makeDerived(name, select: { $0 }, inputsEqual: nil, compute: transform, isEqual: { $0 == $1 }, source: CodeLocation(fileID: fileID, filePath: filePath, line: line))
  }

  private func makeDerived<Input, Value>(
    _ name: String, select: @escaping (State) -> Input, inputsEqual: ((Input, Input) -> Bool)?,
    compute: @escaping (Input) -> Value, isEqual: ((Value, Value) -> Bool)?, source location: CodeLocation
  ) -> Derived<Value> {
    let node = self.node
    return .make(
      name: name, location: location, storeID: storeID, bus: runtime.bus, causeIn: { $0.cause(for: node) }, source: self, initialSource: readState(),
      subscribe: { subscribeToChanges(false, $0) }, select: select, inputsEqual: inputsEqual, compute: compute, isEqual: isEqual)
  }
}
