import LoupeCore
import LoupeSession

/// Standard input and output taken for a protocol (`replay`, `dap`, `mcp`, `attach --stdio`):
/// private duplicates of both descriptors, after which descriptor 1 points at stderr, so that
/// nothing else in the process (a stray `print`) can write into the protocol stream.
struct ProtocolStdio {
  let input: Int32
  let output: Int32

  static func take(for purpose: String = "") throws(CommandFailure) -> ProtocolStdio {
    let input = LibC.duplicateCloseOnExec(LibC.standardInput)
    let output = LibC.duplicateCloseOnExec(LibC.standardOutput)
    guard input >= 0, output >= 0 else { throw CommandFailure("Cannot duplicate stdin/stdout\(purpose).") }
    LibC.duplicate(LibC.standardError, onto: LibC.standardOutput)
    return ProtocolStdio(input: input, output: output)
  }
}
