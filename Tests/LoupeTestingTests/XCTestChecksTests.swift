import Foundation
import LoupeTesting
import XCTest

/// The ready-made checks and goldens under XCTest: the same messages, at the caller's line.
final class XCTestChecksTests: FailureCapturingTestCase {
  @MainActor
  func testEffectCancelledWhenTheTimerWasNeverStopped() async {
    let recorder = DiagnosticRecorder()
    let clock = TestClock()
    let store = recorder.store(initialState: TimerFeature.State(), clock: clock) { TimerFeature() }
    defer { store.invalidate() }
    store.send(.startTapped)
    await clock.advance(by: .seconds(1))

    let line = #line + 2
    let failures = capturingFailures {
      recorder.assertEffectCancelled(cancelID: "timer", reason: .cancel)
    }
    XCTAssertEqual(failures, [CapturedFailure(message: """
      No effect was cancelled as expected.

          #6 effect.started TimerFeature#1 effect: 1, cause: #4, cancelID: TimerFeature.CancelID.timer, source: TimerFeature.swift:20
        − effect.cancelled cancelID: timer, reason: cancel

      (Expected: −, Actual: +)
      """, line: line)])
  }

  @MainActor
  func testNoEffectCancelledByAnotherStore() {
    let recorder = DiagnosticRecorder()
    let pages = (0..<2).map { id in
      recorder.store(initialState: PageFeature.State(id: id), name: "Page\(id)", cancellation: .processWide, clock: TestClock()) {
        PageFeature()
      }
    }
    defer { for page in pages { page.invalidate() } }
    pages[0].send(.onAppear)
    pages[1].send(.onAppear)

    let line = #line + 2
    let failures = capturingFailures {
      recorder.assertNoEffectCancelledByAnotherStore()
    }
    XCTAssertEqual(failures, [CapturedFailure(message: """
      An effect was cancelled by another store.

          #7 effect.started Page0 effect: 1, cause: #6, cancelID: PageFeature.CancelID.timer, source: Features.swift:21
          #8 action.received Page1 action: PageFeature.Action.onAppear, origin: send, source: XCTestChecksTests.swift:40
        + #9 effect.cancelled Page0 effect: 1, cancelID: PageFeature.CancelID.timer, reason: cancelInFlight, by: Page1 (#8, Features.swift:26)

      (Expected: −, Actual: +)

      Cancel ids are shared between these stores (cancellation: .processWide, or separate TCA stores before effect isolation): give each page one parent store, or isolated cancellation.
      """, line: line)])
  }

  @MainActor
  func testWastedRecomputation() {
    let recorder = DiagnosticRecorder()
    let store = recorder.store(initialState: ContentFeature.State()) { ContentFeature() }
    let label = store.map("buttonLabel") { $0.playButton?.isPlaying == true ? "Pause" : "Play" }
    store.send(.toggleTapped)
    XCTAssertEqual(label.value, "Play")

    let line = #line + 2
    let failures = capturingFailures {
      recorder.assertNoWastedRecomputation()
    }
    XCTAssertEqual(failures, [CapturedFailure(message: """
      The derived value buttonLabel of ContentFeature#1 was recomputed 1 time with an unchanged output.

          #7 action.received ContentFeature#1 action: ContentFeature.Action.toggleTapped, origin: send, source: XCTestChecksTests.swift:64
        + #11 derived.recomputed ContentFeature#1 derived: buttonLabel, cause: #7, outputChanged: false

      (Expected: −, Actual: +)

      Memoize it on its input: store.derived(_:select:compute:) computes again only when the selected input changes.
      """, line: line)])
  }

  @MainActor
  func testIdentityUnchangedChecksEachMatchingStore() {
    let recorder = DiagnosticRecorder()
    let store = recorder.store(initialState: ContentFeature.State()) { ContentFeature() }
    store.send(.toggleTapped)

    let line = #line + 2
    let failures = capturingFailures {
      recorder.assertIdentityUnchanged("ContentFeature#1*")
    }
    XCTAssertEqual(failures, [CapturedFailure(message: """
      The identity of ContentFeature#1/playButton changed: it should have stayed i2.

          #4 identity.changed ContentFeature#1/playButton identity: i2, reason: created
          #6 action.received ContentFeature#1 action: ContentFeature.Action.toggleTapped, origin: send, source: XCTestChecksTests.swift:87
        + #7 identity.changed ContentFeature#1/playButton identity: i2, reason: dismissed

      (Expected: −, Actual: +)

      A new identity starts with fresh state and no effects (seed 002: a view's state reset when it was hidden and shown).
      """, line: line)])
  }

  @MainActor
  func testAMissingGoldenIsRecorded() async throws {
    let directory = NSTemporaryDirectory() + "loupe-xctest-golden-" + UUID().uuidString
    let recorder = DiagnosticRecorder()
    let clock = TestClock()
    let store = recorder.store(initialState: TimerFeature.State(), clock: clock) { TimerFeature() }
    store.send(.startTapped)
    store.send(.stopTapped)

    let line = #line + 2
    let failures = capturingFailures {
      recorder.assertMatchesGolden(directory + "/timer.loupe", kinds: ["action.*"])
    }
    XCTAssertEqual(failures, [CapturedFailure(message: """
      Recorded the golden trace \(directory)/timer.loupe (2 events) because it did not exist. Check it and run the test again.
      """, line: line)])
    XCTAssertEqual(capturingFailures { recorder.assertMatchesGolden(directory + "/timer.loupe", kinds: ["action.*"]) }, [])
  }
}
