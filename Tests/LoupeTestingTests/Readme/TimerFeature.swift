import Loupe

struct TimerFeature: Reducer {
  struct State: Equatable {
    var ticks = 0
    var isRunning = false
  }
  enum Action: Equatable {
    case startTapped
    case stopTapped
    case tick
  }
  enum CancelID { case timer }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .startTapped:
        state.isRunning = true
        return .run { send in
          for await _ in send.clock.timer(interval: .seconds(1)) {
            await send(.tick)
          }
        }
        .cancellable(id: CancelID.timer, cancelInFlight: true)
      case .stopTapped:
        state.isRunning = false
        return .cancel(id: CancelID.timer)
      case .tick:
        state.ticks += 1
        return .none
      }
    }
  }
}
