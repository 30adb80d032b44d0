import Foundation
import LoupeClient
import LoupeCore
import LoupeRPC
import LoupeSession
import Testing

/// Control from the tools (CONTRACT §16) end to end: the real `loupe-examples` binary acted
/// on through its socket by `loupe send`, `loupe set-state` and `loupe replay-actions`.
@Suite struct ControlEndToEndTests {
  /// An idle program ends when its time is up (seconds of wall time), so it gets the longest
  /// there is: the tests stop it themselves. With 120 s, a CI run of the whole suite beside
  /// stress-ng reached `loupe send` 126 s in and found the program gone.
  static let todos = ["todos", "--todos", "20", "--seconds", "3600", "--speed", "20"]
  /// The program a recording made at 20× speed is replayed into: its search answers after
  /// 3 s (0.1×), so the replay, paced by the recording, sends the next keystroke before a
  /// search the recording saw cancelled can answer, even on a machine so busy that the
  /// replay stalls for seconds (CI's run of the whole suite beside stress-ng).
  static let slowTodos = ["todos", "--todos", "20", "--seconds", "3000", "--speed", "0.1"]

  @Test func withoutLOUPE_CONTROLTheProgramRefusesAndNothingHappens() async throws {
    let dir = TemporaryDirectory()
    let program = try await IdleProgram.start(Self.todos, socket: dir.file("todos.sock"), control: false)
    let run = await loupe("send", "--socket", program.socket, "TodosFeature#1", #"{"queryChanged":"pay"}"#)
    #expect(run.status == 3)
    #expect(
      run.stderr
        == "Error: Control not allowed: loupe/send acts on the program, which it allows only when started with LOUPE_CONTROL=1 (or Inspector.shared.configuration.allowsControl = true)\n")
    let client = try await program.client()
    #expect(try await client.send(StateRequest(store: "TodosFeature#1", path: "query")).state == "")
    client.close()
    await program.stop()
  }

  @Test func anActionSentByLoupeSendReachesAnotherClientWithOriginTool() async throws {
    let dir = TemporaryDirectory()
    let program = try await IdleProgram.start(Self.todos, socket: dir.file("todos.sock"))
    let watcher = try await program.client(named: "watcher")
    _ = try await watcher.subscribe(SubscribeRequest(filter: EventFilter(kinds: [Glob("action.received")]), history: false))
    let before = try await watcher.send(StateRequest(store: "TodosFeature#1", path: "database.todos[id: 3].isDone")).state

    let run = await loupe("send", "--socket", program.socket, "TodosFeature#1", #"{"toggleDoneTapped":3}"#)
    #expect(run.status == 0)
    #expect(run.stdout.hasPrefix("sent to TodosFeature#1 as #"))
    var seen: ActionReceived?
    for await event in watcher.events {
      if case .actionReceived(let received) = event.payload {
        seen = received
        break
      }
    }
    #expect(seen?.action == "TodosFeature.Action.toggleDoneTapped")
    #expect(seen?.value == ["toggleDoneTapped": 3])
    #expect(seen?.origin == .tool)
    #expect(seen?.client == "loupe send")
    let after = try await watcher.send(StateRequest(store: "TodosFeature#1", path: "database.todos[id: 3].isDone")).state
    #expect(after == .bool(!(before.boolValue ?? true)))
    watcher.close()
    await program.stop()
  }

  @Test func anActionThatDoesNotDecodeIsRefusedNamingTheTypeAndThePart() async throws {
    let dir = TemporaryDirectory()
    let program = try await IdleProgram.start(Self.todos, socket: dir.file("todos.sock"))
    let run = await loupe("send", "--socket", program.socket, "TodosFeature#1", #"{"toggleDoneTapped":"three"}"#)
    #expect(run.status == 3)
    #expect(run.stderr.hasPrefix("Error: Cannot decode TodosFeature.Action"))
    #expect(run.stderr.contains("toggleDoneTapped"))
    let unknown = await loupe("send", "--socket", program.socket, "TodosFeature#1", "fooTapped")
    #expect(unknown.status == 3)
    #expect(unknown.stderr.contains("fooTapped"))
    await program.stop()
  }

  /// A todos run recorded at 20× speed, start to end.
  static func recordTodos(in dir: TemporaryDirectory) async throws -> String {
    let trace = dir.file("todos.loupe")
    let run = try await BuiltProducts.runDetached(
      "loupe-examples", ["todos", "--todos", "20", "--once", "--speed", "20", "--seconds", "1", "--quiet"],
      environment: ["LOUPE_RECORD": trace])
    #expect(run.status == 0)
    return trace
  }

  @Test func setStateLoadsAStateThatLoupeStatePrintedFromARecording() async throws {
    let dir = TemporaryDirectory()
    let trace = try await Self.recordTodos(in: dir)
    // The moment right after the recording's fifth action the user sent.
    let sent = try TraceReader(path: trace).readAll().filter {
      if case .actionReceived(let received) = $0.payload { received.origin == .send } else { false }
    }
    let seq = try #require(sent.dropFirst(4).first).seq
    let printed = await loupe("state", trace, "--store", "TodosFeature#1", "--at", "\(seq)", "--format", "json")
    #expect(printed.status == 0)
    let stateFile = dir.file("state.json")
    try printed.stdout.write(toFile: stateFile, atomically: true, encoding: .utf8)

    let program = try await IdleProgram.start(Self.todos, socket: dir.file("todos.sock"))
    let run = await loupe("set-state", "--socket", program.socket, "TodosFeature#1", "@" + stateFile)
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout.hasPrefix("state of TodosFeature#1 set at #"))
    let client = try await program.client()
    let now = try await client.send(StateRequest(store: "TodosFeature#1")).state
    #expect(now == (try JSONParser.parse(printed.stdout)))
    client.close()
    await program.stop()
  }

  @Test func replayActionsMatchesTheSameBuildAndFindsTheFirstDifferenceOfAChangedReducer() async throws {
    let dir = TemporaryDirectory()
    let trace = try await Self.recordTodos(in: dir)

    let same = try await IdleProgram.start(Self.slowTodos, socket: dir.file("same.sock"))
    let matched = await loupe("replay-actions", trace, "--socket", same.socket, "--wait", "300")
    await same.stop()
    #expect(matched.status == 0, "\(matched.stdout)\(matched.stderr)")
    #expect(matched.stdout.hasPrefix("Replaying "))
    #expect(matched.stdout.hasSuffix("The program's state matched the recording's after each of \(matched.stdout.split(separator: "\n").count - 2) actions.\n"))

    let mutant = try await IdleProgram.start(Self.slowTodos + ["--mutant"], socket: dir.file("mutant.sock"))
    let differs = await loupe("replay-actions", trace, "--socket", mutant.socket, "--wait", "300")
    await mutant.stop()
    #expect(differs.status == 1, "\(differs.stdout)\(differs.stderr)")
    let lines = differs.stdout.split(separator: "\n").map(String.init)
    #expect(lines.dropLast(2).last?.hasSuffix("TodosFeature.Action.renamed  differs") == true)
    #expect(lines.last?.hasPrefix("  TodosFeature#1 database.todos[id: ") == true)
    #expect(lines.last?.contains(".title: recorded \"") == true)
  }
}
