import Foundation
import LoupeCore
import Testing

/// An editor may write a whole session — requests, `shutdown`, `exit` — before it reads a
/// single answer, or write its requests and close its end. Every request must still be
/// answered, in order, and the events a subscription was given must still arrive, before
/// loupe exits. Over real pipes, with the built binary.
@Suite struct WholeSessionAtOnceTests {
  /// How the editor ends its session.
  enum Ending: CaseIterable, CustomStringConvertible {
    /// `shutdown`, then `exit`; stdin stays open until loupe has exited.
    case exit
    /// `shutdown`, then stdin is closed without `exit`.
    case closeInput

    var description: String { self == .exit ? "exit" : "closeInput" }
  }

  /// Initialize, subscribe with history and a filter, stores, state, shutdown (then exit).
  static func session(state: JSON, ending: Ending) -> Data {
    var messages: [JSON] = [
      ["jsonrpc": "2.0", "id": 1, "method": "initialize", "params": ["clientInfo": ["name": "editor"]]],
      ["jsonrpc": "2.0", "method": "initialized", "params": [:]],
      ["jsonrpc": "2.0", "id": 2, "method": "loupe/subscribe", "params": ["history": true, "filter": ["kinds": ["state.changed", "mark"]]]],
      ["jsonrpc": "2.0", "id": 3, "method": "loupe/stores"],
      ["jsonrpc": "2.0", "id": 4, "method": "loupe/state", "params": state],
      ["jsonrpc": "2.0", "id": 5, "method": "shutdown"],
    ]
    if ending == .exit { messages.append(["jsonrpc": "2.0", "method": "exit"]) }
    return LSP.frames(messages)
  }

  /// A trace of `count` changes of `Big#1`'s `count`, big enough that its history is still
  /// being written when the editor's last message arrives.
  static func bigTrace(events count: Int, in dir: TemporaryDirectory) throws -> String {
    var text = #"{"format":"loupe-trace","version":1,"program":"Big","pid":7,"startedAt":"2026-11-22T10:00:00.000Z"}"# + "\n"
    text += #"{"seq":1,"time":0.0,"kind":"store.created","store":"Big#1","type":"Big","parent":null,"identity":"i1"}"# + "\n"
    for n in 1...count {
      text += #"{"seq":\#(n + 1),"time":\#(n).0,"kind":"state.changed","store":"Big#1","cause":1,"#
      text += #""changes":[{"path":"count","op":"replace","old":\#(n - 1),"new":\#(n)}],"summary":"Big#1: _count changed."}"# + "\n"
    }
    let path = dir.file("big.loupe")
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  @Test(arguments: Ending.allCases)
  func replayAnswersEveryRequestInOrderAndSendsTheWholeHistory(ending: Ending) throws {
    let dir = TemporaryDirectory()
    let count = 20_000
    let trace = try Self.bigTrace(events: count, in: dir)
    let run = try BuiltProducts.run(
      "loupe", ["replay", trace], stdin: Self.session(state: ["store": "Big#1", "path": "count"], ending: ending),
      closeStdin: ending == .closeInput)
    #expect(run.status == 0)
    #expect(run.stderr == "")
    let messages = try LSP.parse(Data(run.stdout.utf8))
    let answers = messages.filter { $0["id"] != nil }
    #expect(answers.map { $0["id"] } == [1, 2, 3, 4, 5])
    #expect(answers.dropFirst().first?["result"] == ["history": .int(count)])
    #expect(answers.dropFirst(2).first?["result"]?["stores"]?.arrayValue?.map { $0["id"] } == ["Big#1"])
    // The trace has no state.snapshot: rebuilt from its changes, approximate (CONTRACT §10).
    #expect(answers.dropFirst(3).first?["result"] == ["store": "Big#1", "seq": .int(count + 1), "state": .int(count), "approximate": true])
    #expect(answers.last?["result"] == .null)
    let seqs = messages.compactMap { $0["params"]?["events"]?.arrayValue }.flatMap { $0 }.compactMap { $0["seq"]?.intValue }
    #expect(seqs == Array(2...(count + 1)))
  }

  @Test(arguments: Ending.allCases)
  func theStdioBridgeDeliversEveryAnswerAndTheHistory(ending: Ending) throws {
    let examples = try BuiltProducts.executable("loupe-examples")
    let run = try BuiltProducts.run(
      "loupe", ["attach", "--stdio", "--", examples, "probe", "--burst", "200", "--hold", "--seconds", "0.5"],
      stdin: Self.session(state: ["store": "Probe#1", "path": "count"], ending: ending), closeStdin: ending == .closeInput)
    #expect(run.status == 0)
    let messages = try LSP.parse(Data(run.stdout.utf8))
    let answers = messages.filter { $0["id"] != nil }
    // The program answers in order too: `shutdown` waits for the `loupe/state` before it.
    #expect(answers.map { $0["id"] } == [1, 2, 3, 4, 5])
    let history = try #require(answers.dropFirst().first?["result"]?["history"]?.intValue)
    // The history, and the live events queued before `shutdown`, all arrive.
    let events = messages.compactMap { $0["params"]?["events"]?.arrayValue }.flatMap { $0 }
    #expect(events.count >= history)
    let seqs = events.compactMap { $0["seq"]?.intValue }
    #expect(seqs == seqs.sorted())
    let kinds = Set(events.compactMap { $0["kind"]?.stringValue })
    #expect(kinds.isSubset(of: ["state.changed", "mark"]))
  }
}
