import LoupeCore

/// `loupe_why`: why an event happened, and what it caused.
enum WhyTool: LoupeTool {
  static let spec = ToolSpec(
    name: "loupe_why",
    title: "Explain an event",
    description: """
      Explains event 'seq': the event, its chain of causes newest first (the action that changed the state or \
      started the effect, the effect that sent that action, the action that started that effect, … back to \
      the send), each with the source line it came from (file:line), and what the event caused: state \
      changes, effects started, cancellations, derived values recomputed, and the actions its effects sent \
      (at most 20 listed, all counted).
      """,
    inputSchema: JSONSchema.object(
      [SessionArgument.schema, ("seq", JSONSchema.integer("The event to explain (a #seq from another answer).", minimum: 0))],
      required: ["session", "seq"]),
    outputSchema: JSONSchema.object(
      [
        ("event", EventLines.schema),
        ("causes", JSONSchema.array(EventLines.schema, description: "Newest first, back to the send.")),
        ("effects", JSONSchema.array(EventLines.schema, description: "What the event caused, in order (at most 20).")),
        ("effectCounts", ["type": "object", "description": "Everything it caused, counted by kind.", "additionalProperties": ["type": "integer"]]),
        ("endedEffect", ["description": "For an effect.finished or effect.cancelled: the effect's effect.started (an event like 'event'), else null."]),
      ], required: ["event", "causes", "effects", "effectCounts", "endedEffect"]),
    readOnly: true)

  static func run(_ arguments: ToolArguments, in box: ToolBox) async throws(ToolFailure) -> ToolResult {
    let session = try await SessionArgument.session(arguments, in: box)
    guard let seq = arguments.int("seq") else { throw .invalidArguments("'seq' is required") }
    _ = try SessionArgument.reader(session)
    let answer = try WhyQuery(limit: 20).answer(seq, in: session.tracePath)
    var lines = EventLines(budget: box.budget)
    // The renderer learns from earlier events first, so later lines name their causes.
    let endedLine = answer.endedEffect.map { lines.line($0.event) }
    var causeLines: [(WhyQuery.RawEvent, String)] = []
    for raw in answer.causes.reversed() { causeLines.append((raw, lines.line(raw.event))) }
    causeLines.reverse()
    let eventLine = lines.line(answer.event.event)
    let effectLines = answer.effects.map { ($0, lines.line($0.event)) }

    var text = "#\(seq) in session \(session.id):\n  \(eventLine)\n"
    if let endedLine { text += "The effect it ended:\n  ◦ \(endedLine)\n" }
    if causeLines.isEmpty {
      text += "\nCauses: none recorded (sent by the program itself"
      text += EventLines.location(answer.event.event).map { " at \($0)" } ?? ""
      text += ", or an event no action caused).\n"
    } else {
      text += "\nCaused by (newest first):\n"
      for (_, line) in causeLines { text += "  ← \(line)\n" }
    }
    let total = answer.effectCounts.values.reduce(0, +)
    if total == 0 {
      text += "\nIt caused nothing recorded (no state change, effect, cancellation or action followed from it).\n"
    } else {
      let counts = answer.effectCounts.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
      text += "\nIt caused \(Formatting.plural(total, "event")) (\(counts)):\n"
      for (_, line) in effectLines { text += "  → \(line)\n" }
      if total > effectLines.count {
        text += "  … \(Formatting.count(total - effectLines.count)) more: loupe_timeline with \"since\": \(effectLines.last.map { $0.0.event.seq + 1 } ?? seq) shows what came next.\n"
      }
    }
    var counts = JSONObject()
    for (kind, count) in answer.effectCounts.sorted(by: { $0.key < $1.key }) { counts.append(kind, .int(count)) }
    return ToolResult(
      text: text,
      structured: [
        "event": EventLines.json(answer.event.event, line: eventLine),
        "causes": .array(causeLines.map { EventLines.json($0.0.event, line: $0.1) }),
        "effects": .array(effectLines.map { EventLines.json($0.0.event, line: $0.1) }),
        "effectCounts": .object(counts),
        "endedEffect": answer.endedEffect.map { EventLines.json($0.event, line: endedLine ?? "") } ?? .null,
      ])
  }
}
