import Foundation
import Synchronization

/// A program launched by ``LoupeClient/launch(_:environment:stderr:)``.
public final class LaunchedProgram: Sendable {
  private let process: Process
  private struct State {
    var status: ExitStatus?
    var waiters: [CheckedContinuation<ExitStatus, Never>] = []
  }
  private let state: Mutex<State>

  /// How a program ended.
  public enum ExitStatus: Sendable, Hashable, CustomStringConvertible {
    case exited(Int32)
    case signalled(Int32)

    /// The shell's convention: the status, or 128 + the signal number.
    public var shellStatus: Int32 {
      switch self {
      case .exited(let code): code
      case .signalled(let signal): 128 + signal
      }
    }

    public var description: String {
      switch self {
      case .exited(let code): "exited with status \(code)"
      case .signalled(let signal): "killed by signal \(signal)"
      }
    }
  }

  private init(process: Process) {
    self.process = process
    state = Mutex(State())
  }

  public var pid: Int32 { process.processIdentifier }

  /// The exit status once the program has ended.
  public var exitStatus: ExitStatus? { state.withLock { $0.status } }

  /// Waits for the program to end.
  public func waitForExit() async -> ExitStatus {
    await withCheckedContinuation { continuation in
      let status: ExitStatus? = state.withLock { state in
        if let status = state.status { return status }
        state.waiters.append(continuation)
        return nil
      }
      if let status { continuation.resume(returning: status) }
    }
  }

  /// Sends SIGTERM.
  public func terminate() {
    if process.isRunning { process.terminate() }
  }

  /// Sends `signal` (e.g. `SIGKILL`).
  public func kill(_ signal: Int32) {
    if process.isRunning { _ = Foundation.kill(process.processIdentifier, signal) }
  }

  /// Starts `command` with `LOUPE=stdio`; returns the program and the descriptors to read its
  /// stdout from and write its stdin to (owned by the caller).
  static func start(
    _ command: [String], environment: [String: String]?, stderr: FileHandle?
  ) throws(ClientError) -> (LaunchedProgram, input: Int32, output: Int32) {
    guard let executable = command.first else { throw .launchFailed("No command given") }
    let process = Process()
    if executable.contains("/") {
      process.executableURL = URL(fileURLWithPath: executable)
      process.arguments = Array(command.dropFirst())
    } else {
      process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
      process.arguments = command
    }
    var env = environment ?? ProcessInfo.processInfo.environment
    env["LOUPE"] = "stdio"
    process.environment = env
    let toChild = Pipe()
    let fromChild = Pipe()
    process.standardInput = toChild
    process.standardOutput = fromChild
    if let stderr { process.standardError = stderr }
    let program = LaunchedProgram(process: process)
    process.terminationHandler = { process in
      let status: ExitStatus =
        process.terminationReason == .uncaughtSignal
        ? .signalled(process.terminationStatus) : .exited(process.terminationStatus)
      let waiters = program.state.withLock { state in
        state.status = status
        defer { state.waiters = [] }
        return state.waiters
      }
      for waiter in waiters { waiter.resume(returning: status) }
    }
    do {
      try process.run()
    } catch {
      throw .launchFailed("Cannot launch '\(executable)': \(error.localizedDescription)")
    }
    // Keep our own duplicates, so the pipes live exactly as long as the connection.
    let input = fcntl(fromChild.fileHandleForReading.fileDescriptor, F_DUPFD_CLOEXEC, 0)
    let output = fcntl(toChild.fileHandleForWriting.fileDescriptor, F_DUPFD_CLOEXEC, 0)
    try? fromChild.fileHandleForReading.close()
    try? toChild.fileHandleForWriting.close()
    try? fromChild.fileHandleForWriting.close()
    try? toChild.fileHandleForReading.close()
    Posix.setNonBlocking(input)
    Posix.setNonBlocking(output)
    return (program, input, output)
  }
}
