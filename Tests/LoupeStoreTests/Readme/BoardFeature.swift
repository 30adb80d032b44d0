import Loupe

struct StopwatchFeature: Reducer {
  struct State: Equatable, Identifiable {
    let id: Int
    var seconds = 0
    var isRunning = false
  }

  enum Action: Equatable {
    case startTapped
    case stopTapped
    case ticked
  }

  enum CancelID { case tick }

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .startTapped:
        state.isRunning = true
        return .run { send in
          for await _ in send.clock.timer(interval: .seconds(1)) {
            await send(.ticked)
          }
        }
        .cancellable(id: CancelID.tick, cancelInFlight: true)

      case .stopTapped:
        state.isRunning = false
        return .cancel(id: CancelID.tick)

      case .ticked:
        state.seconds += 1
        return .none
      }
    }
  }
}

struct BoardFeature: Reducer {
  struct State: Equatable {
    var timers: IdentifiedArrayOf<StopwatchFeature.State> = []
  }

  enum Action: Equatable {
    case addTimer(id: Int)
    case removeTimer(id: Int)
    case timers(IdentifiedAction<Int, StopwatchFeature.Action>)
  }

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .addTimer(let id):
        state.timers.append(StopwatchFeature.State(id: id))
        return .none
      case .removeTimer(let id):
        state.timers.remove(id: id)
        return .none
      case .timers:
        return .none
      }
    }
    .forEach(\.timers, action: Action.timers) { StopwatchFeature() }
  }
}
