import LoupeCore

/// `loupe doctor FILE [--json]`
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

      Exits with status 1 when it finds a problem, 0 when it finds none.
      """,
    usage: "FILE [--json]",
    arguments: [TraceInput.fileArgument],
    options: [.flag("--json", help: "Print the findings as one JSON object.")],
    examples: [("loupe doctor bug.loupe", "Check a recording"), ("loupe doctor bug.loupe --json | jq '.problems[].code'", "For scripts")])

  var path: String
  var json: Bool

  init(arguments: ParsedArguments) throws(UsageError) {
    path = arguments.positionals[0]
    json = arguments.flag("--json")
  }

  func run(in context: CommandContext) async throws(CommandFailure) -> Int32 {
    let reader = try TraceInput.open(path)
    let progress = TraceInput.progress(for: reader, in: context)
    var doctor = Doctor()
    // State changes (the bulk of most traces) matter to no check: they are counted, not decoded.
    while let item = try TraceInput.next(reader, decode: false) {
      if item.kind == StateChanged.kind {
        doctor.skip(seq: item.seq)
      } else if let event = item.event ?? (try? Event(jsonText: item.bytes)) {
        doctor.add(event)
      }
      progress.update(reader.bytesRead)
    }
    progress.finish()
    let findings = doctor.findings()
    let header = reader.header
    let about = header.program.isEmpty ? "" : "\(header.program), "
    if json {
      var notes: [JSON] = []
      if let truncation = reader.truncation { notes.append(.string(truncation.description)) }
      if reader.malformedLineCount > 0 {
        notes.append(.string("\(Formatting.plural(reader.malformedLineCount, "malformed line")) skipped"))
      }
      let object: JSON = [
        "trace": ["path": .string(reader.path), "program": .string(header.program), "events": .int(doctor.events)],
        "problems": .array(findings.map(\.json)),
        "notes": .array(notes),
      ]
      context.stdout.line(object.jsonText)
    } else {
      let style = context.style
      let subject = "\(reader.path) (\(about)\(Formatting.plural(doctor.events, "event")))"
      if findings.isEmpty {
        context.stdout.line("No problems found in \(subject).")
      } else {
        context.stdout.line(style.bold("Found \(Formatting.plural(findings.count, "problem")) in \(subject):"))
        for (offset, finding) in findings.enumerated() {
          context.stdout.line()
          context.stdout.write(finding.text(number: offset + 1, style: style))
        }
      }
    }
    context.stdout.flush()
    TraceInput.reportDamage(reader, in: context)
    return findings.isEmpty ? ExitStatus.success : ExitStatus.findings
  }
}
