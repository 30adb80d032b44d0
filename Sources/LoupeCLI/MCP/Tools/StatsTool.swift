import LoupeCore
import LoupeSession

/// `loupe_stats`: counts and durations, with the `loupe stats` analysis.
enum StatsTool: LoupeTool {
  static let spec = ToolSpec(
    name: "loupe_stats",
    title: "Summarize the session",
    description: """
      Counts and timings of the session so far, as 'loupe stats' prints them: events by kind, actions by \
      count with their reducer time (p50/p95/max), effects grouped by the action that started them (started, \
      completed, failed, cancelled, still running, durations), derived values (recomputations, unchanged \
      outputs) and identity changes per store. The busiest rows come first; at most 40 per table.
      """,
    inputSchema: JSONSchema.object([SessionArgument.schema], required: ["session"]),
    outputSchema: JSONSchema.object(
      [
        ("trace", ["type": "object", "description": "Program, events, duration, counts by kind."]),
        ("actions", JSONSchema.array(["type": "object"], description: "Per action label: count and reducer time.")),
        ("effects", JSONSchema.array(["type": "object"], description: "Per starting action and cancel id.")),
        ("derived", JSONSchema.array(["type": "object"], description: "Per derived value.")),
        ("identityChanges", JSONSchema.array(["type": "object"], description: "Per store.")),
        ("warnings", ["type": "object", "description": "Runtime warnings by code."]),
        ("omitted", ["type": "object", "description": "Rows left out of each table past the budget."]),
      ], required: ["trace", "actions", "effects", "derived", "identityChanges", "warnings", "omitted"]),
    readOnly: true)

  static func run(_ arguments: ToolArguments, in box: ToolBox) async throws(ToolFailure) -> ToolResult {
    let session = try await SessionArgument.session(arguments, in: box)
    try SessionArgument.requireEvents(session)
    let statistics = session.model.statistics()
    let trace = session.model.trace
    let header: TraceHeader
    if let known = trace.header { header = known } else { header = try SessionArgument.header(session) }
    let report = StatsReport(statistics: statistics, header: header, path: session.tracePath)
    var structured = report.json().objectValue ?? JSONObject()
    var omitted = JSONObject()
    for table in ["actions", "effects", "derived", "identityChanges"] {
      guard let rows = structured[table]?.arrayValue else { continue }
      if rows.count > box.budget.listLimit {
        structured[table] = .array(Array(rows.prefix(box.budget.listLimit)))
        omitted.append(table, .int(rows.count - box.budget.listLimit))
      }
    }
    structured["omitted"] = .object(omitted)
    var text = "Session \(session.id):\n" + report.text(style: Style(enabled: false))
    if !omitted.isEmpty {
      text = "Session \(session.id) (tables cut to \(box.budget.listLimit) rows in structuredContent):\n" + report.text(style: Style(enabled: false))
    }
    text += trace.damage.text
    return ToolResult(text: text, structured: structured)
  }
}
