import LoupeCore
import LoupeSession

/// An output file of `loupe export`: where its bytes go and the name errors give it.
struct ExportFile {
  var path: String
  var output: Output
}

/// The files `loupe export` writes, opened up front (so a bad path fails before any work)
/// and checked for write errors at the end.
struct ExportFiles {
  private var opened: [(file: ExportFile, fd: Int32)] = []

  /// Opens `path` for writing, truncated; `-` is standard output.
  mutating func create(_ path: String, in context: CommandContext) throws(CommandFailure) -> ExportFile {
    if path == "-" { return ExportFile(path: "<stdout>", output: context.stdout) }
    let fd = LibC.createForWriting(path)
    guard fd >= 0 else { throw CommandFailure("Cannot open '\(path)' for writing: \(LibC.message(LibC.errno)).") }
    let file = ExportFile(path: path, output: Output(file: fd))
    opened.append((file, fd))
    return file
  }

  /// Flushes every file; the first write error is a failure.
  func finish() throws(CommandFailure) {
    for (file, _) in opened {
      file.output.flush()
      if let code = file.output.errorCode {
        throw CommandFailure("Cannot write to '\(file.path)': \(LibC.message(code)).")
      }
    }
  }

  mutating func closeAll() {
    for (file, fd) in opened {
      file.output.flush()
      _ = LibC.close(fd)
    }
    opened.removeAll()
  }
}
