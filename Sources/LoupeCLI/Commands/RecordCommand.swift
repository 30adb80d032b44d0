import Foundation
import LoupeCore
import LoupeSession

/// `loupe record FILE [FILTER] -- COMMAND [ARG...]`
struct RecordCommand: Command {
  static let configuration = CommandConfiguration(
    name: "record",
    abstract: "Run a program and record its events to a trace file.",
    discussion: """
      Like 'loupe attach --record FILE' without the live view. Every event is written as it \
      arrives, so the trace is complete up to the end even when the program crashes or is \
      killed. Exits with the program's status (3 when the recording itself failed).

      Inspect the trace with 'loupe show', 'stats', 'doctor', 'export' or 'replay'.
      """,
    usage: "FILE [FILTER] [--socket PATH | --tcp HOST:PORT [--token T] | -- COMMAND [ARG...]]",
    arguments: [PositionalSpec(name: "FILE", help: "The trace file to write (replaced if it exists).")],
    options: FilterOptions.specs + [
      .option("--tcp", value: "HOST:PORT", help: "Record a program listening with LOUPE=tcp:HOST:PORT."),
      .option("--token", value: "T", help: "The program's token for --tcp (default: LOUPE_TOKEN)."),
      .option("--socket", value: "PATH", help: "Record a program listening with LOUPE=unix:PATH.")
    ],
    takesProgram: true,
    examples: [
      ("loupe record bug.loupe -- ./MyApp", "Record everything"),
      ("loupe record effects.loupe --kind 'effect.*' -- ./MyApp", "Record only effects"),
    ])

  var path: String
  var target: AttachSession.Target
  var filter: EventFilter

  init(arguments: ParsedArguments) throws(UsageError) {
    path = arguments.positionals[0]
    filter = FilterOptions.filter(from: arguments)
    target = try AttachCommand.target(arguments, environment: ProcessInfo.processInfo.environment)
  }

  func run(in context: CommandContext) async throws(CommandFailure) -> Int32 {
    for warning in FilterOptions.warnings(for: filter) { context.warn(warning) }
    return try await AttachSession(target: target, filter: filter, format: nil, recordPath: path).run(in: context)
  }
}
