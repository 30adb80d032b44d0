import Foundation
import LoupeTesting
import Testing

/// A trace attached to a bug report, read back and checked with the same assertions.
///
/// The fixtures are real recordings of `loupe-examples pages` (seed 000):
/// `LOUPE_RECORD=… loupe-examples pages --seconds 3 --speed 2 [--shared-cancellation]`.
@Suite struct RecordedTraceTests {
  @Test func theBugReportFailsTheCheck() throws {
    let trace = try RecordedTrace(path: "Fixtures/pages-shared-cancellation.loupe")
    #expect(trace.header.program == "loupe-examples")
    #expect(trace.events.count == 86)
    #expect(trace.truncation == nil)
    let line = #line + 2
    let failures = capturingIssues {
      trace.assertNoEffectCancelledByAnotherStore(store: "PageFeature#1")
    }
    #expect(failures == [CapturedFailure(message: """
      2 effects were cancelled by another store.

          #16 effect.started PageFeature#1 effect: 2, cause: #14, cancelID: PageFeature.CancelID.timer
          #19 action.received PageFeature#3 action: PageFeature.Action.onAppear, origin: send
        + #20 effect.cancelled PageFeature#1 effect: 2, cancelID: PageFeature.CancelID.timer, reason: cancelInFlight, by: PageFeature#3 (#19)
          #69 effect.started PageFeature#1 effect: 10, cause: #68, cancelID: PageFeature.CancelID.timer
          #74 action.received PageFeature#2 action: PageFeature.Action.onAppear, origin: send
        + #75 effect.cancelled PageFeature#1 effect: 10, cancelID: PageFeature.CancelID.timer, reason: cancelInFlight, by: PageFeature#2 (#74)

      (Expected: −, Actual: +)

      Cancel ids are shared between these stores (cancellation: .processWide, or separate TCA stores before effect isolation): give each page one parent store, or isolated cancellation.
      """, line: line)])
  }

  @Test func theFixedProgramPassesIt() throws {
    let trace = try RecordedTrace(path: "Fixtures/pages-isolated.loupe")
    trace.assertNoEffectCancelledByAnotherStore(store: "PageFeature#1")
    trace.assertNoEffectCancelledByAnotherStore()
    trace.assertEffectCancelled(cancelID: "timer", store: "PageFeature#1", reason: .cancel, by: "PageFeature#1")
    trace.assertNoEffectLeftRunning()
    trace.expect([
      .action("onAppear", store: "PageFeature#2"),
      .effectStarted(store: "PageFeature#2", cancelID: "timer"),
      .action("timerTicked", store: "PageFeature#2", origin: .effect),
    ], exhaustivity: .off)
    // A raw trace can be its own golden: both sides are normalized.
    trace.assertMatchesGolden("Fixtures/pages-isolated.loupe")
  }

  @Test func aTraceCutShortKeepsItsCompleteEvents() throws {
    let text = try String(contentsOfFile: FixturePathForTests.resolve("Fixtures/pages-isolated.loupe"), encoding: .utf8)
    let cut = String(text.dropLast(40))
    let path = NSTemporaryDirectory() + "loupe-cut-\(UUID().uuidString).loupe"
    try cut.write(toFile: path, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let trace = try RecordedTrace(path: path)
    #expect(trace.events.count == 127)
    #expect(trace.truncation?.line == 129)
  }

  @Test func aFileThatIsNotATraceThrows() throws {
    let path = NSTemporaryDirectory() + "loupe-not-a-trace-\(UUID().uuidString).json"
    try #"{"hello": "world"}"#.write(toFile: path, atomically: true, encoding: .utf8)
    #expect(throws: TraceError.self) { try RecordedTrace(path: path) }
    #expect(throws: TraceError.self) { try RecordedTrace(path: "Fixtures/no-such-trace.loupe") }
  }
}

/// Resolves fixture paths the way `RecordedTrace` does, for tests that read fixtures directly.
enum FixturePathForTests {
  static func resolve(_ path: String, filePath: StaticString = #filePath) -> String {
    URL(fileURLWithPath: "\(filePath)").deletingLastPathComponent().appendingPathComponent(path).path
  }
}
