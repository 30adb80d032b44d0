import Loupe

/// The guessing counter of seed 003: the player moves `count` up and down to find the secret,
/// then goes on to the next round.
///
/// The parent (``GameFeature``) records a result on ``Action/playNextTapped`` before this
/// reducer starts the next round — which is why the parent's `Reduce` comes before this
/// feature's `Scope` in `GameFeature.body`, as the seed points out.
struct CounterFeature: Reducer {
  struct State: Equatable, Identifiable, Codable {
    /// The round, 1 for the first.
    var id = 1
    var count = 0
    var secret = 0

    /// What the view shows next to the count.
    var hint: Hint {
      count < secret ? .tooLow : count > secret ? .tooHigh : .correct
    }
  }

  enum Hint: Equatable { case tooLow, tooHigh, correct }

  enum Action: Equatable, Codable {
    case incrementTapped
    case decrementTapped
    case playNextTapped
  }

  let secrets: Secrets

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .incrementTapped:
        state.count += 1
        return .none
      case .decrementTapped:
        state.count -= 1
        return .none
      case .playNextTapped:
        state.id += 1
        state.count = 0
        state.secret = secrets.secret(state.id)
        return .none
      }
    }
  }
}
