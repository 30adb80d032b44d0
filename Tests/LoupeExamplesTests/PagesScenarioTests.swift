import LoupeTesting
import Testing

@testable import LoupeExamples

/// Seed 000: four pages, each with its own root store and a timer under the same cancel id.
///
/// By default a page's timer is cancelled only by its own store; with a process-wide
/// cancellation scope (`loupe-examples pages --shared-cancellation`) showing one page stops
/// the others' timers, and the stream says which store did it. Time is a `TestClock`.
@MainActor
@Suite struct PagesScenarioTests {
  let recorder = DiagnosticRecorder()
  let clock = TestClock()

  func makePager(_ cancellation: CancellationScope) -> Pager {
    let pager = Pager(cancellation: cancellation, bus: recorder.bus, clock: AnyClock(clock))
    recorder.skipEvents()
    return pager
  }

  @Test func swipingToTheSecondPageKeepsTheFirstPagesTimer() async {
    let pager = makePager(.isolated)
    pager.show(0)
    await clock.advance(by: .seconds(1))
    pager.show(1)
    await clock.advance(by: .seconds(1))

    // Page 0 ticked all along; page 1 since it was preloaded; page 2 since swiping preloaded it.
    #expect(pager.pages.map(\.count) == [4, 4, 2, 0])
    // The one cancellation: page 1 appearing restarts its own preloaded timer.
    recorder.expect(
      [.effectCancelled(store: "PageFeature#2", cancelID: "timer", reason: .cancelInFlight, by: "PageFeature#2")],
      kinds: ["effect.cancelled"])
    recorder.assertNoEffectCancelledByAnotherStore()

    pager.tearDown()
    recorder.assertNoEffectLeftRunning()
  }

  @Test func aProcessWideScopeLetsEachPageStopTheOthersTimers() async {
    let pager = makePager(.processWide)
    pager.show(0)
    await clock.advance(by: .seconds(1))
    pager.show(1)
    await clock.advance(by: .seconds(1))

    // Only the page that appeared last ticks: page 0 froze when page 1 was swiped to.
    #expect(pager.pages.map(\.count) == [2, 2, 0, 0])
    recorder.expect(
      [
        // Showing page 0 stops the timer of page 1, preloaded a moment before…
        .action("PageFeature.Action.onAppear", store: "PageFeature#1"),
        .effectCancelled(store: "PageFeature#2", cancelID: "timer", reason: .cancelInFlight, by: "PageFeature#1"),
        // …preloading page 2 stops page 0's, and page 1 appearing stops page 2's.
        .action("PageFeature.Action.onAppear", store: "PageFeature#3"),
        .effectCancelled(store: "PageFeature#1", cancelID: "timer", reason: .cancelInFlight, by: "PageFeature#3"),
        .action("PageFeature.Action.onAppear", store: "PageFeature#2"),
        .effectCancelled(store: "PageFeature#3", cancelID: "timer", reason: .cancelInFlight, by: "PageFeature#2"),
      ],
      kinds: ["effect.cancelled", "action.received"], exhaustivity: .off)
    recorder.expect([], kinds: ["effect.cancelled"])

    pager.tearDown()
    recorder.assertNoEffectLeftRunning()
  }

  @Test func theScriptedRunCancelsOnlyWithinEachPage() async {
    let timeline = ScriptTimeline.test(clock)
    let scenario = PagesScenario(bus: recorder.bus, clock: timeline.clock)
    await ScriptRunner.run(scenario, for: .seconds(5), on: timeline)

    // Shown at 0, swiped to 1, 2, 3, 2: every loaded page kept ticking.
    #expect(scenario.pager.pages.map(\.count) == [4, 8, 8, 6])
    recorder.assertNoEffectCancelledByAnotherStore()
    recorder.assertNoEffectLeftRunning()
    recorder.expect(
      (1...4).map { .storeDestroyed("PageFeature#\($0)") }, kinds: ["store.destroyed"])
  }

  @Test func theScriptedRunWithSharedCancellationReproducesTheSeed() async {
    let timeline = ScriptTimeline.test(clock)
    let scenario = PagesScenario(sharedCancellation: true, bus: recorder.bus, clock: timeline.clock)
    await ScriptRunner.run(scenario, for: .seconds(5), on: timeline)

    // The counts freeze: each page ticked only while it was the last to appear.
    #expect(scenario.pager.pages.map(\.count) == [2, 2, 4, 2])
    // Every timer was stopped by another page, on appear (cancelInFlight) or disappear (cancel).
    recorder.expect(
      [
        .effectCancelled(store: "PageFeature#2", reason: .cancelInFlight, by: "PageFeature#1"),
        .effectCancelled(store: "PageFeature#1", reason: .cancelInFlight, by: "PageFeature#3"),
        .effectCancelled(store: "PageFeature#3", reason: .cancelInFlight, by: "PageFeature#2"),
        .effectCancelled(store: "PageFeature#2", reason: .cancel, by: "PageFeature#1"),
        .effectCancelled(store: "PageFeature#4", reason: .cancelInFlight, by: "PageFeature#3"),
        .effectCancelled(store: "PageFeature#3", reason: .cancel, by: "PageFeature#2"),
        .effectCancelled(store: "PageFeature#4", reason: .cancelInFlight, by: "PageFeature#2"),
        .effectCancelled(store: "PageFeature#2", reason: .cancelInFlight, by: "PageFeature#3"),
        .effectCancelled(store: "PageFeature#3", reason: .cancel, by: "PageFeature#2"),
      ],
      kinds: ["effect.cancelled"])
    recorder.assertNoEffectLeftRunning()
  }
}
