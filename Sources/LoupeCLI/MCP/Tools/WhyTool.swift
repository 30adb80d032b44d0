import LoupeCore
import LoupeSession

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

  static let chainLimit = 20
  static let effectLimit = 20

  static func run(_ arguments: ToolArguments, in box: ToolBox) async throws(ToolFailure) -> ToolResult {
    let session = try await SessionArgument.session(arguments, in: box)
    guard let seq = arguments.int("seq") else { throw .invalidArguments("'seq' is required") }
    let answer = try session.model.read { model throws(ToolFailure) in try Answer(model, seq: seq, session: session.id) }
    var lines = EventLines(budget: box.budget)
    for event in answer.context { _ = lines.line(event, shown: false) }
    // The renderer learns from earlier events first, so later lines name their causes.
    var causeLines: [(Event, String)] = []
    for event in answer.causes.reversed() { causeLines.append((event, lines.line(event))) }
    causeLines.reverse()
    let endedLine = answer.endedEffect.map { lines.line($0) }
    let eventLine = lines.line(answer.event)
    let effectLines = answer.effects.map { ($0, lines.line($0)) }

    var text = "#\(seq) in session \(session.id):\n  \(eventLine)\n"
    if let endedLine { text += "The effect it ended:\n  ◦ \(endedLine)\n" }
    if causeLines.isEmpty {
      text += "\nCauses: none recorded (sent by the program itself"
      text += EventLines.location(answer.event).map { " at \($0)" } ?? ""
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
      if total > effectLines.count, let last = effectLines.last {
        text += "  … \(Formatting.count(total - effectLines.count)) more: loupe_timeline with \"since\": \(last.0.seq + 1) shows what came next.\n"
      }
    }
    var counts = JSONObject()
    for (kind, count) in answer.effectCounts.sorted(by: { $0.key < $1.key }) { counts.append(kind, .int(count)) }
    return ToolResult(
      text: text,
      structured: [
        "event": EventLines.json(answer.event, line: eventLine),
        "causes": .array(causeLines.map { EventLines.json($0.0, line: $0.1) }),
        "effects": .array(effectLines.map { EventLines.json($0.0, line: $0.1) }),
        "effectCounts": .object(counts),
        "endedEffect": answer.endedEffect.map { EventLines.json($0, line: endedLine ?? "") } ?? .null,
      ])
  }

  /// What the session model says about one event: its cause links back to the send, the
  /// effect it ended, and its consequences — with, for each effect it started, the actions
  /// that effect sent and how it ended.
  struct Answer {
    var event: Event
    /// Newest first.
    var causes: [Event] = []
    var endedEffect: Event?
    /// In order, at most ``WhyTool/effectLimit``.
    var effects: [Event] = []
    var effectCounts: [String: Int] = [:]
    /// Events the lines name (the action that started the ended effect), for the renderer.
    var context: [Event] = []

    init(_ model: SessionModel, seq: Int, session: String) throws(ToolFailure) {
      guard let position = model.index(ofSeq: seq) else {
        let range = model.count > 0 ? " (it has #\(model.seq(at: 0))…#\(model.seq(at: model.count - 1)))" : ""
        throw ToolFailure("no-such-event", "There is no event #\(seq) in session \(session)\(range); loupe_timeline lists the seqs there are.")
      }
      event = model.event(at: position)
      var link = model.cause(of: position)
      var seen: Set<Int> = [position]
      while let current = link, causes.count < WhyTool.chainLimit, seen.insert(current).inserted {
        causes.append(model.event(at: current))
        link = model.cause(of: current)
      }
      switch event.payload {
      case .effectFinished(let e): endedEffect = model.span(ofEffect: e.effect).map { model.event(at: $0.start) }
      case .effectCancelled(let e): endedEffect = model.span(ofEffect: e.effect).map { model.event(at: $0.start) }
      default: break
      }
      if case .effectStarted(let e)? = endedEffect?.payload, let start = model.span(ofEffect: e.effect)?.start,
        let cause = model.cause(of: start)
      {
        context.append(model.event(at: cause))
      }
      var consequences = Set(model.consequences(of: position))
      let started: [Int]
      if case .effectStarted = event.payload { started = [position] } else { started = consequences.filter { model.kindName(at: $0) == EffectStarted.kind } }
      for start in started {
        consequences.formUnion(model.consequences(of: start))
        if let effect = Self.effectID(model, start), let end = model.span(ofEffect: effect)?.end { consequences.insert(end) }
      }
      consequences.remove(position)
      for consequence in consequences.sorted() {
        effectCounts[model.kindName(at: consequence), default: 0] += 1
        if effects.count < WhyTool.effectLimit { effects.append(model.event(at: consequence)) }
      }
    }

    private static func effectID(_ model: SessionModel, _ start: Int) -> Int? {
      if case .effectStarted(let e) = model.event(at: start).payload { return e.effect }
      return nil
    }
  }
}
