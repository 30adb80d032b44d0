import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `LOUPE=stdio`: the protocol takes over the process's stdin and stdout.
enum StdioChannel {
  /// Keeps private duplicates of stdin and stdout for the protocol, then points fd 1 at
  /// stderr (so a stray `print()` cannot corrupt the channel) and fd 0 at `/dev/null` (so the
  /// program cannot steal the client's bytes). Returns `(input, output)`.
  static func takeOver() throws(InspectorError) -> (input: Int32, output: Int32) {
    let output = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3)
    let input = fcntl(STDIN_FILENO, F_DUPFD_CLOEXEC, 3)
    guard output >= 0, input >= 0 else {
      if output >= 0 { close(output) }
      if input >= 0 { close(input) }
      throw InspectorError("Cannot duplicate stdin/stdout for LOUPE=stdio")
    }
    // Whatever the program already buffered in `stdout` is flushed later to fd 1, i.e. stderr.
    dup2(STDERR_FILENO, STDOUT_FILENO)
    let null = open("/dev/null", O_RDONLY | O_CLOEXEC)
    if null >= 0 {
      dup2(null, STDIN_FILENO)
      close(null)
    }
    return (input, output)
  }
}

func closeDescriptor(_ fd: Int32) {
  close(fd)
}
