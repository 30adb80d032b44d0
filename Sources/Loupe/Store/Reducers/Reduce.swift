/// A reducer made from a closure: the building block of most features.
///
/// ```swift
/// Reduce { state, action in
///   switch action {
///   case .incrementTapped:
///     state.count += 1
///     return .none
///   case .startTimerTapped:
///     return .run { send in
///       for await _ in send.clock.timer(interval: .seconds(1)) { await send(.timerTicked) }
///     }
///     .cancellable(id: CancelID.timer, cancelInFlight: true)
///   case .timerTicked:
///     state.count += 1
///     return .none
///   }
/// }
/// ```
public struct Reduce<State, Action>: Reducer {
  @usableFromInline let reduce: (inout State, Action) -> Effect<Action>
  let wrapped: (any Reducer<State, Action>)?

  /// A reducer that runs `reduce`.
  public init(_ reduce: @escaping (_ state: inout State, _ action: Action) -> Effect<Action>) {
    self.reduce = reduce
    self.wrapped = nil
  }

  /// Wraps another reducer (type erasure that keeps its scoped children visible to the store).
  public init<R: Reducer>(_ reducer: R) where R.State == State, R.Action == Action {
    self.reduce = { reducer.reduce(into: &$0, action: $1) }
    self.wrapped = reducer
  }

  @inlinable
  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    reduce(&state, action)
  }
}

extension Reduce: ChildStoreDeclaring {
  func declareChildren(of state: State, to walker: ChildWalker) {
    wrapped?.walkChildren(of: state, walker: walker)
  }
}

/// A reducer that does nothing.
public struct EmptyReducer<State, Action>: Reducer {
  public init() {}
  public func reduce(into state: inout State, action: Action) -> Effect<Action> { .none }
}

/// Runs the reducers it is built from in order and merges their effects.
///
/// ```swift
/// CombineReducers {
///   Scope(state: \.profile, action: Action.profile) { ProfileFeature() }
///   Reduce { state, action in … }
/// }
/// ```
public struct CombineReducers<State, Action, Reducers: Reducer>: Reducer
where Reducers.State == State, Reducers.Action == Action {
  let reducers: Reducers

  public init(@ReducerBuilder<State, Action> _ build: () -> Reducers) {
    reducers = build()
  }

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    reducers.reduce(into: &state, action: action)
  }
}

extension CombineReducers: ChildStoreDeclaring {
  func declareChildren(of state: State, to walker: ChildWalker) {
    reducers.walkChildren(of: state, walker: walker)
  }
}

extension Reduce: BuiltInReducer {}
extension EmptyReducer: BuiltInReducer {}
extension CombineReducers: BuiltInReducer {}
