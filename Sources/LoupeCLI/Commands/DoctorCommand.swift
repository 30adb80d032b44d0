import LoupeCore
import LoupeSession
import LoupeClient

/// `loupe doctor TRACE... [--ignore CODE[,CODE...]] [--json]`
struct DoctorCommand: Command {
  static let configuration = CommandConfiguration(
    name: "doctor",
    abstract: "Find known pitfalls in a trace and explain them.",
    discussion: """
      Looks for effects never finished or cancelled (or outliving their store), effects \
      cancelled from another store, derived values recomputed with unchanged output, \
      identity churn, actions sent to ended stores and other runtime warnings, and dropped \
      events. Each finding names the events involved by their sequence numbers (see them \
      with 'loupe show FILE'), says why it matters and what to do.

      A finding is a problem (the program misbehaved, or wastes work on every action) or a \
      note (worth a look, often fine, such as a memoized derived value whose input changed \
      but whose output did not). Exits with status 1 when it finds a problem, 0 when it finds \
      only notes or nothing. --ignore leaves out findings a team has judged fine.

      Several traces or directories of them (a CI fleet's runs): each finding once, saying \
      in how many runs and which it appeared, with the details of the first.

      Codes: \(Doctor.codes.joined(separator: ", ")).
      """,
    usage: "TRACE... [--ignore CODE[,CODE...]] [--json]",
    arguments: [TraceFiles.argument],
    options: [
      .option("--ignore", value: "CODE[,CODE...]", help: "Leave out findings with these codes (see --json or the list above)."),
      .flag("--json", help: "Print the findings as one JSON object."),
    ],
    examples: [
      ("loupe doctor bug.loupe", "Check a recording"),
      ("loupe doctor bug.loupe --ignore identity-churn", "Without a check the team has judged fine"),
      ("loupe doctor bug.loupe --json | jq '.problems[].code'", "For scripts"),
      ("loupe doctor ci-runs/", "Every run of a CI fleet: each finding with the runs it appeared in"),
    ])

  var paths: [String]
  var json: Bool
  var ignored: Set<String>

  init(arguments: ParsedArguments) throws(UsageError) {
    paths = arguments.positionals
    json = arguments.flag("--json")
    let codes = arguments.list("--ignore") ?? []
    if let unknown = codes.first(where: { !Doctor.isKnownCode($0) }) {
      throw UsageError("--ignore: unknown finding code '\(unknown)' (codes: \(Doctor.codes.joined(separator: ", ")))")
    }
    ignored = Set(codes)
  }

  func run(in context: CommandContext) async throws(CommandFailure) -> Int32 {
    let files = try TraceFiles.expand(paths)
    guard files.count == 1, paths.count == 1, files == paths else { return try runMany(files, in: context) }
    let reader = try TraceInput.open(files[0])
    let progress = TraceInput.progress(for: reader, in: context)
    let doctor = try Doctor.examine(reader, progress: progress)
    progress.finish()
    let all = doctor.findings()
    let findings = all.filter { !ignored.contains($0.code) }
    let problems = findings.filter { $0.severity == .problem }
    let header = reader.header
    let about = header.program.isEmpty ? "" : "\(header.program), "
    if json {
      var warnings: [JSON] = []
      if let truncation = reader.truncation { warnings.append(.string(truncation.description)) }
      if reader.malformedLineCount > 0 {
        warnings.append(.string("\(Formatting.plural(reader.malformedLineCount, "malformed line")) skipped"))
      }
      // `problems` make the exit status 1; `notes` are findings worth a look; `warnings` say
      // what was wrong with the trace itself.
      let object: JSON = [
        "trace": ["path": .string(reader.path), "program": .string(header.program), "events": .int(doctor.events)],
        "problems": .array(problems.map(\.json)),
        "notes": .array(findings.filter { $0.severity == .note }.map(\.json)),
        "ignored": .int(all.count - findings.count),
        "warnings": .array(warnings),
      ]
      context.stdout.line(object.jsonText)
    } else {
      let style = context.style
      let subject = "\(reader.path) (\(about)\(Formatting.plural(doctor.events, "event")))"
      let ignoredCount = all.count - findings.count
      let ignoredText = ignoredCount > 0 ? " (\(Formatting.plural(ignoredCount, "finding")) ignored)" : ""
      if findings.isEmpty {
        context.stdout.line("No problems found in \(subject)\(ignoredText).")
      } else {
        let notes = findings.count - problems.count
        var counts = problems.isEmpty ? "no problems" : Formatting.plural(problems.count, "problem")
        if notes > 0 { counts += " and " + Formatting.plural(notes, "note") }
        context.stdout.line(style.bold("Found \(counts) in \(subject)\(ignoredText):"))
        for (offset, finding) in findings.enumerated() {
          context.stdout.line()
          context.stdout.write(finding.text(number: offset + 1, style: style))
        }
      }
    }
    context.stdout.flush()
    TraceInput.reportDamage(reader, in: context)
    return problems.isEmpty ? ExitStatus.success : ExitStatus.findings
  }

  /// Several runs: findings grouped by code, with the runs each appeared in.
  private func runMany(_ files: [String], in context: CommandContext) throws(CommandFailure) -> Int32 {
    var runs = DoctorRuns()
    for file in files {
      let reader = try TraceInput.open(file)
      let progress = TraceInput.progress(for: reader, in: context)
      let doctor = try Doctor.examine(reader, progress: progress)
      progress.finish()
      let all = doctor.findings()
      let findings = all.filter { !ignored.contains($0.code) }
      var warnings: [String] = []
      if let truncation = reader.truncation { warnings.append(truncation.description) }
      if reader.malformedLineCount > 0 { warnings.append("\(Formatting.plural(reader.malformedLineCount, "malformed line")) skipped") }
      let problems = findings.filter { $0.severity == .problem }.count
      runs.add(
        DoctorRuns.Run(
          path: reader.path, program: reader.header.program, events: doctor.events, problems: problems, notes: findings.count - problems,
          warnings: warnings),
        findings: findings, ignored: all.count - findings.count)
      TraceInput.reportDamage(reader, in: context)
    }
    if json {
      context.stdout.line(runs.json().jsonText)
    } else {
      context.stdout.write(runs.text(style: context.style))
    }
    context.stdout.flush()
    return runs.hasProblems ? ExitStatus.findings : ExitStatus.success
  }
}
