import LoupeClient
/// A mistake in how a command was called. It is printed as `Error: …`, the command's usage
/// line and where to get help, and the process exits with status 2.
struct UsageError: Error, Sendable, Equatable, CustomStringConvertible {
  var message: String
  init(_ message: String) { self.message = message }
  var description: String { message }
}

/// The exit statuses of CONTRACT §8.
enum ExitStatus {
  static let success: Int32 = 0
  /// `doctor` found problems.
  static let findings: Int32 = 1
  static let usage: Int32 = 2
  /// An I/O or protocol failure.
  static let failure: Int32 = 3
}
