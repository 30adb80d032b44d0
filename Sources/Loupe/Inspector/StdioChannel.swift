import Foundation
import LoupeCore

/// `LOUPE=stdio`: the protocol takes over the process's stdin and stdout.
enum StdioChannel {
  /// Keeps private duplicates of stdin and stdout for the protocol, then points fd 1 at
  /// stderr (so a stray `print()` cannot corrupt the channel) and fd 0 at `/dev/null` (so the
  /// program cannot steal the client's bytes). Returns `(input, output)`.
  static func takeOver() throws(InspectorError) -> (input: Int32, output: Int32) {
    let output = LibC.duplicateCloseOnExec(LibC.standardOutput)
    let input = LibC.duplicateCloseOnExec(LibC.standardInput)
    guard output >= 0, input >= 0 else {
      if output >= 0 { LibC.close(output) }
      if input >= 0 { LibC.close(input) }
      throw InspectorError("Cannot duplicate stdin/stdout for LOUPE=stdio")
    }
    // Whatever the program already buffered in `stdout` is flushed later to fd 1, i.e. stderr.
    LibC.duplicate(LibC.standardError, onto: LibC.standardOutput)
    let null = LibC.openNull()
    if null >= 0 {
      LibC.duplicate(null, onto: LibC.standardInput)
      LibC.close(null)
    }
    return (input, output)
  }
}

func closeDescriptor(_ fd: Int32) {
  LibC.close(fd)
}
