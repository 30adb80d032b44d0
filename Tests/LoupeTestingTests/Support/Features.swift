import Loupe

/// Seed 000's page: a counter driven by a timer that restarts when the page appears.
struct PageFeature: Reducer {
  struct State: Equatable, Identifiable {
    let id: Int
    var count = 0
    var isSelected = false
  }
  enum Action: Equatable {
    case onAppear
    case selected(Bool)
    case timerTicked
  }
  enum CancelID { case timer }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .onAppear:
        return .run { send in
          for await _ in send.clock.timer(interval: .seconds(1)) {
            await send(.timerTicked)
          }
        }
        .cancellable(id: CancelID.timer, cancelInFlight: true)
      case .selected(let isSelected):
        state.isSelected = isSelected
        return .none
      case .timerTicked:
        state.count += 1
        return .none
      }
    }
  }
}

/// A player whose `onDisappear` forgets to cancel the progress timer it started: a leak.
struct LeakyPlayerFeature: Reducer {
  struct State: Equatable {
    var progress = 0
    var isVisible = false
  }
  enum Action: Equatable {
    case onAppear
    case onDisappear
    case progressTicked
  }
  enum CancelID { case progress }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .onAppear:
        state.isVisible = true
        return .run { send in
          for await _ in send.clock.timer(interval: .seconds(1)) {
            await send(.progressTicked)
          }
        }
        .cancellable(id: CancelID.progress)
      case .onDisappear:
        state.isVisible = false
        return .none  // the bug: should be .cancel(id: CancelID.progress)
      case .progressTicked:
        state.progress += 1
        return .none
      }
    }
  }
}
