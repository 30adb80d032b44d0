import Foundation
import LoupeCore
import LoupeRPC
import LoupeSession

/// `loupe attach [FILTER] [--record FILE] [--format text|json|changes] [--stdio] -- COMMAND [ARG...]`
/// and `loupe attach --socket PATH [same options]`.
struct AttachCommand: Command {
  static let configuration = CommandConfiguration(
    name: "attach",
    abstract: "Run a program and show its events live (or attach to a running one).",
    discussion: """
      Launches COMMAND with LOUPE=stdio, passes its standard error through, subscribes with \
      the filter (applied in the program) and replays what the program buffered before \
      loupe connected, so no event from its start is missed. Exits with the program's \
      status. Ctrl-C goes to the program; press it twice to kill the program.

      With --socket, attaches to a program already running with LOUPE=unix:PATH instead; \
      Ctrl-C detaches and leaves the program running.

      With --stdio, loupe bridges an editor to the program: the editor speaks the protocol \
      on loupe's standard input and output (initialize, loupe/subscribe, ...), and every \
      message is passed through unchanged. --record still records the events the editor \
      receives.
      """,
    usage: "[FILTER] [--record FILE] [--format text|json|changes] [--stdio] [--socket PATH | --tcp HOST:PORT [--token T] | -- COMMAND [ARG...]]",
    options: FilterOptions.specs + [
      .option("--record", value: "FILE", help: "Also write the events to a trace file."),
      .option("--format", value: "text|json|changes", help: "How to print events (default: text)."),
      .option("--socket", value: "PATH", help: "Attach to a program listening with LOUPE=unix:PATH."),
      .option("--tcp", value: "HOST:PORT", help: "Attach to a program listening with LOUPE=tcp:HOST:PORT (through iproxy or ssh -L for a device)."),
      .option("--token", value: "T", help: "The program's token for --tcp (default: LOUPE_TOKEN)."),
      .flag("--stdio", help: "Bridge an editor on stdin/stdout to the program instead of printing events."),
    ],
    takesProgram: true,
    examples: [
      ("loupe attach -- ./MyApp --some-flag", "Watch a program from its start"),
      ("loupe attach --kind 'effect.*' --record bug.loupe -- ./MyApp", "Only effects, and record everything shown"),
      ("LOUPE=unix:/tmp/app.sock ./MyApp &  loupe attach --socket /tmp/app.sock", "Attach to a running program"),
      ("loupe attach --stdio -- ./MyApp", "What an editor runs to inspect MyApp"),
    ])

  var target: AttachSession.Target
  var filter: EventFilter
  var format: TimelineRenderer.Format
  var recordPath: String?
  var stdio: Bool
  var formatGiven: Bool

  init(arguments: ParsedArguments) throws(UsageError) {
    filter = FilterOptions.filter(from: arguments)
    format = try FormatOption.parse(arguments.value("--format"))
    formatGiven = arguments.value("--format") != nil
    recordPath = arguments.value("--record")
    stdio = arguments.flag("--stdio")
    target = try Self.target(arguments, environment: ProcessInfo.processInfo.environment)
  }

  /// `--socket PATH`, `--tcp HOST:PORT` or `-- COMMAND [ARG...]`, exactly one of them.
  static func target(_ arguments: ParsedArguments, environment: [String: String] = [:]) throws(UsageError) -> AttachSession.Target {
    let program = arguments.program ?? []
    if let address = arguments.value("--tcp") {
      guard arguments.value("--socket") == nil, program.isEmpty else {
        throw UsageError("Give one of '--tcp HOST:PORT', '--socket PATH' or a command to run")
      }
      let endpoint: LoopbackEndpoint
      do {
        endpoint = try LoopbackEndpoint(parsing: address)
      } catch {
        throw UsageError("--tcp: \(error)")
      }
      guard let token = arguments.value("--token") ?? environment["LOUPE_TOKEN"], !token.isEmpty else {
        throw UsageError("--tcp needs the program's token: '--token T' or LOUPE_TOKEN (the program printed it as 'loupe: token T')")
      }
      return .tcp(endpoint, token: token)
    }
    if arguments.value("--token") != nil { throw UsageError("'--token' goes with '--tcp HOST:PORT'") }
    switch (arguments.value("--socket"), program.isEmpty) {
    case (let path?, true): return .socket(path)
    case (_?, false): throw UsageError("Give either '--socket PATH' or a command to run, not both")
    case (nil, false): return .launch(program)
    case (nil, true): throw UsageError("Missing the program to run: '-- COMMAND [ARG...]' (or '--socket PATH')")
    }
  }

  func validate() throws(UsageError) {
    if stdio, formatGiven { throw UsageError("'--format' does not apply to '--stdio': the editor receives the protocol") }
    if stdio, !filter.isEmpty { throw UsageError("Filters do not apply to '--stdio': the editor sets its own in 'loupe/subscribe'") }
  }

  func run(in context: CommandContext) async throws(CommandFailure) -> Int32 {
    if stdio {
      return try await StdioBridge(target: target, recordPath: recordPath).run(in: context)
    }
    for warning in FilterOptions.warnings(for: filter) { context.warn(warning) }
    return try await AttachSession(target: target, filter: filter, format: format, recordPath: recordPath).run(in: context)
  }
}
