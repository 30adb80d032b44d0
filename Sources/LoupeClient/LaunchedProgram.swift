import Foundation
import LoupeCore
import LoupeRPC

/// A program launched by ``LoupeClient/launch(_:environment:stderr:)``.
///
/// It is started with `posix_spawn`, with an empty signal mask and default signal handlers:
/// a child must not inherit the launching thread's blocked signals (Dispatch and Swift
/// concurrency threads block most of them) or this process's ignored SIGPIPE, or it would
/// ignore Ctrl-C and `kill`.
public final class LaunchedProgram: Sendable {
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

  private struct State {
    var status: ExitStatus?
    var waiters: [CheckedContinuation<ExitStatus, Never>] = []
  }

  /// The program's process id.
  public let pid: Int32
  private let state = Lock(State())

  private init(pid: Int32) {
    self.pid = pid
  }

  /// The exit status once the program has ended (and been reaped).
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

  /// Sends SIGTERM (if it is still running).
  public func terminate() { kill(SIGTERM) }

  /// How long ``stop(grace:)`` waits after SIGTERM before it sends SIGKILL.
  public static let terminationGrace = Duration.seconds(3)

  /// Ends the program: SIGTERM, then SIGKILL if it is still running `grace` later (a program
  /// that broke the protocol and ignores SIGTERM must not keep its launcher waiting). Returns
  /// how it ended and whether SIGKILL was needed.
  public func stop(grace: Duration = terminationGrace) async -> (status: ExitStatus, killed: Bool) {
    if let status = exitStatus { return (status, false) }
    terminate()
    let escalation = Task {
      try await Task.sleep(for: grace)
      let running = state.withLock { $0.status == nil }
      if running { kill(SIGKILL) }
      return running
    }
    let status = await waitForExit()
    escalation.cancel()
    let killed = (try? await escalation.value) ?? false
    return (status, killed)
  }

  /// Sends `signal` to the program and what it started in its process group (if it is still
  /// running). Forward SIGINT this way for Ctrl-C.
  public func kill(_ signal: Int32) {
    // Checked under the lock so a pid already reaped (and maybe reused) is never signalled.
    state.withLock { state in
      if state.status == nil { ProgramSpawn.send(signal, toGroupOf: pid) }
    }
  }

  /// Reaps the child on a thread of its own and records its status.
  private func reapWhenDone() {
    let thread = Thread { [self] in
      // nil: unknowable (someone else reaped it): report status 127
      let raw = ProgramSpawn.waitForExit(pid) ?? 0x7F00
      let status: ExitStatus = raw & 0x7F == 0 ? .exited((raw >> 8) & 0xFF) : .signalled(raw & 0x7F)
      let waiters = state.withLock { state in
        state.status = status
        defer { state.waiters = [] }
        return state.waiters
      }
      for waiter in waiters { waiter.resume(returning: status) }
    }
    thread.name = "loupe.wait"
    thread.start()
  }

  /// Launches `command` with `LOUPE=stdio` and returns it with a connection to its
  /// stdin/stdout, **not started**: for callers that handle raw frames themselves, e.g. a
  /// bridge that forwards every frame between an editor and the program
  /// (`loupe attach --stdio`). Most callers want ``LoupeClient/launch(_:environment:stderr:)``.
  ///
  /// ```swift
  /// let (program, child) = try LaunchedProgram.launch(["./MyApp"])
  /// let editor = try Connection(input: 0, output: 1, ownsDescriptors: false)
  /// child.start(onFrame: { editor.send(body: $0) }, onClose: { _ in editor.finish() })
  /// editor.start(onFrame: { child.send(body: $0) }, onClose: { _ in child.finish() })
  /// let status = await program.waitForExit()
  /// ```
  public static func launch(
    _ command: [String], environment: [String: String]? = nil, stderr: FileHandle? = nil, directory: String? = nil
  ) throws(ClientError) -> (program: LaunchedProgram, connection: Connection) {
    let (program, input, output) = try start(command, environment: environment, stderr: stderr, directory: directory)
    do {
      return (program, try Connection(input: input, output: output))
    } catch {
      Posix.closeDescriptor(input)
      Posix.closeDescriptor(output)
      program.terminate()
      throw .launchFailed("Cannot set up the connection: \(error)")
    }
  }

  /// Starts `command` with `LOUPE=stdio` (in `directory`, when given); returns the program and
  /// the descriptors to read its stdout from and write its stdin to (owned by the caller).
  static package func start(
    _ command: [String], environment: [String: String]?, stderr: FileHandle?, directory: String? = nil
  ) throws(ClientError) -> (LaunchedProgram, input: Int32, output: Int32) {
    guard let executable = command.first, !executable.isEmpty else { throw .launchFailed("No command given") }
    if let directory {
      var isDirectory: ObjCBool = false
      guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
        throw .launchFailed("Cannot launch '\(executable)': the working directory '\(directory)' does not exist")
      }
    }
    var env = environment ?? ProcessInfo.processInfo.environment
    env["LOUPE"] = "stdio"

    let toChild: (read: Int32, write: Int32)
    let fromChild: (read: Int32, write: Int32)
    do {
      toChild = try Posix.makePipe()
      fromChild = try Posix.makePipe()
    } catch {
      throw .launchFailed("Cannot create pipes: \(error)")
    }
    defer {
      Posix.closeDescriptor(toChild.read)
      Posix.closeDescriptor(fromChild.write)
    }

    let spawned = ProgramSpawn.spawn(
      executable, arguments: command, environment: env.map { "\($0.key)=\($0.value)" },
      stdin: toChild.read, stdout: fromChild.write, stderr: stderr?.fileDescriptor, directory: directory)
    let pid: Int32
    switch spawned {
    case .success(let spawnedPID):
      pid = spawnedPID
    case .failure(let failure):
      Posix.closeDescriptor(toChild.write)
      Posix.closeDescriptor(fromChild.read)
      switch failure {
      case .unsupported(let reason) where directory != nil:
        throw .launchFailed("Cannot launch '\(executable)' in '\(directory!)': \(reason)")
      case .unsupported(let reason), .system(let reason):
        // posix_spawnp searched PATH for a bare name, like a shell.
        throw .launchFailed("Cannot launch '\(executable)': \(reason)")
      }
    }
    let program = LaunchedProgram(pid: pid)
    program.reapWhenDone()
    Posix.setNonBlocking(fromChild.read)
    Posix.setNonBlocking(toChild.write)
    return (program, fromChild.read, toChild.write)
  }
}
