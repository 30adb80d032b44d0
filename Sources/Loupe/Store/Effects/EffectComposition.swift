extension Effect {
  /// Runs all of `effects` at the same time.
  public static func merge(_ effects: Effect...) -> Self { merge(effects) }

  /// Runs all of `effects` at the same time.
  public static func merge(_ effects: [Effect]) -> Self {
    var parts: [Effect] = []
    for effect in effects {
      switch effect.operation {
      case .none: continue
      case .merge(let inner): parts.append(contentsOf: inner)
      default: parts.append(effect)
      }
    }
    switch parts.count {
    case 0: return .none
    case 1: return parts[0]
    default: return Self(.merge(parts))
    }
  }

  /// This effect and `other` at the same time.
  public func merge(with other: Effect) -> Self { .merge([self, other]) }

  /// Runs `effects` one after another: each starts when the previous one has ended.
  public static func concatenate(_ effects: Effect...) -> Self { concatenate(effects) }

  /// Runs `effects` one after another: each starts when the previous one has ended.
  public static func concatenate(_ effects: [Effect]) -> Self {
    let parts = effects.filter { !$0.isNone }
    switch parts.count {
    case 0: return .none
    case 1: return parts[0]
    default: return Self(.concatenate(parts))
    }
  }

  /// This effect, then `other` once it has ended.
  public func concatenate(with other: Effect) -> Self { .concatenate([self, other]) }

  /// Turns the actions this effect sends into another action type.
  public func map<T>(_ transform: @escaping (Action) -> T) -> Effect<T> {
    if isNone { return .none }
    return Effect<T>(.transform(MappedEffect(inner: self, transform: transform, owner: nil)))
  }
}

extension Effect {
  /// Makes this effect cancellable with `id`.
  ///
  /// Cancel ids belong to the store whose reducer returned the effect: `cancel(id:)` and
  /// `cancelInFlight` only reach effects that the same store (the same identity, for a
  /// scoped child) registered with an equal id. Four page stores that all use
  /// `CancelID.timer` never cancel each other's timers. Create the store with
  /// `cancellation: .processWide` to share one registry across the stores of its bus (TCA's
  /// behaviour).
  ///
  /// ```swift
  /// return .run { send in … }
  ///   .cancellable(id: CancelID.search, cancelInFlight: true)   // a new search drops the old one
  /// ```
  ///
  /// - Parameters:
  ///   - id: Any hashable, sendable value; an enum case is the usual choice.
  ///   - cancelInFlight: Cancel effects already running with this id before starting this one
  ///     (reported with reason `cancelInFlight`).
  ///   - fileID, filePath, line: Where it is written: the `by.source` of the cancellations
  ///     that `cancelInFlight` causes (the effect keeps the line that created it). Leave them
  ///     to their defaults.
  public func cancellable<ID: Hashable & Sendable>(
    id: ID, cancelInFlight: Bool = false,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line
  ) -> Self {
    if isNone && !cancelInFlight { return .none }
    return Self(.cancellable(
      CancelKey(id), cancelInFlight: cancelInFlight, self, CodeLocation(fileID: fileID, filePath: filePath, line: line)))
  }

  /// Cancels the running effects that this store registered with `id` (reason `cancel`).
  /// `fileID`, `filePath` and `line` become the cancellations' `by.source`.
  public static func cancel<ID: Hashable & Sendable>(
    id: ID, fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line
  ) -> Self {
    Self(.cancel(CancelKey(id), CodeLocation(fileID: fileID, filePath: filePath, line: line)))
  }

  /// Starts this effect after `duration` unless another effect with `id` replaces it first:
  /// each new debounced effect cancels the pending one (reason `cancelInFlight`).
  ///
  /// Waits on the store's clock, so a ``TestClock`` drives it in tests. `fileID`, `filePath`
  /// and `line` become the `by.source` of the cancellations it causes.
  public func debounce<ID: Hashable & Sendable>(
    id: ID, for duration: Duration,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line
  ) -> Self {
    Self(.debounce(CancelKey(id), duration, nil, self, CodeLocation(fileID: fileID, filePath: filePath, line: line)))
  }

  /// Like ``debounce(id:for:fileID:filePath:line:)``, waiting on `clock` instead of the store's clock.
  public func debounce<ID: Hashable & Sendable, C: Clock<Duration>>(
    id: ID, for duration: Duration, clock: C,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line
  ) -> Self {
    Self(.debounce(
      CancelKey(id), duration, AnyClock(clock), self, CodeLocation(fileID: fileID, filePath: filePath, line: line)))
  }
}

extension Effect {
  /// This effect with every start delayed by `duration` on `clock` (what debounce runs).
  /// Delayed effects keep the lines that created them; the wait before a composed effect is
  /// located at the `.debounce` (`source`).
  func delayed(by duration: Duration, on clock: AnyClock, source: CodeLocation) -> Self {
    switch operation {
    case .none:
      return .none
    case .send(let action, let sendSource):
      let box = UncheckedSendable(action)
      return Self(.run(RunOperation(priority: nil, operation: { send in
        try await clock.sleep(for: duration)
        await send(box.value)
      }, handler: nil, source: sendSource)))
    case .run(let run):
      return Self(.run(RunOperation(priority: run.priority, operation: { send in
        try await clock.sleep(for: duration)
        try await run.operation(send)
      }, handler: run.handler, source: run.source)))
    case .merge(let effects):
      return Self(.merge(effects.map { $0.delayed(by: duration, on: clock, source: source) }))
    case .cancellable(let key, let inFlight, let inner, let cancellableSource):
      return Self(.cancellable(key, cancelInFlight: inFlight, inner.delayed(by: duration, on: clock, source: source), cancellableSource))
    case .concatenate, .cancel, .debounce, .transform:
      let wait = Effect<Action>(.run(RunOperation(
        priority: nil, operation: { _ in try await clock.sleep(for: duration) }, handler: nil, source: source)))
      return .concatenate([wait, self])
    }
  }
}

/// A cancel id, type-erased. `base` was built from a `Hashable & Sendable` value.
struct CancelKey: Hashable, @unchecked Sendable {
  let base: AnyHashable
  init(_ id: some Hashable & Sendable) { base = AnyHashable(id) }

  /// How the id appears in events: `PageFeature.CancelID.timer`, `"search"`, `TimerID()`.
  var text: String { TypeNames.cancelIDText(base.base) }
}

/// Carries a value into an effect's task that only hands it back to the main actor (a
/// debounced `.send`): the value is never used concurrently, it only moves.
struct UncheckedSendable<Value>: @unchecked Sendable {
  let value: Value
  init(_ value: Value) { self.value = value }
}
