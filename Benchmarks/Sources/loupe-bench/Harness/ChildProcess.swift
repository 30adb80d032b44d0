#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
import Foundation

/// Runs a child to its end: `posix_spawnp`, its standard output read to EOF, then `waitpid`.
///
/// Not Foundation's `Process`: on Linux its `waitUntilExit()` waits for an exit monitor on a
/// run loop, and one CI run hung there for good with the child already exited and unreaped (a
/// zombie, load 0). `waitpid` on the child's pid cannot miss an exit that already happened.
struct ChildProcess {
  struct Result {
    var output: Data
    var status: Int32
  }

  enum Output {
    /// Captured and returned in `Result.output`.
    case captured
    /// Sent to /dev/null.
    case discarded
  }

  /// Runs `arguments` (the first is looked up in `PATH`) with `environment`; standard error is
  /// the harness's own unless `quiet`.
  static func run(
    _ arguments: [String], environment: [String: String]? = nil, output: Output = .captured, quiet: Bool = false
  ) throws -> Result {
    var fds: [Int32] = [-1, -1]
    if output == .captured, pipe(&fds) != 0 { throw BenchmarkError("pipe failed: errno \(errno)") }
    defer { for fd in fds where fd >= 0 { close(fd) } }

    var actions = FileActions()
    defer { actions.destroy() }
    switch output {
    case .captured:
      actions.dup(fds[1], to: 1)
      actions.close(fds[0])
      actions.close(fds[1])
    case .discarded:
      actions.openNull(as: 1)
    }
    if quiet { actions.openNull(as: 2) }

    let environment = (environment ?? ProcessInfo.processInfo.environment).map { "\($0.key)=\($0.value)" }
    var pid: pid_t = 0
    let spawned = withCStrings(arguments) { argv in
      withCStrings(environment) { envp in actions.withPointer { posix_spawnp(&pid, argv[0]!, $0, nil, argv, envp) } }
    }
    guard spawned == 0 else { throw BenchmarkError("could not start \(arguments[0]): errno \(spawned)") }

    var data = Data()
    if output == .captured {
      close(fds[1])
      fds[1] = -1
      var buffer = [UInt8](repeating: 0, count: 65_536)
      while true {
        let count = buffer.withUnsafeMutableBytes { read(fds[0], $0.baseAddress, $0.count) }
        if count > 0 {
          data.append(contentsOf: buffer[0..<count])
        } else if count == 0 || errno != EINTR {
          break
        }
      }
    }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) == -1 {
      guard errno == EINTR else { throw BenchmarkError("waitpid failed: errno \(errno)") }
    }
    // WIFEXITED / WEXITSTATUS, spelled out (the C macros are not imported).
    let exited = status & 0x7f == 0
    return Result(output: data, status: exited ? (status >> 8) & 0xff : 128 + (status & 0x7f))
  }

  private static func withCStrings<R>(_ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> R) -> R {
    let pointers = strings.map { strdup($0) } + [nil]
    defer { for pointer in pointers { free(pointer) } }
    return body(pointers)
  }
}

/// `posix_spawn_file_actions_t`: a struct in Glibc, an opaque pointer in Darwin's spawn.h.
private struct FileActions {
  #if canImport(Darwin)
    var actions: posix_spawn_file_actions_t? = nil
  #else
    var actions = posix_spawn_file_actions_t()
  #endif

  init() { posix_spawn_file_actions_init(&actions) }

  mutating func dup(_ fd: Int32, to target: Int32) { posix_spawn_file_actions_adddup2(&actions, fd, target) }
  mutating func close(_ fd: Int32) { posix_spawn_file_actions_addclose(&actions, fd) }
  mutating func openNull(as target: Int32) {
    posix_spawn_file_actions_addopen(&actions, target, "/dev/null", O_WRONLY, 0)
  }
  mutating func destroy() { posix_spawn_file_actions_destroy(&actions) }
  mutating func withPointer<R>(_ body: (UnsafePointer<posix_spawn_file_actions_t>) -> R) -> R { body(&actions) }
}
