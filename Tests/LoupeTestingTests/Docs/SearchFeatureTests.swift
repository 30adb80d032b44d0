import LoupeTesting
import Testing

@MainActor
@Test func aFailedSearchIsReportedAsAFailedEffect() async {
  let recorder = DiagnosticRecorder()
  let store = recorder.store(initialState: SearchFeature.State()) {
    SearchFeature(search: { _ in throw SearchFeature.SearchError() })
  }
  await store.send(.queryChanged("roof")).finish()

  #expect(store.errorMessage == "offline")
  // `catch:` handled the error, and the effect still ended as failed, with the error.
  recorder.expect(
    [
      .action(SearchFeature.Action.searchFailed("offline"), origin: .effect),
      .effectFinished(outcome: .failed),
    ], exhaustivity: .off)
  let failure = recorder.events.compactMap { event -> String? in
    if case .effectFinished(let finished) = event.payload { return finished.error } else { return nil }
  }
  #expect(failure == ["offline"])
}

@MainActor
@Test func sendIsAnEffectOfItsOwnAndChangesTakeJSONValues() async {
  let recorder = DiagnosticRecorder()
  let store = recorder.store(initialState: SearchFeature.State(query: "roof", results: ["Fix the roof"])) {
    SearchFeature(search: { _ in [] })
  }
  await store.send(.cleared).finish()

  // `recorder.events` is every event so far, decoded (`Event`), for checks of your own.
  #expect(recorder.events.map(\.kind).prefix(3) == ["session.started", "identity.changed", "store.created"])
  recorder.expect([
    .action(SearchFeature.Action.cleared),
    // `.replace(path, from:, to:)` takes JSON values (a string here; numbers, `[1, 2]` and
    // `["id": 3]` work too), as the value is rendered on the wire…
    .stateChanged(changes: [.replace("query", from: "roof", to: "")]),
    // `return .send(…)` appears as an effect of its own…
    .effectStarted(),
    // …whose action comes from it…
    .action(SearchFeature.Action.searchResponse([]), origin: .effect),
    .stateChanged(changes: [.remove("results[0]")]),
    .effectFinished(outcome: .completed),
  ], kinds: ["action.*", "state.*", "effect.*"])

  let task = store.send(.queryChanged("pay"))
  // …and `from: nil` (or no `from:`) means "any old value", not "the old value was nil".
  recorder.expect([.stateChanged(changes: [.replace("query", from: nil, to: "pay")])], kinds: ["state.*"], exhaustivity: .off)
  await task.finish()
}
