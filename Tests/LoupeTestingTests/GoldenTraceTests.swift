import Foundation
@testable import LoupeTesting
import Testing

/// Golden traces: the stream against a `.loupe` fixture, normalized; recorded anew on request.
@MainActor
@Suite struct GoldenTraceTests {
  /// The README's timer: started, two ticks, stopped.
  func timerRun(ticks: Int, recorder: DiagnosticRecorder = DiagnosticRecorder()) async -> DiagnosticRecorder {
    let clock = TestClock()
    let store = recorder.store(initialState: TimerFeature.State(), name: "Timer", clock: clock) { TimerFeature() }
    store.send(.startTapped)
    await clock.advance(by: .seconds(ticks))
    store.send(.stopTapped)
    return recorder
  }

  /// A fresh directory for fixtures this test writes.
  func temporaryDirectory() throws -> String {
    let path = NSTemporaryDirectory() + "loupe-golden-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
  }

  @Test func theTimerMatchesItsGolden() async {
    let recorder = await timerRun(ticks: 2)
    recorder.assertMatchesGolden("Fixtures/timer.loupe")
    recorder.assertMatchesGolden("Fixtures/timer-effects.loupe", kinds: ["effect.*"])
  }

  @Test func aChangedStreamShowsTheGoldenLinesThatDiffer() async {
    let recorder = await timerRun(ticks: 3)
    let line = #line + 2
    let failures = capturingIssues {
      recorder.assertMatchesGolden("Fixtures/timer.loupe")
    }
    #expect(failures == [CapturedFailure(message: """
      The stream does not match the golden trace Fixtures/timer.loupe: 2 events are new.

          … (8 events)
          {"seq":9,"time":0.0,"kind":"action.received","store":"Timer","action":"TimerFeature.Action.tick","value":"tick","origin":"effect","effect":1,"shape":{"enums":[""]}}
          {"seq":10,"time":0.0,"kind":"state.changed","store":"Timer","cause":9,"changes":[{"path":"ticks","op":"replace","old":1,"new":2}],"summary":"Timer: _ticks changed."}
        + {"seq":11,"time":0.0,"kind":"action.received","store":"Timer","action":"TimerFeature.Action.tick","value":"tick","origin":"effect","effect":1,"shape":{"enums":[""]}}
        + {"seq":12,"time":0.0,"kind":"state.changed","store":"Timer","cause":11,"changes":[{"path":"ticks","op":"replace","old":2,"new":3}],"summary":"Timer: _ticks changed."}
          {"seq":13,"time":0.0,"kind":"action.received","store":"Timer","action":"TimerFeature.Action.stopTapped","value":"stopTapped","origin":"send","shape":{"enums":[""]}}
          {"seq":14,"time":0.0,"kind":"state.changed","store":"Timer","cause":13,"changes":[{"path":"isRunning","op":"replace","old":true,"new":false}],"summary":"Timer: _isRunning changed."}
          … (2 events)

      (Expected: −, Actual: +)

      If the change is intended, record the trace anew: LOUPE_RECORD_GOLDENS=1 swift test, or record: true.
      """, line: line)])
  }

  @Test func aMissingGoldenIsRecordedAndTheTestFails() async throws {
    let path = try temporaryDirectory() + "/new/timer.loupe"
    let recorder = await timerRun(ticks: 1)
    let line = #line + 2
    let failures = capturingIssues {
      recorder.assertMatchesGolden(path)
    }
    #expect(failures == [CapturedFailure(message: """
      Recorded the golden trace \(path) (12 events) because it did not exist. Check it and run the test again.
      """, line: line)])
    // Recorded: a normalized trace any reader takes; the same stream now passes.
    let trace = try RecordedTrace(path: path)
    #expect(trace.header == TraceNormalizer.header)
    #expect(trace.events == TraceNormalizer.normalize(recorder.events))
    recorder.assertMatchesGolden(path)
  }

  @Test func recordingAnewRewritesTheFixtureAndFails() async throws {
    let path = try temporaryDirectory() + "/timer.loupe"
    let oneTick = await timerRun(ticks: 1)
    #expect(capturingIssues { oneTick.assertMatchesGolden(path) }.count == 1)  // recorded: it did not exist
    let twoTicks = await timerRun(ticks: 2)
    let line = #line + 2
    let failures = capturingIssues {
      twoTicks.assertMatchesGolden(path, record: true)
    }
    #expect(failures == [CapturedFailure(message: """
      Recorded the golden trace \(path) (14 events) because recording is on (record: true). Check it, turn recording off and run the test again.
      """, line: line)])
    twoTicks.assertMatchesGolden(path)
    #expect(capturingIssues { oneTick.assertMatchesGolden(path) }.count == 1)
  }

  @Test func aFixtureThatIsNotATraceIsReported() async throws {
    let path = try temporaryDirectory() + "/notes.loupe"
    try "not a trace\n".write(toFile: path, atomically: true, encoding: .utf8)
    let recorder = await timerRun(ticks: 1)
    let line = #line + 2
    let failures = capturingIssues {
      recorder.assertMatchesGolden(path)
    }
    #expect(failures == [CapturedFailure(message: """
      Cannot compare with the golden trace: '\(path)' is not a Loupe trace: its first line is not JSON (Invalid literal at byte 1).
      """, line: line)])
  }

  @Test func theEnvironmentVariableTurnsRecordingOn() {
    #expect(DiagnosticStream.recordGoldensVariable == "LOUPE_RECORD_GOLDENS")
    #expect(DiagnosticStream.recordsGoldens(environment: ["LOUPE_RECORD_GOLDENS": "1"]))
    #expect(DiagnosticStream.recordsGoldens(environment: ["LOUPE_RECORD_GOLDENS": "yes"]))
    #expect(!DiagnosticStream.recordsGoldens(environment: ["LOUPE_RECORD_GOLDENS": "0"]))
    #expect(!DiagnosticStream.recordsGoldens(environment: ["LOUPE_RECORD_GOLDENS": ""]))
    #expect(!DiagnosticStream.recordsGoldens(environment: [:]))
  }

  @Test func normalizingTakesOutWhatVariesBetweenRuns() async {
    // The same behaviour on a bus that has already seen another store and effect: other
    // identities, effect ids, times and session — and the same normalized stream.
    let bus = EventBus(program: "elsewhere", pid: 4242)
    bus.snapshotPolicy = .off  // as on a recorder's own bus: a late recorder would get one
    let busy = DiagnosticRecorder(attachingTo: bus)
    let other = Store(initialState: TimerFeature.State(), name: "Other", bus: bus, clock: TestClock()) { TimerFeature() }
    other.send(.startTapped).cancel()
    let late = DiagnosticRecorder(attachingTo: bus)
    _ = await timerRun(ticks: 2, recorder: late)
    let fresh = await timerRun(ticks: 2)

    let lateEvents = late.events
    let freshEvents = fresh.events.filter { $0.kind != SessionStarted.kind }
    #expect(lateEvents.map(\.seq) != freshEvents.map(\.seq))  // the busy bus numbered on
    #expect(TraceNormalizer.normalize(lateEvents) == TraceNormalizer.normalize(freshEvents))
    // Normalizing is idempotent, so a golden can be any trace, normalized or not.
    #expect(TraceNormalizer.normalize(TraceNormalizer.normalize(lateEvents)) == TraceNormalizer.normalize(lateEvents))
    #expect(TraceNormalizer.normalize(fresh.events).map(\.jsonText).prefix(3) == [
      #"{"seq":1,"time":0.0,"kind":"session.started","pid":0,"program":"program","protocolVersion":"1","startedAt":"1970-01-01T00:00:00.000Z"}"#,
      #"{"seq":2,"time":0.0,"kind":"identity.changed","store":"Timer","identity":"i1","previous":null,"reason":"created"}"#,
      #"{"seq":3,"time":0.0,"kind":"store.created","store":"Timer","type":"TimerFeature","parent":null,"identity":"i1"}"#,
    ])
    withExtendedLifetime((busy, other)) {}
  }
}
