import LoupeCore

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
        ("effects", JSONSchema.array(EffectLedger.Entry.schema, description: "Running effects (oldest first), then ended ones (newest first).")),
        ("counts", JSONSchema.object(
          [
            ("started", JSONSchema.integer("Effects started.")), ("running", JSONSchema.integer("Still running.")),
            ("completed", JSONSchema.integer("Completed.")), ("failed", JSONSchema.integer("Failed.")),
            ("cancelled", JSONSchema.integer("Cancelled.")),
          ], required: ["started", "running", "completed", "failed", "cancelled"])),
        ("at", JSONSchema.integer("The seq the list is for.")),
        ("omitted", JSONSchema.integer("Effects that matched and were left out past the budget.")),
      ], required: ["effects", "counts", "at", "omitted"]),
    readOnly: true)

  static func run(_ arguments: ToolArguments, in box: ToolBox) async throws(ToolFailure) -> ToolResult {
    let session = try await SessionArgument.session(arguments, in: box)
    let reader = try SessionArgument.reader(session)
    let stores = arguments.strings("stores").map { $0.map { Glob($0) } }
    let status = arguments.string("status") ?? "all"
    let at = arguments.int("at")
    var ledger = EffectLedger(keepEnded: box.budget.listLimit, stores: stores)
    var lastSeq = 0
    do throws(CommandFailure) {
      // Every line is read (for the newest seq); only actions and effects are decoded.
      while let item = try TraceInput.next(reader, decode: false) {
        if let at, item.seq > at { break }
        lastSeq = item.seq
        guard item.kind == ActionReceived.kind || item.kind.hasPrefix("effect.") else { continue }
        if let event = item.event ?? (try? Event(jsonText: item.bytes)) { ledger.add(event) }
      }
    } catch {
      throw ToolFailure("io-error", error.message)
    }
    let now = at ?? lastSeq
    let running = status == "ended" ? [] : ledger.running
    let ended = status == "running" ? [] : ledger.ended
    let shownRunning = Array(running.prefix(box.budget.listLimit))
    let shownEnded = Array(ended.prefix(box.budget.listLimit))
    let matchedEnded = status == "running" ? 0 : ledger.counts.completed + ledger.counts.failed + ledger.counts.cancelled
    let omitted = (running.count - shownRunning.count) + (matchedEnded - shownEnded.count)
    let c = ledger.counts
    var text = "Effects of session \(session.id) up to #\(now): \(c.started) started, \(c.running) running, \(c.completed) completed, \(c.failed) failed, \(c.cancelled) cancelled.\n"
    if status != "ended" {
      text += shownRunning.isEmpty ? "\nNone running.\n" : "\nRunning (oldest first):\n"
      for entry in shownRunning { text += box.budget.line("  " + entry.text(now: ledger.lastTime)) + "\n" }
    }
    if status != "running" {
      text += shownEnded.isEmpty ? "\nNone ended.\n" : "\nEnded (newest first):\n"
      for entry in shownEnded { text += box.budget.line("  " + entry.text(now: ledger.lastTime)) + "\n" }
    }
    if omitted > 0 {
      text += "… \(Formatting.plural(omitted, "more effect")) not listed: narrow with 'stores', 'status' or an earlier 'at'.\n"
    }
    return ToolResult(
      text: text,
      structured: [
        "effects": .array((shownRunning + shownEnded).map { $0.json(now: ledger.lastTime) }),
        "counts": [
          "started": .int(c.started), "running": .int(c.running), "completed": .int(c.completed), "failed": .int(c.failed),
          "cancelled": .int(c.cancelled),
        ],
        "at": .int(now), "omitted": .int(omitted),
      ])
  }
}

/// The effects seen so far: every running one, the newest ended ones, and counts.
struct EffectLedger {
  struct Entry {
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
      ], required: ["effect", "store", "cancelID", "status", "startedAt", "startedBy", "endedAt", "durationMs", "reason", "cancelledBy", "error"])

    func duration(now: Double) -> Double { (endTime ?? now) - startTime }

    func text(now: Double) -> String {
      var text = "effect \(effect) of \(store)"
      if let cancelID { text += " (cancel id \"\(cancelID)\")" }
      text += " started at #\(startSeq)\(causeAction.map { " by \($0)" } ?? " by #\(cause)")"
      switch status {
      case "running":
        text += ", running for \(Formatting.duration(milliseconds: duration(now: now)))"
      case "cancelled":
        text += ", cancelled at #\(endSeq ?? 0) after \(Formatting.duration(milliseconds: duration(now: now)))"
        if let reason { text += " (\(reason))" }
        if let by {
          text += " by \(by.store) handling #\(by.cause)"
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
        "reason": reason.map(JSON.string) ?? .null,
        "cancelledBy": by.map { ["store": .string($0.store), "cause": .int($0.cause), "otherStore": .bool($0.store != store)] } ?? .null,
        "error": error.map(JSON.string) ?? .null,
      ]
    }
  }

  struct Counts {
    var started = 0
    var completed = 0
    var failed = 0
    var cancelled = 0
    var running: Int { started - completed - failed - cancelled }
  }

  let keepEnded: Int
  let stores: [Glob]?
  private var runningByID: [Int: Entry] = [:]
  /// The newest ended effects, oldest first (at most ``keepEnded``).
  private var recentlyEnded: [Entry] = []
  private var actions = RecentActions()
  private(set) var counts = Counts()
  private(set) var lastTime = 0.0

  init(keepEnded: Int, stores: [Glob]?) {
    self.keepEnded = keepEnded
    self.stores = stores
  }

  var running: [Entry] { runningByID.values.sorted { $0.startSeq < $1.startSeq } }
  var ended: [Entry] { recentlyEnded.reversed() }

  mutating func add(_ event: Event) {
    lastTime = event.time
    switch event.payload {
    case .actionReceived(let e):
      actions.record(seq: event.seq, label: e.action)
    case .effectStarted(let e):
      guard stores?.anyMatches(e.store) ?? true else { return }
      counts.started += 1
      runningByID[e.effect] = Entry(
        effect: e.effect, store: e.store, cancelID: e.cancelID, startSeq: event.seq, startTime: event.time, cause: e.cause,
        causeAction: actions[e.cause])
    case .effectFinished(let e):
      guard var entry = runningByID.removeValue(forKey: e.effect) else { return }
      entry.status = e.outcome.rawValue
      entry.error = e.error
      if e.outcome == .completed { counts.completed += 1 } else { counts.failed += 1 }
      end(&entry, event)
    case .effectCancelled(let e):
      guard var entry = runningByID.removeValue(forKey: e.effect) else { return }
      entry.status = "cancelled"
      entry.reason = e.reason.rawValue
      entry.by = e.by
      counts.cancelled += 1
      end(&entry, event)
    default:
      break
    }
  }

  private mutating func end(_ entry: inout Entry, _ event: Event) {
    entry.endSeq = event.seq
    entry.endTime = event.time
    recentlyEnded.append(entry)
    if recentlyEnded.count > keepEnded * 2 { recentlyEnded.removeFirst(recentlyEnded.count - keepEnded) }
  }
}
