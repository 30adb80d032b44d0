/// Builds a reducer from a list of reducers that run in order, as `body` does.
///
/// Supports `if`, `if`/`else`, `switch` and `for` over reducers, like SwiftUI's view builder:
///
/// ```swift
/// var body: some Reducer<State, Action> {
///   Reduce { state, action in … }
///   if isLoggingEnabled { LoggingReducer() }
///   Scope(state: \.settings, action: Action.settings) { SettingsFeature() }
/// }
/// ```
@resultBuilder
public enum ReducerBuilder<State, Action> {
  public static func buildExpression<R: Reducer>(_ reducer: R) -> R where R.State == State, R.Action == Action {
    reducer
  }

  public static func buildBlock() -> EmptyReducer<State, Action> { EmptyReducer() }

  public static func buildPartialBlock<R: Reducer>(first: R) -> R where R.State == State, R.Action == Action {
    first
  }

  public static func buildPartialBlock<R0: Reducer, R1: Reducer>(accumulated: R0, next: R1) -> _SequenceReducer<R0, R1>
  where R0.State == State, R0.Action == Action, R1.State == State, R1.Action == Action {
    _SequenceReducer(first: accumulated, second: next)
  }

  public static func buildOptional<R: Reducer>(_ reducer: R?) -> _OptionalReducer<R> where R.State == State, R.Action == Action {
    _OptionalReducer(wrapped: reducer)
  }

  public static func buildEither<First: Reducer, Second: Reducer>(first reducer: First) -> _ConditionalReducer<First, Second>
  where First.State == State, First.Action == Action, Second.State == State, Second.Action == Action {
    .first(reducer)
  }

  public static func buildEither<First: Reducer, Second: Reducer>(second reducer: Second) -> _ConditionalReducer<First, Second>
  where First.State == State, First.Action == Action, Second.State == State, Second.Action == Action {
    .second(reducer)
  }

  public static func buildArray<R: Reducer>(_ reducers: [R]) -> _ArrayReducer<R> where R.State == State, R.Action == Action {
    _ArrayReducer(reducers: reducers)
  }

  public static func buildLimitedAvailability<R: Reducer>(_ reducer: R) -> _OptionalReducer<R> where R.State == State, R.Action == Action {
    _OptionalReducer(wrapped: reducer)
  }
}

/// Two reducers run one after the other; their effects are merged. Made by ``ReducerBuilder``.
public struct _SequenceReducer<R0: Reducer, R1: Reducer>: Reducer where R0.State == R1.State, R0.Action == R1.Action {
  let first: R0
  let second: R1

  public func reduce(into state: inout R0.State, action: R0.Action) -> Effect<R0.Action> {
    let a = first.reduce(into: &state, action: action)
    let b = second.reduce(into: &state, action: action)
    return a.merge(with: b)
  }
}

/// A reducer that may be absent (`if` without `else` in a builder).
public struct _OptionalReducer<Wrapped: Reducer>: Reducer {
  let wrapped: Wrapped?

  public func reduce(into state: inout Wrapped.State, action: Wrapped.Action) -> Effect<Wrapped.Action> {
    wrapped?.reduce(into: &state, action: action) ?? .none
  }
}

/// One of two reducers (`if`/`else`, `switch` in a builder).
public enum _ConditionalReducer<First: Reducer, Second: Reducer>: Reducer
where First.State == Second.State, First.Action == Second.Action {
  case first(First)
  case second(Second)

  public func reduce(into state: inout First.State, action: First.Action) -> Effect<First.Action> {
    switch self {
    case .first(let reducer): reducer.reduce(into: &state, action: action)
    case .second(let reducer): reducer.reduce(into: &state, action: action)
    }
  }
}

/// Reducers from a `for` loop in a builder, run in order.
public struct _ArrayReducer<Element: Reducer>: Reducer {
  let reducers: [Element]

  public func reduce(into state: inout Element.State, action: Element.Action) -> Effect<Element.Action> {
    var effects: [Effect<Element.Action>] = []
    for reducer in reducers { effects.append(reducer.reduce(into: &state, action: action)) }
    return .merge(effects)
  }
}

extension _SequenceReducer: ChildStoreDeclaring {
  func declareChildren(of state: R0.State, to walker: ChildWalker) {
    first.walkChildren(of: state, walker: walker)
    second.walkChildren(of: state, walker: walker)
  }
}

extension _OptionalReducer: ChildStoreDeclaring {
  func declareChildren(of state: Wrapped.State, to walker: ChildWalker) {
    wrapped?.walkChildren(of: state, walker: walker)
  }
}

extension _ConditionalReducer: ChildStoreDeclaring {
  func declareChildren(of state: First.State, to walker: ChildWalker) {
    switch self {
    case .first(let reducer): reducer.walkChildren(of: state, walker: walker)
    case .second(let reducer): reducer.walkChildren(of: state, walker: walker)
    }
  }
}

extension _ArrayReducer: ChildStoreDeclaring {
  func declareChildren(of state: Element.State, to walker: ChildWalker) {
    for reducer in reducers { reducer.walkChildren(of: state, walker: walker) }
  }
}

extension _SequenceReducer: BuiltInReducer {}
extension _OptionalReducer: BuiltInReducer {}
extension _ConditionalReducer: BuiltInReducer {}
extension _ArrayReducer: BuiltInReducer {}
