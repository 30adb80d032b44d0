import LoupeCore
import LoupeSession
import LoupeClient

/// `loupe stats FILE [--json]`
struct StatsCommand: Command {
  static let configuration = CommandConfiguration(
    name: "stats",
    abstract: "Summarize a trace: actions, reducer time, effects, derived values, identities.",
    discussion: """
      Per action: how often it was received and its reducer time (from action.received to \
      the first event it caused: its state.changed, an effect it started or a derived value \
      it recomputed). Per origin of effects: started, completed, failed, cancelled and still \
      running at the end, with p50/p95 durations. Per derived value: recomputations and how \
      many left the output unchanged. Per store: identity changes (past 1,000 stores, one \
      row per store shape: AppFeature#*/pages[id: *]).
      """,
    usage: "FILE [--json]",
    arguments: [TraceInput.fileArgument],
    options: [.flag("--json", help: "Print one JSON object instead of tables.")],
    examples: [("loupe stats bug.loupe", "Where the time went"), ("loupe stats bug.loupe --json | jq '.effects'", "For scripts")])

  var path: String
  var json: Bool

  init(arguments: ParsedArguments) throws(UsageError) {
    path = arguments.positionals[0]
    json = arguments.flag("--json")
  }

  func run(in context: CommandContext) async throws(CommandFailure) -> Int32 {
    let reader = try TraceInput.open(path)
    let progress = TraceInput.progress(for: reader, in: context)
    let statistics = try TraceStatistics.gather(reader, progress: progress)
    progress.finish()
    let report = StatsReport(statistics: statistics, header: reader.header, path: reader.path)
    if json {
      context.stdout.line(report.json().jsonText)
    } else {
      context.stdout.write(report.text(style: context.style))
    }
    context.stdout.flush()
    TraceInput.reportDamage(reader, in: context)
    return ExitStatus.success
  }
}
