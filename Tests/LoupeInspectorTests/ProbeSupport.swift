import Foundation
@testable import Loupe
@testable import LoupeClient
import LoupeCore
import LoupeRPC
import Testing

/// Finds and runs `loupe-examples probe` for the end-to-end tests.
enum Probe {
  /// The built `loupe-examples`, next to the test bundle (or in `.build/debug`).
  static let executable: String = {
    var candidates: [URL] = []
    if let testBinary = CommandLine.arguments.first {
      var directory = URL(fileURLWithPath: testBinary).deletingLastPathComponent()
      for _ in 0..<4 {
        candidates.append(directory.appendingPathComponent("loupe-examples"))
        directory.deleteLastPathComponent()
      }
    }
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    candidates.append(root.appendingPathComponent(".build/debug/loupe-examples"))
    return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }?.path
      ?? "loupe-examples (not built: run `swift build --build-tests` first)"
  }()

  /// Launches the probe with `LOUPE=stdio` through the real client.
  static func launchStdio(_ arguments: [String], environment: [String: String] = [:], stderr: FileHandle? = nil) throws
    -> LoupeClient
  {
    var env = ProcessInfo.processInfo.environment
    env["LOUPE"] = nil
    env["LOUPE_RECORD"] = nil
    for (key, value) in environment { env[key] = value }
    return try LoupeClient.launch([executable, "probe"] + arguments, environment: env, stderr: stderr ?? devNull)
  }

  static let devNull = FileHandle(forWritingAtPath: "/dev/null")

  /// ``launchStdio(_:environment:stderr:)``, returning once the probe has said `probe: ready`
  /// (on its stderr under `LOUPE=stdio`): its command sink is attached only after its store
  /// (and so the inspector) exists, and a `probe:` mark sent before then would be lost — a
  /// race a slow machine (or ThreadSanitizer) wins. The rest of its stderr is drained on a
  /// thread of its own.
  static func launchStdioReady(_ arguments: [String], environment: [String: String] = [:]) async throws -> LoupeClient {
    let stderr = Pipe()
    let client = try launchStdio(arguments, environment: environment, stderr: stderr.fileHandleForWriting)
    try stderr.fileHandleForWriting.close()
    try await waitForLine("probe: ready", in: stderr.fileHandleForReading)
    let rest = stderr.fileHandleForReading
    Thread { while !rest.availableData.isEmpty {} }.start()
    return client
  }

  /// A probe with `LOUPE=unix:PATH`, started and ready (it said so on stdout).
  final class Listening: Sendable {
    let process: Process
    let socketPath: String

    /// Launches the probe and waits (on a thread of its own) until it says its socket is
    /// listening. `descriptorLimit` runs it under `ulimit -n`.
    static func start(
      _ arguments: [String] = ["--hold"], environment: [String: String] = [:], descriptorLimit: Int? = nil
    ) async throws -> Listening {
      let probe = try Listening(arguments, environment: environment, descriptorLimit: descriptorLimit)
      try await Probe.waitForLine("probe: ready", in: probe.output)
      return probe
    }

    private init(_ arguments: [String], environment: [String: String], descriptorLimit: Int?) throws {
      socketPath = Probe.temporaryPath("sock")
      process = Process()
      if let descriptorLimit {
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "ulimit -n \(descriptorLimit) && exec \"$0\" \"$@\"", Probe.executable, "probe"] + arguments
      } else {
        process.executableURL = URL(fileURLWithPath: Probe.executable)
        process.arguments = ["probe"] + arguments
      }
      var env = ProcessInfo.processInfo.environment
      env["LOUPE"] = "unix:\(socketPath)"
      env["LOUPE_RECORD"] = nil
      for (key, value) in environment { env[key] = value }
      process.environment = env
      let stdout = Pipe()
      process.standardOutput = stdout
      process.standardError = Probe.devNull
      try process.run()
      output = stdout.fileHandleForReading
    }

    /// The probe's stdout (`probe: …` progress lines).
    let output: FileHandle

    func connect() async throws -> LoupeClient {
      let client = try LoupeClient.connect(socketPath: socketPath)
      _ = try await client.initialize(clientName: "tests")
      return client
    }

    /// Waits for the probe to exit, on a thread of its own; returns its status.
    func waitForExit() async -> Int32 {
      await withCheckedContinuation { continuation in
        Thread {
          self.process.waitUntilExit()
          continuation.resume(returning: self.process.terminationStatus)
        }.start()
      }
    }

    deinit {
      if process.isRunning { process.terminate() }
      try? FileManager.default.removeItem(atPath: socketPath)
    }
  }

  /// Waits until `line` appears in what `handle` reads (the probe's progress lines), reading
  /// on a thread of its own so that no test holds one of the shared threads meanwhile.
  static func waitForLine(_ line: String, in handle: FileHandle) async throws {
    try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
      Thread {
        var seen = Data()
        while !String(decoding: seen, as: UTF8.self).contains(line + "\n") {
          let chunk = handle.availableData
          if chunk.isEmpty {
            return continuation.resume(throwing: InspectorError("the probe ended before saying '\(line)'"))
          }
          seen.append(chunk)
        }
        continuation.resume()
      }.start()
    }
  }

  /// A short unique path in the temporary directory (socket paths must stay under 108 bytes).
  static func temporaryPath(_ suffix: String) -> String {
    "/tmp/loupe-test-\(UUID().uuidString.prefix(8)).\(suffix)"
  }
}

/// Reads events from a client's stream in order.
struct EventReader {
  var iterator: AsyncStream<Event>.Iterator

  init(_ client: LoupeClient) { iterator = client.events.makeAsyncIterator() }

  /// Events up to and including the first that satisfies `stop`; fails the test if the stream
  /// ends first.
  mutating func read(until stop: (Event) -> Bool, sourceLocation: SourceLocation = #_sourceLocation) async -> [Event] {
    var events: [Event] = []
    while let event = await iterator.next() {
      events.append(event)
      if stop(event) { return events }
    }
    Issue.record("The event stream ended before the expected event", sourceLocation: sourceLocation)
    return events
  }

  mutating func read(count: Int) async -> [Event] {
    var events: [Event] = []
    while events.count < count, let event = await iterator.next() { events.append(event) }
    return events
  }

  /// Everything until the stream ends.
  mutating func readToEnd() async -> [Event] {
    var events: [Event] = []
    while let event = await iterator.next() { events.append(event) }
    return events
  }
}

extension Event {
  var markLabel: String? {
    if case .mark(let mark) = payload { mark.label } else { nil }
  }

  func isMark(_ prefix: String) -> Bool { markLabel?.hasPrefix(prefix) == true }

  var droppedCount: Int? {
    if case .dropped(let dropped) = payload { dropped.count } else { nil }
  }
}

/// Checks that `events` are strictly increasing by one, counting each `dropped` event as the
/// `count` events it stands for (its seq is the last lost one's).
func expectNoUnreportedGap(_ events: [Event], from first: Int, sourceLocation: SourceLocation = #_sourceLocation) {
  var expected = first
  for event in events {
    if let count = event.droppedCount {
      expected += count
      #expect(event.seq == expected - 1, "dropped event's seq", sourceLocation: sourceLocation)
    } else {
      #expect(event.seq == expected, "seq \(event.seq) where \(expected) was due", sourceLocation: sourceLocation)
      if event.seq != expected { return }
      expected += 1
    }
  }
}

/// What a test's client sent and received, saved as `.build/protocol-capture/NAME.jsonl`
/// (`{"from": "client"|"server", "message": …}` per line) for `protocol/tools/validate.py`,
/// which checks every server message against the JSON Schemas (`.ci/checks/20-protocol-schemas.sh`).
final class Transcript: Sendable {
  let name: String
  private let lines = Lock<[String]>([])

  init(name: String) { self.name = name }

  func append(from side: String, body: [UInt8]) {
    let line = "{\"from\":\"\(side)\",\"message\":\(String(decoding: body, as: UTF8.self))}"
    lines.withLock { $0.append(line) }
  }

  func save() {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let directory = root.appendingPathComponent(".build/protocol-capture")
    try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let text = lines.withLock { $0.joined(separator: "\n") } + "\n"
    try? text.write(to: directory.appendingPathComponent("\(name).jsonl"), atomically: true, encoding: .utf8)
  }
}

extension LoupeClient {
  /// Tells the probe to exit (`probe:exit`) without waiting for the answer (the program
  /// writes it before it ends: `ExitEndToEndTests` checks that).
  func askProbeToExit() {
    connection.send(MarkRequest(label: "probe:exit").message(id: "probe-exit"))
  }
}
