import LoupeTesting
import Testing

@testable import LoupeExamples

/// Seed 004: a big normalized to-do list. The memoized derived value recomputes only when the
/// to-dos change; the one built with `map` recomputes after every action, mostly for an
/// unchanged output — the waste `loupe doctor` reports. Typing drops the search in flight.
/// Time is a `TestClock`: the search latency runs on it.
@MainActor
@Suite struct TodosScenarioTests {
  let recorder = DiagnosticRecorder()
  let clock = TestClock()

  func makeScenario() -> (TodosScenario, ScriptTimeline) {
    let timeline = ScriptTimeline.test(clock)
    return (TodosScenario(todoCount: 1_000, bus: recorder.bus, clock: timeline.clock), timeline)
  }

  @Test func typingASearchRecomputesOnlyTheWastefulDerivedValue() async {
    let (scenario, _) = makeScenario()
    let store = scenario.store
    recorder.expect(
      [
        .derivedRecomputed("openCount", outputChanged: true),
        .derivedRecomputed("workload", outputChanged: true),
        .derivedRecomputed("visibleRows", outputChanged: true),
      ],
      kinds: ["derived.recomputed"])

    for query in ["p", "pa", "pay"] { store.send(.queryChanged(query)) }
    await clock.advance(by: .milliseconds(300))
    #expect(store.searchResults.first == 9)
    #expect(scenario.model.visibleRows.value.first == "☐ Pay the garage #9 (Dana)")

    recorder.expect(
      [
        // Each keystroke drops the search still in flight…
        .action(TodosFeature.Action.queryChanged("p")),
        .effectStarted(cancelID: "search"),
        .derivedRecomputed("workload", outputChanged: false),
        .action(TodosFeature.Action.queryChanged("pa")),
        .effectCancelled(cancelID: "search", reason: .cancelInFlight, by: "TodosFeature#1"),
        .effectStarted(cancelID: "search"),
        .derivedRecomputed("workload", outputChanged: false),
        .action(TodosFeature.Action.queryChanged("pay")),
        .effectCancelled(cancelID: "search", reason: .cancelInFlight, by: "TodosFeature#1"),
        .effectStarted(cancelID: "search"),
        .derivedRecomputed("workload", outputChanged: false),
        // …and only the last one answers. Nothing about the to-dos changed: `openCount` never
        // ran, `workload` ran four times for the same output.
        .action("TodosFeature.Action.searchResponse", origin: .effect),
        .derivedRecomputed("workload", outputChanged: false),
        .derivedRecomputed("visibleRows", outputChanged: true),
        .effectFinished(outcome: .completed),
      ],
      kinds: ["action.received", "effect.*", "derived.recomputed"])
    recorder.assertNoEffectLeftRunning()
  }

  @Test func tickingOneToDoIsOneChangeAmongAThousand() {
    let (scenario, _) = makeScenario()
    recorder.skipEvents()
    scenario.store.send(.toggleDoneTapped(734))
    recorder.expect([
      .action(TodosFeature.Action.toggleDoneTapped(734)),
      .stateChanged(changes: [.replace("database.todos[id: 734].isDone", from: false, to: true)]),
      .derivedRecomputed("openCount", outputChanged: true),
      .derivedRecomputed("workload", outputChanged: true),
      .derivedRecomputed("visibleRows", outputChanged: false),
    ])
  }

  @Test func theScriptedRunWastesMostWorkloadRecomputations() async {
    let (scenario, timeline) = makeScenario()
    await ScriptRunner.run(scenario, for: .seconds(6), on: timeline)

    let recomputed = recorder.events.compactMap { event -> DerivedRecomputed? in
      if case .derivedRecomputed(let e) = event.payload, e.cause != nil { e } else { nil }
    }
    func outputs(_ name: String) -> [Bool] { recomputed.filter { $0.derived == name }.map(\.outputChanged) }
    // After every action: unchanged but for the tick, the bulk completion and the renamed person.
    #expect(outputs("workload") == [false, false, false, false, true, false, true, true, false, false, false, false, false])
    // Only when a to-do changed: the tick, the renamed to-do (same count), the bulk completion.
    #expect(outputs("openCount") == [true, false, true])
    // Four searches dropped by the next keystroke, one by the end of the run; one answered.
    let searches = recorder.events.compactMap { event -> String? in
      switch event.payload {
      case .effectCancelled(let e): "\(e.reason.rawValue) by \(e.by?.store ?? "-")"
      case .effectFinished(let e): e.outcome.rawValue
      default: nil
      }
    }
    #expect(searches == [
      "cancelInFlight by TodosFeature#1", "cancelInFlight by TodosFeature#1", "completed",
      "cancelInFlight by TodosFeature#1", "cancelInFlight by TodosFeature#1", "cancel by TodosFeature#1",
    ])
    recorder.assertNoEffectLeftRunning()
  }
}
