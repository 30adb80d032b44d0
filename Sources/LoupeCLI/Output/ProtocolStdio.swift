#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif
import LoupeSession

/// Standard input and output taken for a protocol (`replay`, `dap`, `mcp`, `attach --stdio`):
/// private duplicates of both descriptors, after which descriptor 1 points at stderr, so that
/// nothing else in the process (a stray `print`) can write into the protocol stream.
struct ProtocolStdio {
  let input: Int32
  let output: Int32

  static func take(for purpose: String = "") throws(CommandFailure) -> ProtocolStdio {
    let input = fcntl(STDIN_FILENO, F_DUPFD_CLOEXEC, 3)
    let output = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3)
    guard input >= 0, output >= 0 else { throw CommandFailure("Cannot duplicate stdin/stdout\(purpose).") }
    dup2(STDERR_FILENO, STDOUT_FILENO)
    return ProtocolStdio(input: input, output: output)
  }
}
