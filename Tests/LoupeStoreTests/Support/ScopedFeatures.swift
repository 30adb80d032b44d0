import Loupe

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

  var body: some Reducer<State, Action> {
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

  var body: some Reducer<State, Action> {
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

/// Seed 000's fix: one parent store, the pages as identified children.
struct PagesFeature: Reducer {
  struct State: Equatable {
    var pages: IdentifiedArrayOf<PageFeature.State> = []
    var current: Int?
  }
  enum Action: Equatable {
    case swiped(to: Int)
    case removePage(Int)
    case addPage(Int)
    case pages(IdentifiedAction<Int, PageFeature.Action>)
  }

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .swiped(let id):
        var effects: [Effect<Action>] = []
        if let current = state.current {
          effects.append(.send(.pages(.element(id: current, action: .selected(false)))))
        }
        state.current = id
        effects.append(.send(.pages(.element(id: id, action: .selected(true)))))
        effects.append(.send(.pages(.element(id: id, action: .onAppear))))
        return .concatenate(effects)
      case .removePage(let id):
        state.pages.remove(id: id)
        return .none
      case .addPage(let id):
        state.pages.append(PageFeature.State(id: id))
        return .none
      case .pages:
        return .none
      }
    }
    .forEach(\.pages, action: Action.pages) { PageFeature() }
  }
}

/// A parent with an always-present child, an optional identifiable child, and a nested one.
struct ParentFeature: Reducer {
  struct State: Equatable {
    var counter = Counter.State()
    var total = 0
    var detail: Detail.State?
  }
  enum Action: Equatable {
    case counter(Counter.Action)
    case detail(Detail.Action)
    case show(Int)
    case hide
  }

  var body: some Reducer<State, Action> {
    Scope(state: \.counter, action: Action.counter) { Counter() }
    Reduce { state, action in
      switch action {
      case .counter(.increment):
        state.total += 1
        return .none
      case .show(let id):
        state.detail = Detail.State(id: id)
        return .none
      case .hide:
        state.detail = nil
        return .none
      case .counter, .detail:
        return .none
      }
    }
    .ifLet(\.detail, action: Action.detail) { Detail() }
  }
}

/// An identifiable child with a nested `Scope` and a long-running effect.
struct Detail: Reducer {
  struct State: Equatable, Identifiable {
    let id: Int
    var note = ""
    var counter = Counter.State()
  }
  enum Action: Equatable {
    case edit(String)
    case watch
    case counter(Counter.Action)
  }

  var body: some Reducer<State, Action> {
    Scope(state: \.counter, action: Action.counter) { Counter() }
    Reduce { state, action in
      switch action {
      case .edit(let note):
        state.note = note
        return .none
      case .watch:
        return .run { _ in try await Task.sleep(for: .seconds(3600)) }
      case .counter:
        return .none
      }
    }
  }
}
