/// Why a trace file could not be opened, read or written.
///
/// Every case reads as a complete sentence for the person who gave the path, e.g.
/// `'bug.json' is not a Loupe trace: its first line has no "format" member.`
public enum TraceError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The file could not be opened (missing, permissions, a directory, ...).
  case cannotOpen(path: String, reason: String)
  /// Reading failed after the file was opened.
  case cannotRead(path: String, reason: String)
  /// Writing failed (full disk, read-only file system, closed pipe, ...).
  case cannotWrite(path: String, reason: String)
  /// The file exists but is not a Loupe trace; `reason` says what it looks like instead.
  case notATrace(path: String, reason: String)
  /// A trace written by a newer Loupe whose format this build cannot read.
  case unsupportedVersion(path: String, version: Int)
  /// The file ends inside its header line: the recording stopped before any event was written.
  case truncatedHeader(path: String)
  /// A line handed to ``TraceWriter/appendLine(_:)`` that cannot be a trace line.
  case invalidLine(reason: String)

  public var description: String {
    switch self {
    case .cannotOpen(let path, let reason):
      "Cannot open '\(path)': \(reason)."
    case .cannotRead(let path, let reason):
      "Cannot read '\(path)': \(reason)."
    case .cannotWrite(let path, let reason):
      "Cannot write to '\(path)': \(reason)."
    case .notATrace(let path, let reason):
      "'\(path)' is not a Loupe trace: \(reason)."
    case .unsupportedVersion(let path, let version):
      "'\(path)' is a version \(version) Loupe trace, but this loupe reads version \(TraceHeader.currentVersion) only. Update loupe to read it."
    case .truncatedHeader(let path):
      "'\(path)' ends inside its header line: the recording stopped before any event was written."
    case .invalidLine(let reason):
      "Invalid trace line: \(reason)."
    }
  }
}
