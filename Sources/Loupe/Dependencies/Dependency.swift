/// Reads a dependency of the store running this code: in a reducer, or in an effect it
/// started (which keeps its store's dependencies).
///
/// ```swift
/// struct Feature: Reducer {
///   @Dependency(\.uuid) var uuid
///   @Dependency(\.clock) var clock
///   …
///   case .add: state.items.append(Item(id: uuid()))
///   case .start:
///     return .run { send in
///       for await _ in clock.timer(interval: .seconds(1)) { await send(.tick) }
///     }
/// }
/// ```
///
/// The value is read when used, from ``DependencyValues/current`` (no macros: a task-local
/// that the store sets around its reducer and its effects).
@propertyWrapper
public struct Dependency<Value>: Sendable {
  private let keyPath: KeyPath<DependencyValues, Value> & Sendable

  public init(_ keyPath: KeyPath<DependencyValues, Value> & Sendable) {
    self.keyPath = keyPath
  }

  public var wrappedValue: Value {
    DependencyValues.current[keyPath: keyPath]
  }
}
