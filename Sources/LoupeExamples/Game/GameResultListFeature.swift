import Foundation
import Loupe

/// One finished round of the guessing game.
struct GameResult: Equatable, Identifiable, Codable {
  /// The round.
  let id: Int
  let secret: Int
  let guess: Int
  /// Seconds the round took.
  let timeSpent: Double

  var isCorrect: Bool { secret == guess }
}

/// Seed 003's results page: the rounds played, in an `IdentifiedArray`, with swipe to delete.
///
/// Deleting rows removes them by id, so the `state.changed` event names exactly the rows that
/// went: `-results[id: 2]`, whatever their position.
struct GameResultListFeature: Reducer {
  struct State: Equatable, Codable {
    var results: IdentifiedArrayOf<GameResult> = []
  }

  enum Action: Equatable, Codable {
    /// The list's `onDelete`, with the offsets of the swiped rows.
    case rowsDeleted(IndexSet)
  }

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .rowsDeleted(let offsets):
        state.results.remove(atOffsets: offsets)
        return .none
      }
    }
  }
}
