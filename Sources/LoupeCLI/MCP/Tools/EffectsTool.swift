import LoupeCore
import LoupeSession

/// `loupe_effects`: the effects running at a moment, and the ones that ended, with durations
/// and who cancelled them.
enum EffectsTool: LoupeTool {
  static let spec = ToolSpec(
    name: "loupe_effects",
    title: "List effects",
    description: """
      The session's effects up to event 'at' (default: the newest): those still running (oldest first: how \
      long they have run, the action that started them, their cancel id) and those that ended (newest first: \
      completed, failed or cancelled, after how long, and for a cancellation the store and action that did \
      it, flagged when it was another store). Filter with 'stores' (globs) and 'status'. At most 40 of each.
      """,
    inputSchema: JSONSchema.object(
      [
        SessionArgument.schema,
        ("at", JSONSchema.integer("A seq: the effects as they were right after that event (default: the newest).", minimum: 0)),
        ("stores", JSONSchema.stringArray("Only effects of stores matching these globs.")),
        ("status", JSONSchema.string("Which effects to list (default all).", enum: ["running", "ended", "all"])),
      ], required: ["session"]),
    outputSchema: JSONSchema.object(
      [
        ("effects", JSONSchema.array(EffectRows.Row.schema, description: "Running effects (oldest first), then ended ones (newest first).")),
        ("counts", JSONSchema.object(
          [
            ("started", JSONSchema.integer("Effects started.")), ("running", JSONSchema.integer("Still running.")),
            ("finished", JSONSchema.integer("Completed or failed.")), ("cancelled", JSONSchema.integer("Cancelled.")),
          ], required: ["started", "running", "finished", "cancelled"])),
        ("at", JSONSchema.integer("The seq the list is for.")),
        ("omitted", JSONSchema.integer("Effects that matched and were left out past the budget.")),
      ], required: ["effects", "counts", "at", "omitted"]),
    readOnly: true)

  static func run(_ arguments: ToolArguments, in box: ToolBox) async throws(ToolFailure) -> ToolResult {
    let session = try await SessionArgument.session(arguments, in: box)
    let stores = arguments.strings("stores").map { $0.map { Glob($0) } }
    let status = arguments.string("status") ?? "all"
    let limit = box.budget.listLimit
    let (running, ended, counts, now, nowTime) = try session.model.read { model throws(ToolFailure) in
      let position = try model.position(at: arguments.int("at"), session: session.id)
      var counts = EffectRows.Counts()
      var runningSpans: [(effect: Int, start: Int)] = []
      var endedSpans: [(effect: Int, start: Int, end: Int)] = []
      for effect in model.effects {
        guard let span = model.span(ofEffect: effect), span.start <= position else { continue }
        if let stores, let store = model.store(at: span.start), !stores.anyMatches(store) { continue }
        counts.started += 1
        if let end = span.end, end <= position {
          if model.kindName(at: end) == EffectCancelled.kind { counts.cancelled += 1 } else { counts.finished += 1 }
          endedSpans.append((effect, span.start, end))
        } else {
          runningSpans.append((effect, span.start))
        }
      }
      endedSpans.sort { $0.end > $1.end }
      func entry(_ start: Int, _ end: Int?) -> EffectRows.Row? {
        guard case .effectStarted(let e) = model.event(at: start).payload else { return nil }
        let cause = model.cause(of: start).map { model.event(at: $0) }
        var entry = EffectRows.Row(
          effect: e.effect, store: e.store, cancelID: e.cancelID, startSeq: model.seq(at: start), startTime: model.event(at: start).time,
          cause: e.cause, causeAction: cause.flatMap { if case .actionReceived(let a) = $0.payload { a.action } else { nil } },
          source: e.source)
        if let end { entry.end(model.event(at: end)) }
        return entry
      }
      let running = status == "ended" ? [] : runningSpans.prefix(limit).compactMap { entry($0.start, nil) }
      let ended = status == "running" ? [] : endedSpans.prefix(limit).compactMap { entry($0.start, $0.end) }
      return (running, ended, counts, model.seq(at: position), model.event(at: position).time)
    }
    let omitted =
      (status == "ended" ? 0 : counts.running - running.count) + (status == "running" ? 0 : counts.finished + counts.cancelled - ended.count)
    let c = counts
    var text = "Effects of session \(session.id) up to #\(now): \(c.started) started, \(c.running) running, \(c.finished) finished, \(c.cancelled) cancelled.\n"
    if status != "ended" {
      text += running.isEmpty ? "\nNone running.\n" : "\nRunning (oldest first):\n"
      for entry in running { text += box.budget.line("  " + entry.text(now: nowTime)) + "\n" }
    }
    if status != "running" {
      text += ended.isEmpty ? "\nNone ended.\n" : "\nEnded (newest first):\n"
      for entry in ended { text += box.budget.line("  " + entry.text(now: nowTime)) + "\n" }
    }
    if omitted > 0 {
      text += "… \(Formatting.plural(omitted, "more effect")) not listed: narrow with 'stores', 'status' or an earlier 'at'.\n"
    }
    return ToolResult(
      text: text,
      structured: [
        "effects": .array((running + ended).map { $0.json(now: nowTime) }),
        "counts": [
          "started": .int(c.started), "running": .int(c.running), "finished": .int(c.finished), "cancelled": .int(c.cancelled),
        ],
        "at": .int(now), "omitted": .int(omitted),
      ])
  }
}

/// The rows of `loupe_effects`.
enum EffectRows {
  struct Row {
    var effect: Int
    var store: String
    var cancelID: String?
    var startSeq: Int
    var startTime: Double
    var cause: Int
    var causeAction: String?
    /// `running`, `completed`, `failed` or `cancelled`.
    var status = "running"
    var endSeq: Int?
    var endTime: Double?
    var error: String?
    var reason: String?
    var by: EffectCancelled.Source?
    /// The line that created the effect.
    var source: CodeLocation?

    /// Records how it ended.
    mutating func end(_ event: Event) {
      endSeq = event.seq
      endTime = event.time
      switch event.payload {
      case .effectFinished(let e):
        status = e.outcome.rawValue
        error = e.error
      case .effectCancelled(let e):
        status = "cancelled"
        reason = e.reason.rawValue
        by = e.by
      default:
        break
      }
    }

    static let schema = JSONSchema.object(
      [
        ("effect", JSONSchema.integer("The effect's id.")),
        ("store", JSONSchema.string("The store that started it.")),
        ("cancelID", JSONSchema.nullable("string", "Its cancel id.")),
        ("status", JSONSchema.string("Where it is.", enum: ["running", "completed", "failed", "cancelled"])),
        ("startedAt", JSONSchema.integer("The seq of its effect.started.")),
        ("startedBy", JSONSchema.object([("seq", JSONSchema.integer("The action's seq.")), ("action", JSONSchema.nullable("string", "Its label."))], required: ["seq", "action"])),
        ("endedAt", JSONSchema.nullable("integer", "The seq of its end.")),
        ("durationMs", ["type": "number", "description": "How long it ran (until 'at' for a running one)."]),
        ("reason", JSONSchema.nullable("string", "Why it was cancelled: cancel, cancelInFlight, storeDestroyed or identityEnded.")),
        ("cancelledBy", ["description": "The store and action that cancelled it: {store, cause, otherStore}, or null."]),
        ("error", JSONSchema.nullable("string", "A failed effect's error.")),
        ("source", ["description": "The line that created the effect: {file, line}, or null."]),
      ], required: ["effect", "store", "cancelID", "status", "startedAt", "startedBy", "endedAt", "durationMs", "reason", "cancelledBy", "error", "source"])

    func duration(now: Double) -> Double { (endTime ?? now) - startTime }

    func text(now: Double) -> String {
      var text = "effect \(effect) of \(store)"
      if let cancelID { text += " (cancel id \"\(cancelID)\")" }
      text += " started at #\(startSeq)\(causeAction.map { " by \($0)" } ?? " by #\(cause)")"
      if let source { text += " (\(source.shortDescription))" }
      switch status {
      case "running":
        text += ", running for \(Formatting.duration(milliseconds: duration(now: now)))"
      case "cancelled":
        text += ", cancelled at #\(endSeq ?? 0) after \(Formatting.duration(milliseconds: duration(now: now)))"
        if let reason { text += " (\(reason))" }
        if let by {
          text += " by \(by.store) handling #\(by.cause)"
          if let line = by.source { text += " at \(line.shortDescription)" }
          if by.store != store, reason == "cancel" || reason == "cancelInFlight" { text += " — another store" }
        }
      default:
        text += ", \(status) at #\(endSeq ?? 0) after \(Formatting.duration(milliseconds: duration(now: now)))"
        if let error { text += ": \(error)" }
      }
      return text
    }

    func json(now: Double) -> JSON {
      [
        "effect": .int(effect), "store": .string(store), "cancelID": cancelID.map(JSON.string) ?? .null, "status": .string(status),
        "startedAt": .int(startSeq), "startedBy": ["seq": .int(cause), "action": causeAction.map(JSON.string) ?? .null],
        "endedAt": endSeq.map(JSON.int) ?? .null, "durationMs": .double((duration(now: now) * 1000).rounded() / 1000),
        "reason": reason.map(JSON.string) ?? .null, "source": source.map { ["file": .string($0.file), "line": .int($0.line)] } ?? .null,
        "cancelledBy": by.map { ["store": .string($0.store), "cause": .int($0.cause), "otherStore": .bool($0.store != store)] } ?? .null,
        "error": error.map(JSON.string) ?? .null,
      ]
    }
  }

  struct Counts {
    var started = 0
    /// Completed or failed.
    var finished = 0
    var cancelled = 0
    var running: Int { started - finished - cancelled }
  }

}
