import LoupeCore
import LoupeSession

/// `loupe_doctor`: the known pitfalls in the session so far, with the `loupe doctor` analysis.
enum DoctorTool: LoupeTool {
  static let spec = ToolSpec(
    name: "loupe_doctor",
    title: "Find known pitfalls",
    description: """
      Runs Loupe's doctor on the session so far: effects never finished or outliving their store, effects \
      cancelled by another store (a shared cancel id), derived values recomputed for nothing, identity churn, \
      actions sent to ended stores, dropped events. Each finding says what happened (with #seq numbers to pass \
      to loupe_why or loupe_timeline), why it matters and how to fix it.
      """,
    inputSchema: JSONSchema.object(
      [SessionArgument.schema, ("ignore", JSONSchema.stringArray("Finding codes to leave out (ones judged fine), as 'loupe doctor --ignore' takes."))],
      required: ["session"]),
    outputSchema: JSONSchema.object(
      [
        ("events", JSONSchema.integer("Events examined.")),
        ("problems", JSONSchema.integer("Findings of severity problem.")),
        (
          "findings",
          JSONSchema.array(
            JSONSchema.object(
              [
                ("code", JSONSchema.string("A stable identifier, e.g. effect-cancelled-by-another-store.")),
                ("severity", JSONSchema.string("problem (the program misbehaved or wasted work) or note (worth a look, often fine).", enum: ["problem", "note"])),
                ("title", JSONSchema.string("One line.")),
                ("details", JSONSchema.stringArray("What happened, naming stores, effects and #seqs.")),
                ("why", JSONSchema.string("Why it matters.")),
                ("fix", JSONSchema.string("What to do.")),
                ("seqs", JSONSchema.array(["type": "integer"], description: "The events involved.")),
              ], required: ["code", "severity", "title", "details", "why", "fix", "seqs"], closed: false))
        ),
        ("notes", JSONSchema.stringArray("Damage found in the trace (a cut-off last line, skipped lines).")),
        ("ignored", JSONSchema.integer("Findings left out by 'ignore'.")),
      ], required: ["events", "problems", "findings", "notes", "ignored"]),
    readOnly: true)

  static func run(_ arguments: ToolArguments, in box: ToolBox) async throws(ToolFailure) -> ToolResult {
    let session = try await SessionArgument.session(arguments, in: box)
    try SessionArgument.requireEvents(session)
    let doctor = session.model.doctor()
    let ignored = Set(arguments.strings("ignore") ?? [])
    if let unknown = ignored.first(where: { !Doctor.codes.contains($0) }) {
      throw .invalidArguments("'ignore': unknown finding code '\(unknown)' (codes: \(Doctor.codes.joined(separator: ", "))).")
    }
    let all = doctor.findings()
    let findings = all.filter { !ignored.contains($0.code) }
    let problems = findings.filter { $0.severity == .problem }.count
    let notes = session.model.trace.damage
    var text: String
    if findings.isEmpty {
      text = "No problems found in session \(session.id) (\(Formatting.plural(doctor.events, "event")) examined).\n"
    } else {
      let noteCount = findings.count - problems
      text = "Found \(Formatting.plural(problems, "problem"))\(noteCount > 0 ? " and \(Formatting.plural(noteCount, "note"))" : "") in session \(session.id) (\(Formatting.plural(doctor.events, "event"))):\n"
      for (offset, finding) in findings.enumerated() {
        text += "\n" + finding.text(number: offset + 1, style: Style(enabled: false))
      }
      text += "\nAsk loupe_why {\"session\": \"\(session.id)\", \"seq\": N} about any #N above.\n"
    }
    if all.count > findings.count { text += "(\(Formatting.plural(all.count - findings.count, "finding")) ignored.)\n" }
    text += notes.text
    return ToolResult(
      text: text,
      structured: [
        "events": .int(doctor.events), "problems": .int(problems), "findings": .array(findings.map(\.json)),
        "notes": .array(notes.lines.map(JSON.string)), "ignored": .int(all.count - findings.count),
      ])
  }
}

/// What reading the trace found wrong with it, for the end of an answer.
struct DamageNotes {
  var lines: [String] = []

  init(_ damage: (malformedLines: Int, truncation: TraceReader.Truncation?)) {
    if let truncation = damage.truncation { lines.append(truncation.description) }
    if damage.malformedLines > 0 {
      lines.append("\(Formatting.plural(damage.malformedLines, "malformed line")) skipped")
    }
  }

  var text: String { lines.map { "Note: \($0)\n" }.joined() }
}
