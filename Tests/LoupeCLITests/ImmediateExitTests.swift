import Foundation
import LoupeCore
import Testing
@testable import LoupeCLI
@testable import LoupeSession
import LoupeSession

/// A program that emits a burst and exits at once, before loupe has initialized or
/// subscribed: `record` and `attach` still get every event and exit with the program's status
/// (CONTRACT §2: no event is lost to a race between a program's start and a client that
/// `loupe attach` launched with it). Each test repeats the race a few times.
@Suite struct ImmediateExitTests {
  static let iterations = 3

  func examples() throws -> String { try BuiltProducts.executable("loupe-examples") }

  @Test func recordGetsEveryEvent() throws {
    for _ in 0..<Self.iterations {
      let dir = TemporaryDirectory()
      let trace = dir.file("burst.loupe")
      let run = try BuiltProducts.run("loupe", ["record", trace, "--", try examples(), "probe", "--burst", "5", "--exit-status", "4"])
      #expect(run.status == 4)
      #expect(run.stderr.hasSuffix("note: recorded 17 events to \(trace)\n"), "\(run.stderr)")
      let reader = try TraceReader(path: trace)
      let events = try reader.readAll()
      // session.started, identity.changed, store.created, state.snapshot, another snapshot (the
      // probe's command sink attached after the store), 5 × (action, change), burst-done, bye.
      #expect(events.map(\.seq) == Array(1...17))
      #expect(events.filter { $0.kind == "state.changed" }.count == 5)
      #expect(events.last.flatMap { if case .mark(let mark) = $0.payload { mark.label } else { nil } } == "probe:bye")
      #expect(reader.truncation == nil)
    }
  }

  @Test func attachPrintsEveryEvent() throws {
    for _ in 0..<Self.iterations {
      let run = try BuiltProducts.run("loupe", ["attach", "--format", "json", "--", try examples(), "probe", "--burst", "5"])
      #expect(run.status == 0, "\(run.stderr)")
      let events = try run.stdout.split(separator: "\n").map { try Event(jsonText: Array($0.utf8)) }
      #expect(events.map(\.seq) == Array(1...17))  // as above, with the two snapshots
      #expect(events.first?.kind == "session.started")
      #expect(events.filter { $0.kind == "action.received" }.count == 5)
      #expect(run.stderr.contains("probe: burst-done\n"))
    }
  }
}

@Suite struct HandshakeFailureTests {
  @Test func saysWhichAnswerNeverCame() {
    #expect(
      AttachSession.handshakeFailure(name: "./App", error: .connectionClosed(.endOfInput), ended: .exited(0))
        == "'./App' exited with status 0 before it answered 'initialize'. Is it built with Loupe, and does it create a store?")
    #expect(
      AttachSession.handshakeFailure(
        name: "./App", request: "loupe/subscribe", error: .connectionClosed(.endOfInput), ended: .exited(0))
        == "'./App' exited with status 0 before it answered 'loupe/subscribe' (is its LOUPE_EXIT_TIMEOUT too short?).")
    #expect(
      AttachSession.handshakeFailure(name: "./App", request: "loupe/subscribe", error: .connectionClosed(.endOfInput), ended: nil)
        == "The connection to './App' closed before it answered 'loupe/subscribe'.")
  }
}
