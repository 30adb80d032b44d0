import LoupeCore

/// An action that sets one field of the state: what a SwiftUI binding to the store sends
/// (TCA's `BindingAction`).
///
/// ```swift
/// enum Action: BindableAction {
///   case binding(BindingAction<State>)
/// }
/// await store.send(.binding(.set(\.query, "Milk"))) { $0.query = "Milk" }
///
/// // In the reducer, after `BindingReducer()` has set the field:
/// case .binding(\.query): return .send(.search)
/// ```
///
/// Equal when it sets the same field to an equal value. Rendered in events and diffs as the
/// field and the value.
public struct BindingAction<Root>: @unchecked Sendable {
  // `@unchecked`: the key path is immutable and the value Sendable (checked by `set`).
  /// The field set.
  public let keyPath: PartialKeyPath<Root>
  /// The value it is set to.
  public let value: any Sendable
  let apply: @Sendable (inout Root) -> Void
  let isEqual: @Sendable (any Sendable) -> Bool

  /// Sets `keyPath` to `value`: `.binding(.set(\.query, "Milk"))`.
  public static func set<Value: Equatable & Sendable>(
    _ keyPath: WritableKeyPath<Root, Value> & Sendable, _ value: Value
  ) -> Self {
    Self(
      keyPath: keyPath, value: value,
      apply: { $0[keyPath: keyPath] = value },
      isEqual: { ($0 as? Value) == value })
  }

  /// Sets the field on `root`.
  public func set(_ root: inout Root) {
    apply(&root)
  }

  /// `case .binding(\.query):` matches an action that set `query`.
  public static func ~= <Value>(keyPath: WritableKeyPath<Root, Value>, action: Self) -> Bool {
    action.keyPath == keyPath
  }
}

extension BindingAction: Equatable {
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.keyPath == rhs.keyPath && lhs.isEqual(rhs.value)
  }
}

extension BindingAction: CustomLoupeRepresentable {
  public var customLoupeValue: Any {
    BindingSet(set: KeyPathNames.describe(keyPath), value: value)
  }
}

/// How a binding action renders: `{set: "query", value: "Milk"}`.
private struct BindingSet {
  let set: String
  let value: Any
}

/// An action with a case for bindings, `case binding(BindingAction<State>)`: what
/// ``BindingReducer`` applies and SwiftUI bindings to the store send (TCA's `BindableAction`).
public protocol BindableAction {
  /// The state the bindings set.
  associatedtype State
  /// The binding case (the enum's `case binding(BindingAction<State>)` is it).
  static func binding(_ action: BindingAction<State>) -> Self
  /// The binding action this is, if it is one.
  var binding: BindingAction<State>? { get }
}

extension BindableAction {
  public var binding: BindingAction<State>? {
    CasePath(Self.binding).extract(self)
  }
}

extension CasePath where Value: BindableAction {
  /// The binding case of a bindable action: `\.todos[id: id].binding.description`.
  public var binding: CasePath<Root, BindingAction<Value.State>> {
    let embed = self.embed
    let extract = self.extract
    return CasePath<Root, BindingAction<Value.State>>(
      embed: { embed(Value.binding($0)) }, extract: { extract($0)?.binding }, name: (_caseName ?? "") + ".binding")
  }
}

extension CasePath {
  /// The binding that sets one field: `\.binding.filter` (sent with a value:
  /// `store.send(\.binding.filter, .completed)`).
  public subscript<State, Field: Equatable & Sendable>(
    dynamicMember keyPath: WritableKeyPath<State, Field> & Sendable
  ) -> CasePath<Root, Field> where Value == BindingAction<State> {
    let embed = self.embed
    let extract = self.extract
    return CasePath<Root, Field>(
      embed: { embed(.set(keyPath, $0)) },
      extract: { root in
        guard let binding = extract(root), binding.keyPath == keyPath else { return nil }
        return binding.value as? Field
      },
      name: (_caseName ?? "") + "." + KeyPathNames.describe(keyPath))
  }
}
