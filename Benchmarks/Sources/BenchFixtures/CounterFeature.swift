import Loupe

/// A small feature for the `send` benchmarks: a counter with a little more state, as in a
/// typical screen's feature. Every action changes one field.
public struct CounterFeature: Reducer {
  public struct State: Equatable {
    var count = 0
    var step = 1
    var title = "Counter"
    var isTimerRunning = false
    var fact: String?
    public init() {}
  }

  public enum Action: Sendable {
    case incrementTapped
    case decrementTapped
    case toggleTimerTapped
  }

  public init() {}

  /// The actions the benchmarks send, in a loop.
  public static let actions: [Action] = [.incrementTapped, .incrementTapped, .decrementTapped, .toggleTimerTapped]

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .incrementTapped:
      state.count += state.step
    case .decrementTapped:
      state.count -= state.step
    case .toggleTimerTapped:
      state.isTimerRunning.toggle()
    }
    return .none
  }
}
