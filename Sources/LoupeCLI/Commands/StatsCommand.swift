import LoupeCore
import LoupeSession
import LoupeClient

/// `loupe stats TRACE... [--json]`
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
      row per store shape: AppFeature#*/pages[id: *]). Several traces or directories of \
      them: totals and distributions over all the runs.
      """,
    usage: "TRACE... [--json]",
    arguments: [TraceFiles.argument],
    options: [.flag("--json", help: "Print one JSON object instead of tables.")],
    examples: [
      ("loupe stats bug.loupe", "Where the time went"), ("loupe stats bug.loupe --json | jq '.effects'", "For scripts"),
      ("loupe stats ci-runs/", "Over every run of a CI fleet"),
    ])

  var paths: [String]
  var json: Bool

  init(arguments: ParsedArguments) throws(UsageError) {
    paths = arguments.positionals
    json = arguments.flag("--json")
  }

  func run(in context: CommandContext) async throws(CommandFailure) -> Int32 {
    var statistics = TraceStatistics()
    var first: (header: TraceHeader, path: String)?
    var runs: [String] = []
    for file in try TraceFiles.expand(paths) {
      let reader = try TraceInput.open(file)
      let progress = TraceInput.progress(for: reader, in: context)
      statistics = try TraceStatistics.gather(reader, into: statistics, progress: progress)
      progress.finish()
      TraceInput.reportDamage(reader, in: context)
      if first == nil { first = (reader.header, reader.path) }
      runs.append(reader.path)
    }
    let report = StatsReport(statistics: statistics, header: first!.header, path: first!.path, runs: runs)
    if json {
      context.stdout.line(report.json().jsonText)
    } else {
      context.stdout.write(report.text(style: context.style))
    }
    context.stdout.flush()
    return ExitStatus.success
  }
}
