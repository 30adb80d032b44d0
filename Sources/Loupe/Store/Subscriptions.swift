import Foundation

/// A state change as a subscriber sees it: the state now, the state before, and helpers to act
/// only on what changed (Verge's `Changes`).
///
/// ```swift
/// let subscription = store.sink { changes in
///   changes.ifChanged(\.count) { count in label.text = "\(count)" }
///   changes.ifChanged(\.isLoading) { spinner.isHidden = !$0 }
/// }
/// ```
@dynamicMemberLookup
public struct Changes<State> {
  /// The state before the action; `nil` for the first call, made when subscribing.
  public let previous: State?
  /// The state after the action.
  public let current: State
  /// `seq` of the action that caused the change, when a sink is attached; `nil` otherwise and
  /// for the first call.
  public let cause: Int?

  public init(previous: State?, current: State, cause: Int? = nil) {
    self.previous = previous
    self.current = current
    self.cause = cause
  }

  public subscript<Value>(dynamicMember keyPath: KeyPath<State, Value>) -> Value {
    current[keyPath: keyPath]
  }

  /// Whether the value at `keyPath` differs from before (always `true` on the first call).
  public func hasChanged<Value: Equatable>(_ keyPath: KeyPath<State, Value>) -> Bool {
    guard let previous else { return true }
    return previous[keyPath: keyPath] != current[keyPath: keyPath]
  }

  /// Calls `body` with the new value when the value at `keyPath` changed.
  public func ifChanged<Value: Equatable>(_ keyPath: KeyPath<State, Value>, _ body: (Value) throws -> Void) rethrows {
    if hasChanged(keyPath) { try body(current[keyPath: keyPath]) }
  }

  /// Calls `body` with both new values when either changed.
  public func ifChanged<A: Equatable, B: Equatable>(
    _ a: KeyPath<State, A>, _ b: KeyPath<State, B>, _ body: (A, B) throws -> Void
  ) rethrows {
    if hasChanged(a) || hasChanged(b) { try body(current[keyPath: a], current[keyPath: b]) }
  }

  /// The new value at `keyPath` when it changed, else `nil`.
  public func takeIfChanged<Value: Equatable>(_ keyPath: KeyPath<State, Value>) -> Value? {
    hasChanged(keyPath) ? current[keyPath: keyPath] : nil
  }
}

extension Changes: Sendable where State: Sendable {}

/// Keeps a subscription alive; cancels it when released or on ``cancel()``.
@MainActor
public final class StoreSubscription: Hashable {
  private let onCancel: @MainActor @Sendable () -> Void

  init(_ onCancel: @escaping @MainActor @Sendable () -> Void) {
    self.onCancel = onCancel
  }

  #if canImport(Darwin)
  deinit {
    let onCancel = self.onCancel
    if Thread.isMainThread {
      MainActor.assumeIsolated { onCancel() }
    } else {
      Task { @MainActor in onCancel() }
    }
  }
  #else
  isolated deinit { onCancel() }
  #endif

  /// Stops the subscription.
  public func cancel() { onCancel() }

  /// Keeps the subscription alive as long as `set`.
  public func store(in set: inout Set<StoreSubscription>) { set.insert(self) }

  public nonisolated static func == (lhs: StoreSubscription, rhs: StoreSubscription) -> Bool { lhs === rhs }
  public nonisolated func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

extension Store {
  /// Calls `receive` now with the current state (`previous` nil), then after every action the
  /// store processes, with the state before and after. Keep the returned subscription.
  ///
  /// ```swift
  /// store.sink { $0.ifChanged(\.count) { label.text = "\($0)" } }.store(in: &subscriptions)
  /// ```
  public func sink(_ receive: @escaping @MainActor (Changes<State>) -> Void) -> StoreSubscription {
    receive(Changes(previous: nil, current: readState()))
    let node = self.node
    return subscribeToChanges(true) { old, new, context in
      receive(Changes(previous: old, current: new, cause: context.active ? context.cause(for: node) : nil))
    }
  }
}
