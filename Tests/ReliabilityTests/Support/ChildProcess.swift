import Foundation
@testable import LoupeClient
import LoupeCore
@testable import LoupeRPC
import Synchronization

/// A built executable (`loupe`, `loupe-examples`) run as a real child process, with its output
/// captured as it comes so a test can wait for a line, feed it input, signal it and collect
/// its exit status — each wait bounded by a deadline, none by a sleep.
///
/// Started with `posix_spawn` and only its three standard descriptors (not Foundation's
/// `Process`, whose children inherit a descriptor it watches to notice their end, so a
/// child that leaves a program of its own running would never be seen to exit).
final class ChildProcess: Sendable {
  let pid: Int32
  let executable: String
  let stdout: OutputCapture
  let stderr: OutputCapture
  /// The write end of the child's stdin (when `keepStdinOpen`), else `nil`.
  let stdin: FileHandle?
  private let exit = ExitLatch()

  /// Starts `executable` (a name from the build products, or a path) with `arguments`.
  /// `LOUPE`, `LOUPE_RECORD`, `LOUPE_REDACT` and `NO_COLOR` are removed from this process's
  /// environment before `environment` is applied.
  init(
    _ executable: String, _ arguments: [String], environment: [String: String] = [:], keepStdinOpen: Bool = false,
    readStdout: Bool = true
  ) throws {
    self.executable = executable.contains("/") ? executable : try BuiltProducts.path(executable)
    var env = ProcessInfo.processInfo.environment
    for key in ["LOUPE", "LOUPE_RECORD", "LOUPE_REDACT", "NO_COLOR"] { env[key] = nil }
    for (key, value) in environment { env[key] = value }

    let input = try Self.pipe()
    let output = try Self.pipe()
    let errors = try Self.pipe()
    let spawned = ProgramSpawn.spawn(
      self.executable, arguments: [self.executable] + arguments, environment: env.map { "\($0.key)=\($0.value)" },
      stdin: input.read, stdout: output.write, stderr: errors.write, directory: nil)
    for fd in [input.read, output.write, errors.write] { LibC.close(fd) }
    guard case .success(let pid) = spawned else {
      for fd in [input.write, output.read, errors.read] { LibC.close(fd) }
      throw TestFailure("cannot start \(self.executable): \(spawned)")
    }
    self.pid = pid
    let stdinHandle = FileHandle(fileDescriptor: input.write, closeOnDealloc: true)
    stdin = keepStdinOpen ? stdinHandle : nil
    if !keepStdinOpen { try? stdinHandle.close() }
    stdout = OutputCapture(FileHandle(fileDescriptor: output.read, closeOnDealloc: true), reading: readStdout)
    stderr = OutputCapture(FileHandle(fileDescriptor: errors.read, closeOnDealloc: true))
    let exit = self.exit
    let child = pid
    let reaper = Thread {
      let status = ProgramSpawn.waitForExit(child) ?? 0x7F00
      exit.set(status & 0x7F == 0 ? .exited((status >> 8) & 0xFF) : .signalled(status & 0x7F))
    }
    reaper.start()
  }

  private static func pipe() throws -> (read: Int32, write: Int32) {
    do {
      return try Posix.makePipe()
    } catch {
      throw TestFailure("pipe failed: \(error)")
    }
  }

  /// Runs to the end (bounded by `timeout`) and returns status and output.
  static func run(
    _ executable: String, _ arguments: [String], environment: [String: String] = [:], stdin: Data? = nil,
    timeout: Duration = .seconds(60)
  ) throws -> Finished {
    let child = try ChildProcess(executable, arguments, environment: environment, keepStdinOpen: stdin != nil)
    if let stdin {
      child.stdin?.write(stdin)
      try? child.stdin?.close()
    }
    return try child.finish(timeout: timeout)
  }

  /// Waits for the exit and the end of both outputs; kills the child after `timeout`.
  func finish(timeout: Duration = .seconds(60)) throws -> Finished {
    guard let termination = exit.wait(timeout: timeout) else {
      kill(pid, SIGKILL)
      throw TestFailure("'\(executable)' did not exit within \(timeout)")
    }
    try? stdin?.close()
    return Finished(
      termination: termination, stdout: stdout.waitForEnd(timeout: .seconds(10)), stderr: stderr.waitForEnd(timeout: .seconds(10)))
  }

  /// The exit, if it comes within `timeout`.
  func waitForExit(timeout: Duration) -> Termination? { exit.wait(timeout: timeout) }

  func signal(_ signal: Int32) { kill(pid, signal) }

  /// Kills the child if it still runs (for `defer`).
  func killIfRunning() {
    if exit.value == nil { kill(pid, SIGKILL) }
  }

  /// How a child ended.
  enum Termination: Sendable, Hashable, CustomStringConvertible {
    case exited(Int32)
    case signalled(Int32)

    var description: String {
      switch self {
      case .exited(let status): "exited with status \(status)"
      case .signalled(let signal): "killed by signal \(signal)"
      }
    }
  }

  struct Finished: Sendable {
    var termination: Termination
    var stdout: String
    var stderr: String
    var status: Int32? { if case .exited(let status) = termination { status } else { nil } }
  }

  /// The direct children of this process (from `/proc`), e.g. the program `loupe` launched.
  /// (Each thread lists the children it started, so every thread is looked at.)
  var childPIDs: [Int32] {
    let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
    return tasks.flatMap { task in
      let text = (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/children", encoding: .utf8)) ?? ""
      return text.split(separator: " ").compactMap { Int32($0) }
    }
  }

  /// Whether `pid` is a live process (not gone, not a zombie).
  static func isRunning(_ pid: Int32) -> Bool {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
      let close = stat.lastIndex(of: ")")
    else { return false }
    let state = stat[stat.index(close, offsetBy: 2)]
    return state != "Z" && state != "X"
  }
}

/// Everything a pipe delivers, collected by its own thread.
final class OutputCapture: Sendable {
  private let state = Lock(State())
  private let condition = NSCondition()
  private let unread: FileHandle?

  private struct State {
    var data = Data()
    var ended = false
  }

  /// Collects what `handle` delivers; with `reading: false` only holds it open, unread (a
  /// client that never reads).
  init(_ handle: FileHandle, reading: Bool = true) {
    guard reading else {
      unread = handle
      state.withLock { $0.ended = true }  // nothing will be collected: nothing to wait for
      return
    }
    unread = nil
    let thread = Thread { [self] in
      while true {
        let chunk = handle.availableData
        condition.lock()
        state.withLock { state in
          if chunk.isEmpty { state.ended = true } else { state.data.append(chunk) }
        }
        condition.broadcast()
        condition.unlock()
        if chunk.isEmpty { break }
      }
      try? handle.close()
    }
    thread.start()
  }

  var text: String { state.withLock { String(decoding: $0.data, as: UTF8.self) } }
  var data: Data { state.withLock { $0.data } }

  /// Waits until the output contains `needle`; throws if it ends or `timeout` passes first.
  func wait(for needle: String, timeout: Duration = .seconds(60)) throws {
    let deadline = Date().addingTimeInterval(timeout.seconds)
    condition.lock()
    defer { condition.unlock() }
    while true {
      let (text, ended) = state.withLock { (String(decoding: $0.data, as: UTF8.self), $0.ended) }
      if text.contains(needle) { return }
      if ended { throw TestFailure("the output ended before '\(needle)'; it was:\n\(text)") }
      if !condition.wait(until: deadline) { throw TestFailure("no '\(needle)' within \(timeout); the output was:\n\(text)") }
    }
  }

  /// All of it, once the writer closed the pipe (or what came within `timeout`).
  func waitForEnd(timeout: Duration) -> String {
    let deadline = Date().addingTimeInterval(timeout.seconds)
    condition.lock()
    defer { condition.unlock() }
    while !state.withLock({ $0.ended }) {
      if !condition.wait(until: deadline) { break }
    }
    return text
  }
}

/// A value set once, awaited with a deadline.
final class ExitLatch: Sendable {
  private let condition = NSCondition()
  private let stored = Lock<ChildProcess.Termination?>(nil)

  var value: ChildProcess.Termination? { stored.withLock { $0 } }

  func set(_ value: ChildProcess.Termination) {
    condition.lock()
    stored.withLock { $0 = value }
    condition.broadcast()
    condition.unlock()
  }

  func wait(timeout: Duration) -> ChildProcess.Termination? {
    let deadline = Date().addingTimeInterval(timeout.seconds)
    condition.lock()
    defer { condition.unlock() }
    while stored.withLock({ $0 }) == nil {
      if !condition.wait(until: deadline) { break }
    }
    return stored.withLock { $0 }
  }
}

/// Where `loupe` and `loupe-examples` were built: next to this test bundle.
enum BuiltProducts {
  static let directory: String? = {
    var candidates: [String] = []
    if let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
      candidates.append(URL(fileURLWithPath: exe).deletingLastPathComponent().path)
    }
    for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
      candidates.append(bundle.bundleURL.deletingLastPathComponent().path)
    }
    return candidates.first { FileManager.default.isExecutableFile(atPath: $0 + "/loupe-examples") }
  }()

  static func path(_ name: String) throws -> String {
    guard let directory, FileManager.default.isExecutableFile(atPath: directory + "/" + name) else {
      throw TestFailure("'\(name)' is not built; run 'swift build --build-tests' first")
    }
    return directory + "/" + name
  }
}

struct TestFailure: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}

extension Duration {
  var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
