import LoupeTesting
import Testing

/// The ready-made effect checks, each catching the bug it is for. (`.processWide` cancel ids
/// are shared within a recorder's bus only, so these tests run in parallel.)
@MainActor
@Suite struct EffectCheckTests {
  typealias PageStore = Store<PageFeature.State, PageFeature.Action>

  /// Seed 000: separate page stores; swiping shows the next page, which restarts its timer.
  func swipeThroughPages(_ count: Int, cancellation: CancellationScope) async -> (DiagnosticRecorder, [PageStore]) {
    let recorder = DiagnosticRecorder()
    let clock = TestClock()
    let pages = (0..<count).map { id in
      recorder.store(initialState: PageFeature.State(id: id), cancellation: cancellation, clock: clock) { PageFeature() }
    }
    for (index, page) in pages.enumerated() {
      if index > 0 { pages[index - 1].send(.selected(false)) }
      page.send(.selected(true))
      page.send(.onAppear)
      await clock.advance(by: .seconds(1))
    }
    return (recorder, pages)
  }

  // MARK: Seed 000

  @Test func isolatedPagesKeepTheirTimers() async {
    let (recorder, pages) = await swipeThroughPages(2, cancellation: .isolated)
    #expect(pages.map(\.count) == [2, 1])
    recorder.assertEffectNotCancelled(cancelID: "timer", store: "PageFeature#1")
    recorder.assertNoEffectCancelledByAnotherStore()
    for page in pages { page.invalidate() }
    recorder.assertEffectCancelled(cancelID: "timer", store: "PageFeature#1", reason: .storeDestroyed)
    recorder.assertNoEffectLeftRunning()
  }

  @Test func sharedCancelIDsFailEffectNotCancelled() async {
    let (recorder, pages) = await swipeThroughPages(2, cancellation: .processWide)
    defer { for page in pages { page.invalidate() } }
    #expect(pages.map(\.count) == [1, 1])
    let line = #line + 2
    let failures = capturingIssues {
      recorder.assertEffectNotCancelled(cancelID: "timer", store: "PageFeature#1")
    }
    #expect(failures == [CapturedFailure(message: """
      An effect with cancelID timer in PageFeature#1 was cancelled.

          #9 effect.started PageFeature#1 effect: 1, cause: #8, cancelID: PageFeature.CancelID.timer, source: Features.swift:21
          #16 action.received PageFeature#2 action: PageFeature.Action.onAppear, origin: send, source: EffectCheckTests.swift:20
        + #17 effect.cancelled PageFeature#1 effect: 1, cancelID: PageFeature.CancelID.timer, reason: cancelInFlight, by: PageFeature#2 (#16, Features.swift:26)

      (Expected: −, Actual: +)

      PageFeature#2 cancelled an effect of PageFeature#1. Cancel ids are shared between these stores (cancellation: .processWide, or separate TCA stores before effect isolation): give each page one parent store, or isolated cancellation.
      """, line: line)])
  }

  @Test func sharedCancelIDsFailNoEffectCancelledByAnotherStore() async {
    let (recorder, pages) = await swipeThroughPages(3, cancellation: .processWide)
    defer { for page in pages { page.invalidate() } }
    let line = #line + 2
    let failures = capturingIssues {
      recorder.assertNoEffectCancelledByAnotherStore()
    }
    #expect(failures == [CapturedFailure(message: """
      2 effects were cancelled by another store.

          #11 effect.started PageFeature#1 effect: 1, cause: #10, cancelID: PageFeature.CancelID.timer, source: Features.swift:21
          #18 action.received PageFeature#2 action: PageFeature.Action.onAppear, origin: send, source: EffectCheckTests.swift:20
        + #19 effect.cancelled PageFeature#1 effect: 1, cancelID: PageFeature.CancelID.timer, reason: cancelInFlight, by: PageFeature#2 (#18, Features.swift:26)
          #20 effect.started PageFeature#2 effect: 2, cause: #18, cancelID: PageFeature.CancelID.timer, source: Features.swift:21
          #27 action.received PageFeature#3 action: PageFeature.Action.onAppear, origin: send, source: EffectCheckTests.swift:20
        + #28 effect.cancelled PageFeature#2 effect: 2, cancelID: PageFeature.CancelID.timer, reason: cancelInFlight, by: PageFeature#3 (#27, Features.swift:26)

      (Expected: −, Actual: +)

      Cancel ids are shared between these stores (cancellation: .processWide, or separate TCA stores before effect isolation): give each page one parent store, or isolated cancellation.
      """, line: line)])
  }

  @Test func effectCancelledShowsWhoReallyCancelledIt() async {
    let (recorder, pages) = await swipeThroughPages(2, cancellation: .processWide)
    defer { for page in pages { page.invalidate() } }
    recorder.assertEffectCancelled(cancelID: "timer", store: "PageFeature#1", by: "PageFeature#2")
    let line = #line + 2
    let failures = capturingIssues {
      recorder.assertEffectCancelled(cancelID: "timer", store: "PageFeature#1", by: "PageFeature#1")
    }
    #expect(failures == [CapturedFailure(message: """
      No effect was cancelled as expected.

          #9 effect.started PageFeature#1 effect: 1, cause: #8, cancelID: PageFeature.CancelID.timer, source: Features.swift:21
          #16 action.received PageFeature#2 action: PageFeature.Action.onAppear, origin: send, source: EffectCheckTests.swift:20
        − effect.cancelled PageFeature#1 cancelID: timer, by: PageFeature#1
        + #17 effect.cancelled PageFeature#1 effect: 1, cancelID: PageFeature.CancelID.timer, reason: cancelInFlight, by: PageFeature#2 (#16, Features.swift:26)

      (Expected: −, Actual: +)
      """, line: line)])
  }

  @Test func effectCancelledWhenNoSuchEffectStarted() {
    let recorder = DiagnosticRecorder()
    let line = #line + 2
    let failures = capturingIssues {
      recorder.assertEffectCancelled(cancelID: "search", reason: .cancelInFlight)
    }
    #expect(failures == [CapturedFailure(message: """
      No effect was cancelled as expected. No effect with this cancel id started.

        − effect.cancelled cancelID: search, reason: cancelInFlight

      (Expected: −, Actual: +)
      """, line: line)])
  }

  // MARK: Leaks

  @Test func aLeakyEffectFailsNoEffectLeftRunning() async {
    let recorder = DiagnosticRecorder()
    let clock = TestClock()
    let player = recorder.store(initialState: LeakyPlayerFeature.State(), clock: clock) { LeakyPlayerFeature() }
    defer { player.invalidate() }
    player.send(.onAppear)
    await clock.advance(by: .seconds(1))
    player.send(.onDisappear)
    await clock.advance(by: .seconds(1))
    #expect(player.progress == 2)  // still ticking while hidden
    let line = #line + 2
    let failures = capturingIssues {
      recorder.assertNoEffectLeftRunning()
    }
    #expect(failures == [CapturedFailure(message: """
      An effect is still running: it started, and it neither finished nor was cancelled.

          #4 action.received LeakyPlayerFeature#1 action: LeakyPlayerFeature.Action.onAppear, origin: send, source: EffectCheckTests.swift:124
          #6 effect.started LeakyPlayerFeature#1 effect: 1, cause: #4, cancelID: LeakyPlayerFeature.CancelID.progress, source: Features.swift:56
        − effect.finished or effect.cancelled LeakyPlayerFeature#1 effect: 1

      (Expected: −, Actual: +)

      Cancel it (.cancel(id:), StoreTask.cancel()) or await it (StoreTask.finish(), TestClock.advance(by:)) before this check.
      """, line: line)])
  }

  @Test func effectsThatEndedLeaveNothingRunning() async {
    let recorder = DiagnosticRecorder()
    let clock = TestClock()
    let store = recorder.store(initialState: TimerFeature.State(), clock: clock) { TimerFeature() }
    store.send(.startTapped)
    await clock.advance(by: .seconds(1))
    store.send(.stopTapped)
    recorder.assertNoEffectLeftRunning()
    recorder.assertEffectCancelled(cancelID: "TimerFeature.CancelID.timer", store: "TimerFeature#1", reason: .cancel, by: "TimerFeature#1")
  }
}
