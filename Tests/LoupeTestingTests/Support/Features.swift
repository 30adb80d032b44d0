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

/// Seed 002's PlayButton: state that lives as long as the button is shown.
struct PlayButton: Reducer {
  struct State: Equatable {
    var isPlaying = false
  }
  enum Action: Equatable { case tapped }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.isPlaying.toggle()
    return .none
  }
}

/// Seed 002's ContentView: a toggle that shows and hides the play button.
struct ContentFeature: Reducer {
  struct State: Equatable {
    var showPlayButton = true
    var playButton: PlayButton.State? = PlayButton.State()
  }
  enum Action: Equatable {
    case toggleTapped
    case playButton(PlayButton.Action)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .toggleTapped:
        state.showPlayButton.toggle()
        state.playButton = state.showPlayButton ? PlayButton.State() : nil
        return .none
      case .playButton:
        return .none
      }
    }
    .ifLet(\.playButton, action: Action.playButton) { PlayButton() }
  }
}

/// A to-do list with a filter, for derived values.
struct TodosFeature: Reducer {
  struct Todo: Equatable, Identifiable {
    let id: Int
    var title: String
    var isDone = false
  }
  struct State: Equatable {
    var todos: IdentifiedArrayOf<Todo> = []
    var draft = ""
  }
  enum Action: Equatable {
    case add(String)
    case toggle(Int)
    case draftChanged(String)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .add(let title):
        state.todos.append(Todo(id: state.todos.count + 1, title: title))
      case .toggle(let id):
        state.todos[id: id]?.isDone.toggle()
      case .draftChanged(let draft):
        state.draft = draft
      }
      return .none
    }
  }
}
