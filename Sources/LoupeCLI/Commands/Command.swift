import LoupeSession
/// One `loupe` subcommand, in the style of swift-argument-parser: a type with its
/// configuration (name, abstract, usage, options), made from parsed arguments, validated
/// separately, then run.
protocol Command: Sendable {
  static var configuration: CommandConfiguration { get }
  /// Reads the command's values from its parsed arguments.
  init(arguments: ParsedArguments) throws(UsageError)
  /// Checks combinations of values before anything runs.
  func validate() throws(UsageError)
  /// Runs the command and returns the process's exit status.
  func run(in context: CommandContext) async throws(CommandFailure) -> Int32
}

extension Command {
  func validate() throws(UsageError) {}
}

/// Where a command runs: its output streams, environment and surroundings.
struct CommandContext: Sendable {
  var stdout: Output
  var stderr: Output
  var environment: [String: String]
  /// The directory holding the running `loupe` executable (where `demo` finds `loupe-examples`).
  var executableDirectory: String?

  var style: Style { Style(enabled: stdout.usesColor) }
  var errorStyle: Style { Style(enabled: stderr.usesColor) }

  /// Prints a warning to standard error: `warning: …`.
  func warn(_ message: String) {
    stderr.line(errorStyle.apply(.yellow, "warning:") + " " + message)
  }

  /// Prints a note to standard error.
  func note(_ message: String) {
    stderr.line(errorStyle.dim("note:") + " " + message)
  }
}
