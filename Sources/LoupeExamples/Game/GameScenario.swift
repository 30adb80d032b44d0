import Foundation
import Loupe

/// `loupe-examples game`: seed 003, a player guessing numbers and reviewing the results.
///
/// The player plays a few quick rounds (moving the counter by its hint, giving up after a few
/// taps), opens the results page, deletes a row, goes back and saves the change; later plays
/// on, opens the page again, deletes two rows, goes back and discards. Then it starts over.
///
/// What to look for: each visit to the results page is a new identity of
/// `GameFeature#1/resultList` (`presented`, then `dismissed`); deletions appear as
/// `-results[id: N]` on the page's store and, once saved, as `-results.results[id: N]` on
/// the game's.
@MainActor
final class GameScenario: Scenario {
  typealias GameStore = Store<GameFeature.State, GameFeature.Action>

  let store: GameStore
  /// The pause between taps while playing.
  let tap: Duration
  /// The pause between steps on the results page.
  let browse: Duration
  private let saveDelay: Duration
  /// Taps in the current round.
  private var tapsThisRound = 0

  init(
    secrets: Secrets = .seeded(3), tap: Duration = .milliseconds(250), browse: Duration = .milliseconds(500),
    saveDelay: Duration = .seconds(1), tick: Duration = .milliseconds(500), bus: EventBus = .shared, clock: AnyClock
  ) {
    store = Store(initialState: GameFeature.State(secrets: secrets), bus: bus, clock: clock) {
      GameFeature(secrets: secrets, saveDelay: saveDelay, tick: tick)
    }
    self.tap = tap
    self.browse = browse
    self.saveDelay = saveDelay
  }

  func start() -> String? {
    store.send(.timer(.start))
    return "round 1 begins, the stopwatch runs"
  }

  var beats: [Beat] {
    let firstVisit: [Beat] = [
      Beat(after: browse) { self.openResults() },
      Beat(after: browse) { self.deleteRows(at: [0]) },
      Beat(after: browse) { self.goBack() },
      Beat(after: browse) { self.answerAlert(save: true) },
    ]
    let secondVisit: [Beat] = [
      Beat(after: browse) { self.openResults() },
      Beat(after: browse) { self.deleteRows(at: [0, 1]) },
      Beat(after: browse) { self.goBack() },
      Beat(after: browse) { self.answerAlert(save: false) },
    ]
    let playing = Array(repeating: Beat(after: tap) { self.playTap() }, count: 6)
    // The first taps after saving wait for the save to finish.
    let afterSave = [Beat(after: saveDelay + tap) { self.playTap() }] + playing.dropFirst()
    return playing + firstVisit + afterSave + secondVisit
  }

  func finish() {
    store.send(.timer(.stop))
    store.invalidate()
  }

  // MARK: The player

  /// One tap on the counter: towards the secret, or "next" when it is found or after three
  /// taps (giving up).
  private func playTap() -> String? {
    let counter = store.counter
    if counter.hint == .correct || tapsThisRound >= 3 {
      tapsThisRound = 0
      let verdict = counter.hint == .correct ? "✓" : "✗ (secret \(counter.secret))"
      store.send(.counter(.playNextTapped))
      return "round \(counter.id): guessed \(counter.count) \(verdict), next round"
    }
    tapsThisRound += 1
    store.send(.counter(counter.hint == .tooLow ? .incrementTapped : .decrementTapped))
    return "round \(counter.id): \(store.counter.count)"
  }

  private func openResults() -> String? {
    store.send(.setNavigation(isActive: true))
    let rows = store.resultList?.results.map { "\($0.id)\($0.isCorrect ? "✓" : "✗")" } ?? []
    return "results page: \(rows.isEmpty ? "empty" : rows.joined(separator: " "))"
  }

  private func deleteRows(at offsets: IndexSet) -> String? {
    guard let page = store.resultList else { return nil }
    let offsets = offsets.filteredIndexSet { $0 < page.results.count }
    guard !offsets.isEmpty else { return "nothing to delete" }
    let ids = offsets.map { page.results.ids[$0] }
    store.send(.resultList(.rowsDeleted(offsets)))
    return "deleted round\(ids.count == 1 ? "" : "s") \(ids.map(String.init).joined(separator: ", "))"
  }

  private func goBack() -> String? {
    store.send(.setNavigation(isActive: false))
    if let alert = store.alert { return "back: \"\(alert.title)\" \(alert.message)" }
    return "back"
  }

  private func answerAlert(save: Bool) -> String? {
    guard store.alert != nil else { return nil }
    store.send(.alert(save ? .saveTapped : .discardTapped))
    return save ? "save (saving…)" : "discard"
  }
}
