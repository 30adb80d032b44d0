import Loupe

/// A small feature for the `send` benchmarks: a counter with a little more state, as in a
/// typical screen's feature. Every action changes one field.
struct CounterFeature: Reducer {
  struct State: Equatable {
    var count = 0
    var step = 1
    var title = "Counter"
    var isTimerRunning = false
    var fact: String?
  }

  enum Action {
    case incrementTapped
    case decrementTapped
    case toggleTimerTapped
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
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
