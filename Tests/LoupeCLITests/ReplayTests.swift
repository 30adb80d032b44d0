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

    let count = try session.request(4, "loupe/state", ["store": "AppFeature#1/pages[id: 1]", "path": "count"])
    #expect(count["result"] == ["store": "AppFeature#1/pages[id: 1]", "seq": 65, "state": 3])
    let fontSize = try session.request(5, "loupe/state", ["store": "AppFeature#1", "path": "settings.fontSize"])
    #expect(fontSize["result"]?["state"] == 14)
    let whole = try session.request(6, "loupe/state", ["store": "AppFeature#1"])
    #expect(whole["error"]?["code"] == -32602)
    #expect(
      whole["error"]?["message"]
        == "The trace does not hold the state of 'AppFeature#1': traces record changes, not whole states (ask for a path that an action changed)")
    let detail = try session.request(7, "loupe/state", ["store": "AppFeature#1", "path": "detail.text"])
    #expect(detail["error"]?["message"] == "Store 'AppFeature#1' has no value at path 'detail.text' at the end of the trace")

    let mark = try session.request(8, "loupe/mark", ["label": "reviewed"])
    #expect(mark["result"] == ["seq": 66])
    let marked = try session.receive()
    #expect(marked["params"]?["events"] == [["seq": 66, "time": 4300.03, "kind": "mark", "label": "reviewed"]])

    let shutdown = try session.request(9, "shutdown", nil)
    #expect(shutdown["result"] == .null)
    session.notify("exit", nil)
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
