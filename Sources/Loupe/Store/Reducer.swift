/// A feature's logic: how an action changes the state, and which effects it starts.
///
/// Conform by implementing either ``reduce(into:action:)`` (a single function) or ``body``
/// (a composition of other reducers, built with ``ReducerBuilder``), as in TCA:
///
/// ```swift
/// struct CounterFeature: Reducer {
///   struct State: Equatable { var count = 0 }
///   enum Action { case increment, decrement }
///
///   var body: some Reducer<State, Action> {
///     Reduce { state, action in
///       switch action {
///       case .increment: state.count += 1
///       case .decrement: state.count -= 1
///       }
///       return .none
///     }
///   }
/// }
/// ```
///
/// Reducers run on the main actor, inside ``Store/send(_:)``. Keep them pure: read and write
/// `state`, and return an ``Effect`` for anything else (timers, requests, persistence).
///
/// Compose features with ``Scope``, ``Reducer/ifLet(_:action:then:)`` and
/// ``Reducer/forEach(_:action:element:)``. The store reads that composition to give every
/// child feature its own scoped store id (`AppFeature#1/detail`), identity and effect
/// cancellation scope, so put scope operators in `body`: a hand-written `reduce(into:action:)`
/// that calls another reducer's `reduce` hides that reducer's children from the store.
public protocol Reducer<State, Action> {
  /// The state the reducer works on.
  associatedtype State
  /// The actions it handles.
  associatedtype Action
  /// The type of ``body``: `Never` when the reducer implements ``reduce(into:action:)``.
  associatedtype Body

  /// Applies `action` to `state` and returns the effect to run next (``Effect/none`` if none).
  func reduce(into state: inout State, action: Action) -> Effect<Action>

  /// The reducer's logic as a composition of reducers, run in order.
  @ReducerBuilder<State, Action>
  var body: Body { get }
}

extension Reducer where Body == Never {
  /// Not called: a reducer that implements ``reduce(into:action:)`` has no body.
  public var body: Body {
    fatalError("\(Self.self) implements reduce(into:action:) and has no body.")
  }
}

extension Reducer where Body: Reducer, Body.State == State, Body.Action == Action {
  /// Runs ``body``.
  @inlinable
  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    body.reduce(into: &state, action: action)
  }
}

/// A reducer for a feature `R`, spelled the way TCA spells it: `ReducerOf<Self>`.
public typealias ReducerOf<R: Reducer> = Reducer<R.State, R.Action>
