import Foundation
import LoupeClient
import LoupeCore

/// `loupe-examples SCENARIO --idle` listening on a socket in a temporary directory: a program
/// that waits for tools to act on it. Started and stopped on threads of their own (nothing
/// blocks a test's thread), ready once it says so.
final class IdleProgram: @unchecked Sendable {
  let process = Process()
  let socket: String
  /// Everything it wrote to standard error.
  private let errors = Pipe()

  private init(socket: String) { self.socket = socket }

  /// A test that throws before ``stop()`` leaves no program behind.
  deinit {
    if process.isRunning { process.terminate() }
  }

  /// Starts `loupe-examples` with `arguments` (plus `--idle`), serving on `socket`, and waits
  /// for its "idle:" line (the socket listens by then: the stores exist).
  static func start(
    _ arguments: [String], socket: String, control: Bool = true, environment: [String: String] = [:]
  ) async throws -> IdleProgram {
    let program = IdleProgram(socket: socket)
    program.process.executableURL = URL(fileURLWithPath: try BuiltProducts.executable("loupe-examples"))
    program.process.arguments = arguments + ["--idle"]
    var env = ProcessInfo.processInfo.environment
    env["LOUPE"] = "unix:\(socket)"
    env["LOUPE_RECORD"] = nil
    env["LOUPE_CONTROL"] = control ? "1" : nil
    for (key, value) in environment { env[key] = value }
    program.process.environment = env
    let output = Pipe()
    program.process.standardOutput = output
    program.process.standardError = program.errors
    try program.process.run()
    let ready: Bool = await withCheckedContinuation { continuation in
      Thread {
        var seen = ""
        while !seen.contains("idle:") {
          let chunk = output.fileHandleForReading.availableData
          if chunk.isEmpty { break }
          seen += String(decoding: chunk, as: UTF8.self)
        }
        continuation.resume(returning: seen.contains("idle:"))
      }.start()
    }
    guard ready else { throw NotReady() }
    return program
  }

  struct NotReady: Error {}

  /// Ends the program and waits for it, on a thread of its own.
  func stop() async {
    let process = self.process
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      Thread {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        continuation.resume()
      }.start()
    }
  }

  /// A client of the program's own, initialized as `name`.
  func client(named name: String = "test client") async throws -> LoupeClient {
    let client = try LoupeClient.connect(socketPath: socket)
    _ = try await client.initialize(clientName: name)
    return client
  }
}
