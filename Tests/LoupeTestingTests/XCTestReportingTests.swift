import LoupeTesting
import XCTest

/// Under XCTest, failures go to the running `XCTestCase`, at the assertion's file and line,
/// with the same text as under Swift Testing.
final class XCTestReportingTests: FailureCapturingTestCase {
  @MainActor
  func testExpectReportsAtTheCallerWithADiff() async {
    let recorder = DiagnosticRecorder()
    let clock = TestClock()
    let store = recorder.store(initialState: TimerFeature.State(), clock: clock) { TimerFeature() }
    store.send(.startTapped)
    await clock.advance(by: .seconds(1))
    store.send(.stopTapped)

    let line = #line + 2
    let failures = capturingFailures {
      recorder.expect([
        .action(TimerFeature.Action.startTapped),
        .effectStarted(cancelID: "timer"),
        .action(TimerFeature.Action.tick, origin: .effect),
        .action(TimerFeature.Action.stopTapped),
        .effectFinished(),
      ], kinds: ["action.*", "effect.*"])
    }
    XCTAssertEqual(failures, [CapturedFailure(message: """
      The stream does not match the expected events: 1 expected event did not happen, 1 unexpected event happened.

          … (2 events)
          #7 action.received TimerFeature#1 action: TimerFeature.Action.tick, origin: effect, effect: 1, source: TimerFeature.swift:20
          #9 action.received TimerFeature#1 action: TimerFeature.Action.stopTapped, origin: send, source: XCTestReportingTests.swift:14
        − effect.finished
        + #11 effect.cancelled TimerFeature#1 effect: 1, cancelID: TimerFeature.CancelID.timer, reason: cancel, by: TimerFeature#1 (#9, TimerFeature.swift:28)

      (Expected: −, Actual: +)

      Exhaustivity is on: expect every event, narrow what is checked (kinds:, stores:), or turn exhaustivity off.
      """, line: line)])
  }

  @MainActor
  func testALeakFailsNoEffectLeftRunning() async {
    let recorder = DiagnosticRecorder()
    let clock = TestClock()
    let player = recorder.store(initialState: LeakyPlayerFeature.State(), clock: clock) { LeakyPlayerFeature() }
    defer { player.invalidate() }
    player.send(.onAppear)
    player.send(.onDisappear)
    await clock.advance(by: .seconds(1))

    let line = #line + 2
    let failures = capturingFailures {
      recorder.assertNoEffectLeftRunning()
    }
    XCTAssertEqual(failures, [CapturedFailure(message: """
      An effect is still running: it started, and it neither finished nor was cancelled.

          #4 action.received LeakyPlayerFeature#1 action: LeakyPlayerFeature.Action.onAppear, origin: send, source: XCTestReportingTests.swift:47
          #6 effect.started LeakyPlayerFeature#1 effect: 1, cause: #4, cancelID: LeakyPlayerFeature.CancelID.progress, source: Features.swift:56
        − effect.finished or effect.cancelled LeakyPlayerFeature#1 effect: 1

      (Expected: −, Actual: +)

      Cancel it (.cancel(id:), StoreTask.cancel()) or await it (StoreTask.finish(), TestClock.advance(by:)) before this check.
      """, line: line)])
  }

  /// Seed 000 under XCTest.
  @MainActor
  func testSharedCancellationFailsUnderXCTestToo() {
    let recorder = DiagnosticRecorder()
    let clock = TestClock()
    let pages = (0..<2).map { id in
      recorder.store(initialState: PageFeature.State(id: id), name: "Page\(id)", cancellation: .processWide, clock: clock) {
        PageFeature()
      }
    }
    defer { for page in pages { page.invalidate() } }
    pages[0].send(.onAppear)
    pages[1].send(.onAppear)

    let line = #line + 2
    let failures = capturingFailures {
      recorder.assertEffectNotCancelled(cancelID: "timer", store: "Page0")
    }
    XCTAssertEqual(failures, [CapturedFailure(message: """
      An effect with cancelID timer in Page0 was cancelled.

          #7 effect.started Page0 effect: 1, cause: #6, cancelID: PageFeature.CancelID.timer, source: Features.swift:21
          #8 action.received Page1 action: PageFeature.Action.onAppear, origin: send, source: XCTestReportingTests.swift:80
        + #9 effect.cancelled Page0 effect: 1, cancelID: PageFeature.CancelID.timer, reason: cancelInFlight, by: Page1 (#8, Features.swift:26)

      (Expected: −, Actual: +)

      Page1 cancelled an effect of Page0. Cancel ids are shared between these stores (cancellation: .processWide, or separate TCA stores before effect isolation): give each page one parent store, or isolated cancellation.
      """, line: line)])
  }

  @MainActor
  func testDerivedAndIdentityChecksUnderXCTest() {
    let recorder = DiagnosticRecorder()
    let store = recorder.store(initialState: ContentFeature.State()) { ContentFeature() }
    let playing = store.derived("isPlaying", select: \.playButton) { $0?.isPlaying ?? false }
    store.send(.playButton(.tapped))
    XCTAssertTrue(playing.value)

    let line = #line + 2
    let failures = capturingFailures {
      recorder.assertDerived("isPlaying", recomputedAtMost: 0)
      recorder.assertIdentityChanged("ContentFeature#1/playButton", reason: .dismissed)
    }
    XCTAssertEqual(failures, [
      CapturedFailure(message: """
        The derived value isPlaying of ContentFeature#1 was recomputed 1 time; at most 0 were expected.

            #7 action.received ContentFeature#1 action: ContentFeature.Action.playButton, value: .playButton(.tapped), origin: send, source: XCTestReportingTests.swift:104
          + #10 derived.recomputed ContentFeature#1 derived: isPlaying, cause: #7, outputChanged: true

        (Expected: −, Actual: +)
        """, line: line),
      CapturedFailure(message: """
        The identity of ContentFeature#1/playButton did not change (dismissed).

            #4 identity.changed ContentFeature#1/playButton identity: i2, reason: created
          − identity.changed ContentFeature#1/playButton reason: dismissed

        (Expected: −, Actual: +)
        """, line: line + 1),
    ])
  }

  func testPassingAssertionsReportNothing() {
    let recorder = DiagnosticRecorder()
    let failures = capturingFailures {
      recorder.expect([])
      recorder.assertNoEffectLeftRunning()
    }
    XCTAssertEqual(failures, [])
  }
}
