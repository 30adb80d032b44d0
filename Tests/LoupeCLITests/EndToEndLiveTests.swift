import Foundation
import LoupeCore
import Testing
@testable import LoupeSession
import LoupeSession

/// `attach`, `record`, `replay` and `demo` with real programs: the built `loupe` binary
/// driving `loupe-examples probe` (a hidden scenario made for protocol tests).
@Suite struct EndToEndLiveTests {
  static let probe = ["probe"]

  func examples() throws -> String { try BuiltProducts.executable("loupe-examples") }

  /// Replaces what changes between runs (times, pids, dates, memory) with fixed text.
  static func normalized(_ text: String) -> String {
    var text = text
    let replacements: [(String, String)] = [
      (#"(?m)^ *[0-9]+\.[0-9]{3}ms"#, "   T.TTTms"),
      (#"pid [0-9]+"#, "pid P"),
      (#"started [0-9T:.\-]+Z"#, "started DATE"),
      (#"ms=[0-9]+ rssKB=[0-9]+"#, "ms=M rssKB=R"),
    ]
    for (pattern, replacement) in replacements {
      text = text.replacingOccurrences(of: pattern, with: replacement, options: .regularExpression)
    }
    return text
  }

  @Test func attachShowsEventsLiveAndExitsWithTheProgram() throws {
    let run = try BuiltProducts.run(
      "loupe", ["attach", "--", try examples(), "probe", "--burst", "2", "--hold", "--seconds", "0.2"])
    #expect(run.status == 0)
    Fixtures.expectGolden(Self.normalized(run.stdout), "probe.attach.txt")
    // The program's stderr passes through (under LOUPE=stdio its stdout is stderr).
    #expect(run.stderr.contains("probe: ready\n"))
  }

  @Test func attachFiltersOnTheServerAndPrintsJSON() throws {
    let run = try BuiltProducts.run(
      "loupe",
      ["attach", "--kind", "state.*", "--format", "json", "--", try examples(), "probe", "--burst", "3", "--hold", "--seconds", "0.2"])
    #expect(run.status == 0)
    // `state.*`: the store's two snapshots (at its creation, and when the probe's command sink
    // was attached after it) and its three changes.
    let kinds = try run.stdout.split(separator: "\n").map { try Event(jsonText: Array($0.utf8)).kind }
    #expect(kinds == ["state.snapshot", "state.snapshot", "state.changed", "state.changed", "state.changed"])
  }

  @Test func recordWritesACompleteTrace() throws {
    let dir = TemporaryDirectory()
    let trace = dir.file("probe.loupe")
    let run = try BuiltProducts.run(
      "loupe", ["record", trace, "--", try examples(), "probe", "--burst", "5", "--hold", "--seconds", "0.2"])
    #expect(run.status == 0)
    #expect(run.stdout == "")
    #expect(run.stderr.hasSuffix("note: recorded 17 events to \(trace)\n"))
    let reader = try TraceReader(path: trace)
    #expect(reader.header.program == "loupe-examples")
    let events = try reader.readAll()
    #expect(events.map(\.seq) == Array(1...17))  // 5 × (action, change) and two snapshots among them
    #expect(events.first?.kind == "session.started")
    #expect(reader.truncation == nil)
    // Recorded lines are the wire events, unchanged, and `show` reads them back.
    let changes = try BuiltProducts.run("loupe", ["show", trace, "--format", "changes"])
    #expect(changes.stdout == String(repeating: "Probe#1: _count changed.\n", count: 5))
  }

  @Test func aKilledProgramLeavesACompleteTraceAndItsStatus() throws {
    let dir = TemporaryDirectory()
    let trace = dir.file("killed.loupe")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: try BuiltProducts.executable("loupe"))
    process.arguments = ["attach", "--format", "json", "--record", trace, "--", try examples(), "probe", "--burst", "50", "--hold"]
    let out = Pipe()
    process.standardOutput = out
    process.standardError = FileHandle(forWritingAtPath: "/dev/null")
    try process.run()
    // Read the live events until the burst is done, then kill the program.
    var pid: Int32 = 0
    var buffer = Data()
    reading: while true {
      let chunk = out.fileHandleForReading.availableData
      if chunk.isEmpty { break }
      buffer += chunk
      for line in String(decoding: buffer, as: UTF8.self).split(separator: "\n") {
        if let event = try? Event(jsonText: Array(line.utf8)), case .sessionStarted(let started) = event.payload {
          pid = Int32(started.pid)
        }
        if line.contains("probe:burst-done") { break reading }
      }
    }
    #expect(pid > 0)
    kill(pid, SIGKILL)
    _ = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    #expect(process.terminationStatus == 128 + SIGKILL)
    let reader = try TraceReader(path: trace)
    let events = try reader.readAll()
    #expect(events.count == 106)  // session, identity, store, 2 snapshots, 50 × (action, change), burst-done
    #expect(reader.truncation == nil)
  }

  /// Regression: a program that printed garbage and ignored SIGTERM kept `loupe attach`
  /// waiting, silent, until it ended by itself (here: ten minutes).
  @Test(arguments: ["attach", "record"])
  func aProgramThatBreaksTheProtocolAndIgnoresSIGTERMIsKilled(command: String) async throws {
    let dir = TemporaryDirectory()
    // The issue's `trap '' TERM INT; echo garbage; sleep 600`, with the sleep's pid written down
    // (and its stderr away from ours) so that the test can end it once the shell is killed.
    let pidFile = dir.file("sleep.pid")
    let script = "trap '' TERM INT; echo garbage; sleep 600 2>/dev/null & echo $! > '\(pidFile)'; wait"
    let stubborn = ["--", "/bin/sh", "-c", script]
    let arguments = command == "attach" ? ["attach"] + stubborn : ["record", dir.file("x.loupe")] + stubborn
    let run = try await BuiltProducts.runDetached("loupe", arguments)
    if let pid = Int32((try? String(contentsOfFile: pidFile, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "") {
      kill(pid, SIGKILL)
    }
    #expect(run.status == 3)
    #expect(run.stderr.hasPrefix("Error: '/bin/sh' does not speak the Loupe protocol"))
    #expect(run.stderr.hasSuffix(" It ignored SIGTERM for 3 s, so loupe stopped it with SIGKILL.\n"))
  }

  @Test func programsThatDoNotSpeakTheProtocol() throws {
    // Output that is not LSP framing, from a program that is still running.
    let chatty = try BuiltProducts.run("loupe", ["attach", "--", "/bin/sh", "-c", "printf 'hello\\r\\n\\r\\n'; exec sleep 30"])
    #expect(chatty.status == 3)
    #expect(chatty.stderr.hasPrefix("Error: '/bin/sh' does not speak the Loupe protocol: its output is not LSP-framed JSON-RPC ("))
    let dir = TemporaryDirectory()
    let quiet = try BuiltProducts.run("loupe", ["record", dir.file("x.loupe"), "--", "/bin/true"])
    #expect(quiet.status == 3)
    #expect(
      quiet.stderr
        == "Error: '/bin/true' exited with status 0 before it answered 'initialize'. Is it built with Loupe, and does it create a store?\n")
    let missing = try BuiltProducts.run("loupe", ["attach", "--", "/nonexistent/app"])
    #expect(missing.status == 3)
    #expect(missing.stderr.hasPrefix("Error: Cannot launch '/nonexistent/app'"))
  }

  @Test func attachUsageErrors() async {
    let none = await loupe("attach")
    #expect(none.status == 2)
    #expect(
      none.stderr == """
        Error: Missing the program to run: '-- COMMAND [ARG...]' (or '--socket PATH')
        Usage: loupe attach [FILTER] [--record FILE] [--format text|json|changes] [--stdio] [--socket PATH | --tcp HOST:PORT [--token T] | -- COMMAND [ARG...]]
        See 'loupe attach --help'.

        """)
    let both = await loupe("attach", "--socket", "/tmp/x.sock", "--", "./App")
    #expect(both.stderr.hasPrefix("Error: Give either '--socket PATH' or a command to run, not both\n"))
    let stdio = await loupe("attach", "--stdio", "--format", "json", "--", "./App")
    #expect(stdio.stderr.hasPrefix("Error: '--format' does not apply to '--stdio': the editor receives the protocol\n"))
    let record = await loupe("record", "t.loupe")
    #expect(record.status == 2)
    #expect(record.stderr.hasPrefix("Error: Missing the program to run: '-- COMMAND [ARG...]' (or '--socket PATH')\n"))
  }

  @Test func recordingToAnUnwritablePlaceFailsBeforeLaunching() throws {
    let run = try BuiltProducts.run("loupe", ["record", "/nonexistent-dir/t.loupe", "--", try examples(), "probe"])
    #expect(run.status == 3)
    #expect(run.stderr == "Error: Cannot write the recording to '/nonexistent-dir/t.loupe': No such file or directory.\n")
  }

  @Test func aFullDiskStopsTheRecordingWithStatus3() throws {
    // /dev/full accepts opening and fails every write with ENOSPC.
    guard FileManager.default.fileExists(atPath: "/dev/full") else { return }
    let run = try BuiltProducts.run("loupe", ["record", "/dev/full", "--", try examples(), "probe", "--burst", "2", "--hold", "--seconds", "0.2"])
    #expect(run.status == 3)
    #expect(run.stderr.contains("loupe: recording stopped: Cannot write to '/dev/full': No space left on device.\n"))
    // The device is still a device: loupe opened it, it did not replace it with a file.
    let type = try FileManager.default.attributesOfItem(atPath: "/dev/full")[.type] as? FileAttributeType
    #expect(type == .typeCharacterSpecial)
  }

  @Test func attachToASocket() throws {
    let dir = TemporaryDirectory()
    let socket = dir.file("probe.sock")
    let program = Process()
    program.executableURL = URL(fileURLWithPath: try examples())
    program.arguments = ["probe", "--burst", "2", "--hold", "--seconds", "0.5"]
    program.environment = ["LOUPE": "unix:\(socket)"]
    let ready = Pipe()
    program.standardOutput = ready
    try program.run()
    // Wait (without sleeping) for "probe: ready", printed once the socket listens.
    var seen = ""
    while !seen.contains("probe: ready") {
      let chunk = ready.fileHandleForReading.availableData
      if chunk.isEmpty { break }
      seen += String(decoding: chunk, as: UTF8.self)
    }
    let run = try BuiltProducts.run("loupe", ["attach", "--socket", socket, "--format", "changes"])
    program.waitUntilExit()
    #expect(run.status == 0)
    #expect(run.stdout == "Probe#1: _count changed.\nProbe#1: _count changed.\n")
  }

  @Test func stdioBridgePassesTheProtocolThroughAndRecords() throws {
    let dir = TemporaryDirectory()
    let trace = dir.file("bridge.loupe")
    let frames = LSP.frames([
      ["jsonrpc": "2.0", "id": 1, "method": "initialize", "params": ["clientInfo": ["name": "editor"]]],
      ["jsonrpc": "2.0", "method": "initialized", "params": [:]],
      ["jsonrpc": "2.0", "id": 2, "method": "loupe/subscribe", "params": ["history": true, "filter": ["kinds": ["mark"]]]],
      ["jsonrpc": "2.0", "id": 3, "method": "loupe/mark", "params": ["label": "from the editor"]],
    ])
    let run = try BuiltProducts.run(
      "loupe", ["attach", "--stdio", "--record", trace, "--", try examples(), "probe", "--burst", "1", "--hold", "--seconds", "0.3"],
      stdin: frames, closeStdin: false)
    #expect(run.status == 0)
    let messages = try LSP.parse(Data(run.stdout.utf8))
    #expect(messages.first?["result"]?["serverInfo"]?["name"] == "loupe")
    let marks = messages.compactMap { $0["params"]?["events"]?.arrayValue }.flatMap { $0 }.compactMap { $0["label"]?.stringValue }
    // The editor's mark may come before or after the burst; the program's goodbye is last.
    #expect(
      Set(marks.map { $0.hasPrefix("probe:burst-done") ? "probe:burst-done" : $0 }) == ["probe:burst-done", "from the editor", "probe:bye"])
    #expect(marks.last == "probe:bye")
    #expect(messages.contains { $0["id"] == 3 && $0["result"]?["seq"] != nil })
    let recorded = try TraceReader(path: trace).readAll()
    #expect(recorded.compactMap { if case .mark(let m) = $0.payload { m.label } else { nil } }.count == 3)
  }

  @Test func stdioBridgeToASocketLeavesTheProgramRunning() throws {
    let dir = TemporaryDirectory()
    let socket = dir.file("probe.sock")
    let program = Process()
    program.executableURL = URL(fileURLWithPath: try examples())
    program.arguments = ["probe", "--hold", "--seconds", "600"]  // ended by the test; it must outlive any load
    program.environment = ["LOUPE": "unix:\(socket)"]
    let ready = Pipe()
    program.standardOutput = ready
    try program.run()
    defer { program.terminate() }
    var seen = ""
    while !seen.contains("probe: ready") {
      let chunk = ready.fileHandleForReading.availableData
      if chunk.isEmpty { break }
      seen += String(decoding: chunk, as: UTF8.self)
    }
    // The editor initializes, asks for the stores, and leaves with shutdown and exit.
    let frames = LSP.frames([
      ["jsonrpc": "2.0", "id": 1, "method": "initialize", "params": [:]],
      ["jsonrpc": "2.0", "id": 2, "method": "loupe/stores", "params": [:]],
      ["jsonrpc": "2.0", "id": 3, "method": "shutdown"],
      ["jsonrpc": "2.0", "method": "exit"],
    ])
    let run = try BuiltProducts.run("loupe", ["attach", "--stdio", "--socket", socket], stdin: frames, closeStdin: false)
    #expect(run.status == 0)
    let messages = try LSP.parse(Data(run.stdout.utf8))
    #expect(messages.map { $0["id"] } == [1, 2, 3])
    #expect(messages[2]["result"] == .null)
    #expect(messages[1]["result"]?["stores"]?.arrayValue?.first?["id"] == "Probe#1")
    #expect(program.isRunning)
  }
}

/// LSP framing for tests that talk to loupe as an editor would.
enum LSP {
  static func frames(_ messages: [JSON]) -> Data {
    var data = Data()
    for message in messages {
      let body = Data(message.jsonText.utf8)
      data += Data("Content-Length: \(body.count)\r\n\r\n".utf8) + body
    }
    return data
  }

  static func parse(_ data: Data) throws -> [JSON] {
    var messages: [JSON] = []
    var rest = Substring(String(decoding: data, as: UTF8.self))
    while let headerEnd = rest.range(of: "\r\n\r\n") {
      let header = rest[..<headerEnd.lowerBound]
      guard let length = Int(header.split(separator: ":").last?.trimmingCharacters(in: .whitespaces) ?? "") else { break }
      let bodyStart = headerEnd.upperBound
      let bytes = Array(rest[bodyStart...].utf8.prefix(length))
      messages.append(try JSONParser.parse(bytes))
      rest = Substring(String(decoding: Array(rest[bodyStart...].utf8.dropFirst(length)), as: UTF8.self))
    }
    return messages
  }
}
