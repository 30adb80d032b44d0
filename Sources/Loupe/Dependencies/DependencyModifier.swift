extension Reducer {
  /// Runs this reducer, and the effects it returns, with one dependency changed (TCA's
  /// `.dependency(\.x, value)`):
  ///
  /// ```swift
  /// Scope(state: \.child, action: \.child) {
  ///   ChildFeature().dependency(\.uuid, .incrementing)
  /// }
  /// ```
  ///
  /// The effects of child features it contains (scopes, `ifLet`, `forEach`) see it too.
  public func dependency<Value: Sendable>(
    _ keyPath: WritableKeyPath<DependencyValues, Value> & Sendable, _ value: Value
  ) -> _DependencyKeyWritingReducer<Self> {
    _DependencyKeyWritingReducer(base: self) { $0[keyPath: keyPath] = value }
  }
}

/// The reducer ``Reducer/dependency(_:_:)`` builds.
public struct _DependencyKeyWritingReducer<Base: Reducer>: Reducer {
  let base: Base
  let update: @Sendable (inout DependencyValues) -> Void

  public func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    withDependencies(update) { base.reduce(into: &state, action: action) }.withDependencies(update)
  }
}

extension _DependencyKeyWritingReducer: ChildStoreDeclaring {
  func declareChildren(of state: Base.State, to walker: ChildWalker) {
    base.walkChildren(of: state, walker: walker)
  }
}

extension _DependencyKeyWritingReducer: NamedAfterWrappedReducer {
  static var storeTypeName: String { TypeNames.storeType(of: Base.self) }
}

extension Effect {
  /// The effect with its `run` operations (and their error handlers) seeing the dependencies
  /// changed by `update`, on top of the store's.
  func withDependencies(_ update: @escaping @Sendable (inout DependencyValues) -> Void) -> Self {
    switch operation {
    case .none, .send, .cancel:
      return self
    case .transform(let transform):
      return Self(.transform(transform.withDependencies(update)))
    case .run(let run):
      let operation = run.operation
      let handler = run.handler
      return Self(.run(RunOperation(
        priority: run.priority,
        operation: { send in try await Loupe.withDependencies(update) { try await operation(send) } },
        handler: handler.map { handler in
          { error, send in await Loupe.withDependencies(update) { await handler(error, send) } }
        },
        source: run.source)))
    case .merge(let effects):
      return Self(.merge(effects.map { $0.withDependencies(update) }))
    case .concatenate(let effects):
      return Self(.concatenate(effects.map { $0.withDependencies(update) }))
    case .cancellable(let key, let cancelInFlight, let effect, let location):
      return Self(.cancellable(key, cancelInFlight: cancelInFlight, effect.withDependencies(update), location))
    case .debounce(let key, let duration, let clock, let effect, let location):
      return Self(.debounce(key, duration, clock, effect.withDependencies(update), location))
    }
  }
}
