import Loupe

/// Seed 003's guessing game: a counter to guess a secret number, a stopwatch, the results of
/// the rounds played, and a results page to review and delete them.
///
/// - The counter and the stopwatch are child features, composed with `Scope`.
/// - The results page is navigation driven by state: `resultList` is non-nil while the page
///   is shown (seed 003's `resultListState`), composed with `ifLet`. It starts as a copy of
///   `results` and is edited there; each time it is shown its store begins a new identity
///   (`identity.changed` reason `presented`), and going back ends it (`dismissed`).
/// - Going back from a page with changes asks first, with an alert: saving takes a moment
///   (seed 003 simulates the request with a delay on the injected clock) and then copies the
///   page's results back; discarding drops them.
///
/// What to look for in a trace: `GameFeature#1/resultList` gets a new identity each time it
/// is shown, and its `state.changed` events name the deleted rows by id
/// (`-results[id: 2]`); after saving, the parent's `results.results[id: 2]` goes too.
struct GameFeature: Reducer {
  struct State: Equatable, Codable {
    var counter = CounterFeature.State()
    var timer = GameTimerFeature.State()
    /// The saved results.
    var results = GameResultListFeature.State()
    /// The stopwatch's reading when the current round began.
    var lastTimestamp = 0.0
    /// The results page, while it is shown.
    var resultList: GameResultListFeature.State?
    /// The "save changes?" alert, while it is shown.
    var alert: SaveChangesAlert?
    var isSavingResults = false

    init(secrets: Secrets) {
      counter.secret = secrets.secret(counter.id)
    }
  }

  /// The alert confirming changes made on the results page (TCA's `AlertState`, reduced to
  /// what this game shows).
  struct SaveChangesAlert: Equatable, Codable {
    var title = "Save changes?"
    var message: String
  }

  enum Action: Equatable, Codable {
    case counter(CounterFeature.Action)
    case timer(GameTimerFeature.Action)
    case resultList(GameResultListFeature.Action)
    /// The navigation link's binding: `true` when the results page is pushed, `false` when
    /// the user goes back.
    case setNavigation(isActive: Bool)
    case alert(AlertAction)
    case resultsSaved

    enum AlertAction: Equatable, Codable {
      case saveTapped
      case discardTapped
    }
  }

  let secrets: Secrets
  /// How long saving the results takes (a pretend request).
  var saveDelay: Duration = .seconds(1)
  /// How often the stopwatch ticks.
  var tick: Duration = .milliseconds(500)

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .counter(.playNextTapped):
        // Runs before the counter's own reducer moves on to the next round.
        let result = GameResult(
          id: state.counter.id, secret: state.counter.secret, guess: state.counter.count,
          timeSpent: state.timer.duration - state.lastTimestamp)
        state.results.results.append(result)
        state.lastTimestamp = state.timer.duration
        return .none

      case .setNavigation(isActive: true):
        state.resultList = state.results
        return .none

      case .setNavigation(isActive: false):
        guard let page = state.resultList, page != state.results else {
          state.resultList = nil
          return .none
        }
        let deleted = state.results.results.count - page.results.count
        state.alert = SaveChangesAlert(message: "\(deleted) result\(deleted == 1 ? "" : "s") deleted.")
        return .none

      case .alert(.saveTapped):
        state.alert = nil
        state.isSavingResults = true
        return .run { [saveDelay] send in
          try await send.clock.sleep(for: saveDelay)
          await send(.resultsSaved)
        }

      case .alert(.discardTapped):
        state.alert = nil
        state.resultList = nil
        return .none

      case .resultsSaved:
        state.isSavingResults = false
        if let page = state.resultList {
          state.results = page
        }
        state.resultList = nil
        return .none

      case .counter, .timer, .resultList:
        return .none
      }
    }
    .ifLet(\.resultList, action: Action.resultList) {
      GameResultListFeature()
    }
    Scope(state: \.counter, action: Action.counter) {
      CounterFeature(secrets: secrets)
    }
    Scope(state: \.timer, action: Action.timer) {
      GameTimerFeature(tick: tick)
    }
  }
}
