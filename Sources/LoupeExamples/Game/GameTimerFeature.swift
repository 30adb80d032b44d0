import Loupe

/// The game's stopwatch (seed 003's `TimerFeature`): counts the seconds played.
struct GameTimerFeature: Reducer {
  struct State: Equatable, Codable {
    var isRunning = false
    /// Seconds played, in steps of ``GameTimerFeature/tick``.
    var duration = 0.0
  }

  enum Action: Equatable, Codable {
    case start
    case stop
    case tick
  }

  enum CancelID { case timer }

  /// How often the stopwatch ticks.
  var tick: Duration = .milliseconds(500)

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .start:
        state.isRunning = true
        return .run { [tick] send in
          for await _ in send.clock.timer(interval: tick) {
            await send(.tick)
          }
        }
        .cancellable(id: CancelID.timer, cancelInFlight: true)
      case .stop:
        state.isRunning = false
        return .cancel(id: CancelID.timer)
      case .tick:
        let (seconds, attoseconds) = tick.components
        state.duration += Double(seconds) + Double(attoseconds) / 1e18
        return .none
      }
    }
  }
}
