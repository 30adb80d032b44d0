import Foundation
import LoupeCore
import Testing

/// `loupe replay`, driven the way an editor drives it.
@Suite struct ReplayTests {
  @Test func servesATraceAsIfLive() throws {
    let session = try LSPSession(["replay", Fixtures.path("pages.loupe")])
    let initialized = try session.request(1, "initialize", ["clientInfo": ["name": "editor"]])
    #expect(initialized["result"]?["serverInfo"] == ["name": "loupe replay", "version": "0.1.0"])
    #expect(initialized["result"]?["process"] == ["pid": 4242, "name": "PagesDemo"])
    session.notify("initialized", [:])

    let subscribed = try session.request(2, "loupe/subscribe", ["history": true, "filter": ["kinds": ["effect.*"]]])
    #expect(subscribed["result"] == ["history": 10])  // 9 effect events and the dropped one
    var seqs: [Int] = []
    while seqs.count < 10 {
      let message = try session.receive()
      for event in message["params"]?["events"]?.arrayValue ?? [] { seqs.append(event["seq"]!.intValue!) }
    }
    #expect(seqs == [10, 26, 27, 35, 36, 45, 46, 55, 59, 62])

    let stores = try session.request(3, "loupe/stores", [:])
    #expect(
      stores["result"]?["stores"]?.arrayValue?.compactMap { $0["id"]?.stringValue } == [
        "AppFeature#1", "AppFeature#1/pages[id: 1]", "AppFeature#1/pages[id: 2]",
      ])

    // A trace from before state snapshots: rebuilt from what the changes wrote, approximate.
    let count = try session.request(4, "loupe/state", ["store": "AppFeature#1/pages[id: 1]", "path": "count"])
    #expect(count["result"] == ["store": "AppFeature#1/pages[id: 1]", "seq": 65, "state": 3, "approximate": true])
    let fontSize = try session.request(5, "loupe/state", ["store": "AppFeature#1", "path": "settings.fontSize", "at": 40])
    #expect(fontSize["result"] == ["store": "AppFeature#1", "seq": 40, "state": 14, "approximate": true])
    let whole = try session.request(6, "loupe/state", ["store": "AppFeature#1/pages[id: 2]", "at": 30])
    #expect(whole["result"]?["state"] == ["id": 2, "isVisible": true])
    let detail = try session.request(7, "loupe/state", ["store": "AppFeature#1", "path": "detail.text"])
    #expect(detail["error"] == ["code": -32602, "message": "AppFeature#1 has no value at 'detail.text' right after #65 ('detail' is nil)"])
    let mark = try session.request(8, "loupe/mark", ["label": "reviewed"])
    #expect(mark["result"] == ["seq": 66])
    let marked = try session.receive()
    #expect(marked["params"]?["events"] == [["seq": 66, "time": 4300.03, "kind": "mark", "label": "reviewed"]])

    let shutdown = try session.request(9, "shutdown", nil)
    #expect(shutdown["result"] == .null)
    session.notify("exit", nil)
    #expect(session.waitForExit() == 0)
  }

  /// `loupe/state` with `at`, for any seq of a trace with snapshots, over real pipes: the same
  /// states `loupe state --format json` prints.
  @Test func answersStateAtAnySeq() throws {
    let path = Fixtures.path("state.loupe")
    let session = try LSPSession(["replay", path])
    _ = try session.request(1, "initialize", [:])
    var id = 1
    for seq in 5...26 {  // both pages exist from #5
      for store in ["AppFeature#1", "AppFeature#1/pages[id: 1]", "AppFeature#1/pages[id: 2]"] {
        id += 1
        let answer = try session.request(id, "loupe/state", ["store": .string(store), "at": .int(seq)])
        let printed = try BuiltProducts.run("loupe", ["state", path, "--store", store, "--at", String(seq), "--format", "json"])
        let expected = try JSONParser.parse(Array(printed.stdout.utf8))
        #expect(answer["result"]?["state"] == expected, "\(store) at #\(seq)")
        #expect(answer["result"]?["seq"] == .int(seq))
        #expect(answer["result"]?["approximate"] == (seq >= 26 ? true : nil), "\(store) at #\(seq)")
      }
    }
    let sheet = try session.request(100, "loupe/state", ["store": "AppFeature#1/detail", "at": 18, "path": "text"])
    #expect(sheet["result"] == ["store": "AppFeature#1/detail", "seq": 18, "state": "Hi"])
    // What it cannot answer: -32602 saying what is missing (protocol/errors.md).
    let errors: [(JSON, String)] = [
      (["store": "AppFeature#1", "at": 99], "No event #99 in the trace: its events are #1–#26"),
      (["store": "AppFeature#1/detail", "at": 22], "No store 'AppFeature#1/detail' is alive right after #22: AppFeature#1/detail (alive #16–#21)"),
      (["store": "AppFeature#1", "at": 2], "Nothing of AppFeature#1's state is known right after #2: its first state.snapshot is #3, and no state.changed of it or its scoped stores came before"),
      (["store": "AppFeature#1", "at": "end"], "loupe/state params: 'at' must be an integer, not string"),
      (["store": "AppFeature#1", "at": -1], "loupe/state params: 'at' must be a seq (an integer from 0), not -1"),
      (["store": "AppFeature#1", "path": "pages[9]"], "AppFeature#1 has no value at 'pages[9]' right after #26 ('pages' is a list of 2)"),
    ]
    for (offset, (params, message)) in errors.enumerated() {
      let answer = try session.request(200 + offset, "loupe/state", params)
      #expect(answer["error"] == ["code": -32602, "message": .string(message)], "\(params)")
    }
    #expect(session.waitForExit() == 0)
  }

  @Test func eventsPassThroughUnchangedWithoutHistory() throws {
    let path = Fixtures.path("counter.loupe")
    let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").dropFirst()
    let session = try LSPSession(["replay", path])
    _ = try session.request(1, "initialize", [:])
    let subscribed = try session.request(2, "loupe/subscribe", [:])
    #expect(subscribed["result"] == ["history": 0])
    var events: [JSON] = []
    while events.count < lines.count {
      events += try session.receive()["params"]?["events"]?.arrayValue ?? []
    }
    #expect(events.map(\.jsonText) == lines.map(String.init))
    session.close()
    #expect(session.waitForExit() == 0)
  }

  @Test func refusesWhatIsNotATrace() throws {
    let run = try BuiltProducts.run("loupe", ["replay", Fixtures.path("foreign.json")])
    #expect(run.status == 3)
    #expect(run.stdout == "")
    #expect(run.stderr.hasPrefix("Error: '\(Fixtures.path("foreign.json"))' is not a Loupe trace"))
  }
}

/// A running `loupe` spoken to over LSP-framed JSON-RPC, one message at a time.
final class LSPSession {
  let process = Process()
  let input = Pipe()
  let output = Pipe()
  private var buffer = Data()

  init(_ arguments: [String]) throws {
    process.executableURL = URL(fileURLWithPath: try BuiltProducts.executable("loupe"))
    process.arguments = arguments
    process.standardInput = input
    process.standardOutput = output
    process.standardError = FileHandle(forWritingAtPath: "/dev/null")
    try process.run()
  }

  func send(_ message: JSON) {
    input.fileHandleForWriting.write(LSP.frames([message]))
  }

  func notify(_ method: String, _ params: JSON?) {
    var message: JSONObject = ["jsonrpc": "2.0", "method": .string(method)]
    if let params { message.append("params", params) }
    send(.object(message))
  }

  /// Sends a request and returns its answer, skipping notifications that come first.
  func request(_ id: Int, _ method: String, _ params: JSON?) throws -> JSON {
    var message: JSONObject = ["jsonrpc": "2.0", "id": .int(id), "method": .string(method)]
    if let params { message.append("params", params) }
    send(.object(message))
    while true {
      let reply = try receive()
      if reply["id"] == .int(id) { return reply }
    }
  }

  struct Closed: Error {}

  /// The next message (blocks until it has arrived).
  func receive() throws -> JSON {
    while true {
      if let headerEnd = buffer.range(of: Data("\r\n\r\n".utf8)) {
        let header = String(decoding: buffer[..<headerEnd.lowerBound], as: UTF8.self)
        let length = Int(header.split(separator: ":").last!.trimmingCharacters(in: .whitespaces))!
        if buffer.count - headerEnd.upperBound >= length {
          let body = buffer[headerEnd.upperBound..<(headerEnd.upperBound + length)]
          buffer = Data(buffer[(headerEnd.upperBound + length)...])
          return try JSONParser.parse(Array(body))
        }
      }
      let chunk = output.fileHandleForReading.availableData
      if chunk.isEmpty { throw Closed() }
      buffer += chunk
    }
  }

  func close() { try? input.fileHandleForWriting.close() }

  func waitForExit() -> Int32 {
    close()
    process.waitUntilExit()
    return process.terminationStatus
  }
}
