import Foundation
import LoupeCore
import Testing

/// CONTRACT §10 end to end, over real processes: `loupe record` a run of `loupe-examples
/// todos` whose every step marks the moment and writes the state the program really held
/// (`--state-log`); then `loupe state --at` each mark prints exactly that state, and `loupe
/// replay` answers `loupe/state` with `at` the same, over JSON-RPC on real pipes.
@Suite struct StateEndToEndTests {
  struct Logged {
    var seq: Int
    var store: String
    var state: JSON
  }

  /// Records the todos story with a state log; returns the trace and what the program held.
  static func record(in directory: TemporaryDirectory) async throws -> (trace: String, logged: [Logged]) {
    let trace = directory.file("todos.loupe")
    let log = directory.file("states.jsonl")
    let examples = try BuiltProducts.executable("loupe-examples")
    // `--once`: the whole story (typing, a search, edits, a rename, a bulk edit), however busy
    // the machine; 40 to-dos keep the states small enough to compare whole.
    let run = try await BuiltProducts.runDetached(
      "loupe",
      ["record", trace, "--", examples, "todos", "--todos", "40", "--once", "--seconds", "1", "--speed", "8", "--state-log", log])
    #expect(run.status == 0, "stderr: \(run.stderr)")
    let text = try String(contentsOfFile: log, encoding: .utf8)
    let logged = try text.split(separator: "\n").map { line in
      let json = try JSONParser.parse(Array(line.utf8))
      return Logged(seq: json["seq"]!.intValue!, store: json["store"]!.stringValue!, state: json["state"]!)
    }
    return (trace, logged)
  }

  @Test func loupeStateAndReplayGiveWhatTheProgramHeld() async throws {
    let directory = TemporaryDirectory()
    let (trace, logged) = try await Self.record(in: directory)
    // The start and each of the story's 12 steps.
    #expect(logged.count == 13)
    #expect(Set(logged.map(\.store)) == ["TodosFeature#1"])
    // The moments differ: the query is typed, results come, a to-do is ticked and renamed…
    #expect(Set(logged.map(\.state)).count >= 8)
    let snapshots = try BuiltProducts.run("loupe", ["show", trace, "--kind", "state.snapshot", "--format", "json"])
    #expect(!snapshots.stdout.isEmpty, "the store snapshots its state when it is created (CONTRACT §10)")

    for moment in logged {
      let run = try await BuiltProducts.runDetached(
        "loupe", ["state", trace, "--store", moment.store, "--at", String(moment.seq), "--format", "json"])
      #expect(run.status == 0, "#\(moment.seq): \(run.stderr)")
      #expect(run.stderr == "", "#\(moment.seq): exact, not approximate")
      #expect(try JSONParser.parse(Array(run.stdout.utf8)) == moment.state, "#\(moment.seq)")
    }
    // The text form of one moment, for a reader: the same value as a tree.
    let last = try #require(logged.last)
    let text = try BuiltProducts.run("loupe", ["state", trace, "--store", last.store, "--at", String(last.seq), "--path", "query"])
    #expect(text.stdout == "\(last.store) query right after #\(last.seq):\n\(ValueText.compact(last.state["query"]!))\n")

    // `loupe replay` answers `loupe/state` with `at` for every moment, the same way.
    let session = try LSPSession(["replay", trace])
    _ = try session.request(1, "initialize", [:])
    for (offset, moment) in logged.enumerated() {
      let answer = try session.request(
        10 + offset, "loupe/state", ["store": .string(moment.store), "at": .int(moment.seq)])
      #expect(answer["result"] == ["store": .string(moment.store), "seq": .int(moment.seq), "state": moment.state], "#\(moment.seq)")
    }
    let titles = try session.request(
      99, "loupe/state", ["store": .string(last.store), "at": .int(last.seq), "path": "database.todos[0].title"])
    #expect(titles["result"]?["state"] == StateRebuilder.value(in: last.state, at: "database.todos[0].title"))
    _ = try session.request(100, "shutdown", nil)
    session.notify("exit", nil)
    #expect(session.waitForExit() == 0)
  }
}
