import Foundation
import LoupeTesting
import Testing

@testable import LoupeExamples

/// Seed 003: the guessing game's results page is an optional child, a new identity each time
/// it is shown, and deleted rows are named by id — on the page, and on the game once saved.
/// Time is a `TestClock`: the stopwatch and the pretend save request run on it.
@MainActor
@Suite struct GameScenarioTests {
  let recorder = DiagnosticRecorder()
  let clock = TestClock()

  @Test func showingResultsDeletingARowAndSaving() async {
    let secrets = Secrets.seeded(3)
    let store = recorder.store(initialState: GameFeature.State(secrets: secrets), clock: clock) {
      GameFeature(secrets: secrets)
    }
    store.send(.timer(.start))
    await clock.advance(by: .seconds(1))
    store.send(.counter(.playNextTapped))  // round 1: guessed 0
    store.send(.counter(.incrementTapped))
    store.send(.counter(.playNextTapped))  // round 2: guessed 1
    #expect(store.results.results.ids == [1, 2])
    #expect(store.results.results.map(\.timeSpent) == [1, 0])
    recorder.skipEvents()

    // Showing the page presents a child store with a new identity, starting from the results.
    store.send(.setNavigation(isActive: true))
    recorder.expect(
      [
        .identityChanged("GameFeature#1/resultList", identity: "i4", reason: .presented),
        .storeCreated("GameFeature#1/resultList", type: "GameResultListFeature", parent: "GameFeature#1"),
        .stateChanged(store: "GameFeature#1", paths: ["resultList"]),
        .stateChanged(store: "GameFeature#1/resultList", paths: ["@self"], summary: "*@self, @identity changed."),
      ],
      exhaustivity: .off)

    // Deleting the first row removes round 1 by id.
    store.send(.resultList(.rowsDeleted([0])))
    recorder.expect([
      .action("GameFeature.Action.resultList", store: "GameFeature#1", origin: .send),
      .action(GameResultListFeature.Action.rowsDeleted([0]), store: "GameFeature#1/resultList", origin: .parent),
      .stateChanged(store: "GameFeature#1/resultList", changes: [.remove("results[id: 1]")]),
    ])

    // Going back asks first; saving takes a second, then the game's results lose round 1 too.
    store.send(.setNavigation(isActive: false))
    #expect(store.alert == GameFeature.SaveChangesAlert(message: "1 result deleted."))
    store.send(.alert(.saveTapped))
    await clock.advance(by: .seconds(1))
    #expect(store.results.results.ids == [2])
    #expect(store.resultList == nil)
    recorder.expect(
      [
        .stateChanged(store: "GameFeature#1", paths: ["alert"]),
        .stateChanged(store: "GameFeature#1", paths: ["alert", "isSavingResults"]),
        .effectStarted(store: "GameFeature#1"),
        .action("GameFeature.Action.resultsSaved", origin: .effect),
        .identityChanged("GameFeature#1/resultList", identity: "i4", reason: .dismissed),
        .storeDestroyed("GameFeature#1/resultList"),
        .stateChanged(
          store: "GameFeature#1", paths: ["results.results[id: 1]", "resultList", "isSavingResults"],
          changes: [.remove("results.results[id: 1]"), .remove("resultList"), .replace("isSavingResults", from: true, to: false)]),
        .effectFinished(store: "GameFeature#1", outcome: .completed),
      ],
      kinds: ["state.changed", "effect.*", "identity.changed", "store.destroyed", "action.received"], stores: ["GameFeature#1", "GameFeature#1/resultList"],
      exhaustivity: .off)

    // Shown again, the page is another identity, which replaces the ended one.
    store.send(.setNavigation(isActive: true))
    recorder.expect(
      [.identityChanged("GameFeature#1/resultList", identity: "i5", previous: "i4", reason: .presented)],
      kinds: ["identity.changed"])

    store.send(.timer(.stop))
    recorder.assertNoEffectLeftRunning()
  }

  @Test func theScriptedRunShowsTheResultsTwiceAndNamesEveryDeletedRow() async {
    let timeline = ScriptTimeline.test(clock)
    let scenario = GameScenario(bus: recorder.bus, clock: timeline.clock)
    await ScriptRunner.run(scenario, for: .seconds(9), on: timeline)

    // Two visits, two identities: saved after the first, discarded after the second.
    recorder.expect(
      [
        .identityChanged("GameFeature#1/resultList", identity: "i4", reason: .presented),
        .identityChanged("GameFeature#1/resultList", identity: "i4", reason: .dismissed),
        .identityChanged("GameFeature#1/resultList", identity: "i5", previous: "i4", reason: .presented),
        .identityChanged("GameFeature#1/resultList", identity: "i5", reason: .dismissed),
      ],
      kinds: ["identity.changed"], stores: ["GameFeature#1/resultList"])
    let removed = recorder.events.compactMap { event -> String? in
      guard case .stateChanged(let change) = event.payload else { return nil }
      let paths = change.changes.filter { $0.op == .remove && $0.path.hasPrefix("results") }.map(\.path)
      return paths.isEmpty ? nil : "\(change.store): \(paths.joined(separator: ", "))"
    }
    #expect(removed == [
      "GameFeature#1/resultList: results[id: 1]",
      "GameFeature#1: results.results[id: 1]",  // saved
      "GameFeature#1/resultList: results[id: 2], results[id: 3]",  // discarded: the game keeps them
    ])
    recorder.assertNoEffectLeftRunning()
  }
}
