import Foundation
import LoupeCore
import LoupeSession

/// `loupe_timeline`: the session's events, one line each in `loupe show`'s style, filtered
/// and paged by `seq`.
enum TimelineTool: LoupeTool {
  static let spec = ToolSpec(
    name: "loupe_timeline",
    title: "List events",
    description: """
      The session's events in order, one line each as 'loupe show' prints them: time, #seq, kind, store, and \
      what happened (the action and where it was sent from as file:line, the _printChanges summary and the \
      first changes, the effect and its cancel id, who cancelled it). Filter with kinds/stores/actions/paths \
      (globs), page with since/until (seq, inclusive) and limit (default 50, at most 500). The answer always \
      says how many matching events it left out and the 'since' that continues it.
      """,
    inputSchema: JSONSchema.object(
      [SessionArgument.schema] + FilterArguments.schema + [
        ("since", JSONSchema.integer("The first seq to show (inclusive).", minimum: 0)),
        ("until", JSONSchema.integer("The last seq to show (inclusive).", minimum: 0)),
        ("limit", JSONSchema.integer("How many events to show (default 50).", minimum: 1, maximum: 500)),
      ], required: ["session"]),
    outputSchema: JSONSchema.object(
      [
        ("events", JSONSchema.array(EventLines.schema, description: "The events shown, in order.")),
        ("matched", JSONSchema.integer("Events in [since, until] that pass the filter (a lower bound when 'complete' is false).")),
        ("complete", JSONSchema.boolean("Whether 'matched' counts them all (counting stops 20,000 events past the page).")),
        ("shown", JSONSchema.integer("Events in 'events'.")),
        ("next", JSONSchema.nullable("integer", "The 'since' that continues after the last event shown; null when nothing is left.")),
        ("lastSeq", JSONSchema.nullable("integer", "The session's newest event.")),
      ], required: ["events", "matched", "complete", "shown", "next", "lastSeq"]),
    readOnly: true)

  /// After a full page, at most this many more events are looked at to count what was left
  /// out (so an answer on a million events stays fast); past it the count is a lower bound.
  static let countingBudget = 20_000

  static func run(_ arguments: ToolArguments, in box: ToolBox) async throws(ToolFailure) -> ToolResult {
    let session = try await SessionArgument.session(arguments, in: box)
    let filter = FilterArguments.filter(arguments)
    let since = arguments.int("since") ?? 0
    let until = arguments.int("until") ?? .max
    let limit = arguments.int("limit") ?? box.budget.timelineLimit
    if since > until { throw .invalidArguments("'since' (\(since)) is after 'until' (\(until)).") }
    let page = try session.model.read { model throws(ToolFailure) in
      guard model.count > 0 else {
        throw ToolFailure("no-events", "Session \(session.id) has no events yet (the program has not created a store). Ask again in a moment.")
      }
      return Page(model, filter: filter, since: since, until: until, limit: limit, budget: box.budget)
    }
    var text = "Session \(session.id): "
    text += page.complete ? "\(Formatting.plural(page.matched, "event")) match" : "at least \(Formatting.count(page.matched)) events match"
    if let description = FilterArguments.describe(arguments) { text += " [\(description)]" }
    if since > 0 || until < .max { text += " in #\(since)…\(until == .max ? "end" : "#\(until)")" }
    text += "; showing \(page.lines.count)"
    if page.next == nil, let lastSeq = page.lastSeq { text += " (the session's newest event is #\(lastSeq))" }
    text += ".\n"
    text += page.lines.map(\.text).joined(separator: "\n") + (page.lines.isEmpty ? "" : "\n")
    if let next = page.next {
      let more = page.matched - page.lines.count
      text += "… \(page.complete ? "" : "at least ")\(Formatting.plural(more, "more matching event")) not shown: call loupe_timeline with \"since\": \(next) to continue (or narrow the filter).\n"
    } else if page.matched == 0 {
      text += "No event matches; loupe_stats lists the kinds, actions and stores there are.\n"
    }
    return ToolResult(
      text: text,
      structured: [
        "events": .array(page.lines.map(\.json)), "matched": .int(page.matched), "complete": .bool(page.complete),
        "shown": .int(page.lines.count), "next": page.next.map(JSON.int) ?? .null, "lastSeq": page.lastSeq.map(JSON.int) ?? .null,
      ])
  }

  /// One page of the timeline, read from the session model: positions are found by binary
  /// search on `seq`, and events the filter rejects by kind or store are skipped without
  /// reading them back from the trace.
  struct Page {
    struct Line {
      var text: String
      var json: JSON
    }

    var lines: [Line] = []
    var matched = 0
    /// Whether ``matched`` counts every match (else it is a lower bound).
    var complete = true
    var next: Int?
    var lastSeq: Int?

    init(_ model: SessionModel, filter: EventFilter, since: Int, until: Int, limit: Int, budget: AnswerBudget) {
      lastSeq = model.lastSeq
      let start = model.firstIndex(atOrAfterSeq: since)
      let end = until == .max ? model.count : model.firstIndex(atOrAfterSeq: until == .max ? until : until + 1)
      var renderer = EventLines(budget: budget)
      var position = start
      var counted = 0
      while position < end {
        defer { position += 1 }
        if lines.count == limit {
          counted += 1
          if counted > TimelineTool.countingBudget {
            complete = false
            break
          }
        }
        guard Self.mayPass(filter, kind: model.kindName(at: position), store: model.store(at: position)) else { continue }
        let event = model.event(at: position)
        guard filter.matches(event) else { continue }
        matched += 1
        guard lines.count < limit else {
          if next == nil { next = event.seq }
          continue
        }
        // What the line names: the action behind it, and when its effect started.
        if let cause = model.cause(of: position) { _ = renderer.line(model.event(at: cause), shown: false) }
        switch event.payload {
        case .effectFinished(let e): if let span = model.span(ofEffect: e.effect) { _ = renderer.line(model.event(at: span.start), shown: false) }
        case .effectCancelled(let e): if let span = model.span(ofEffect: e.effect) { _ = renderer.line(model.event(at: span.start), shown: false) }
        default: break
        }
        let text = renderer.line(event)
        lines.append(Line(text: text, json: EventLines.json(event, line: text)))
      }
    }

    /// Whether an event of `kind` and `store` can pass `filter` (`false` decides it without
    /// reading the event).
    static func mayPass(_ filter: EventFilter, kind: String, store: String?) -> Bool {
      if kind == Dropped.kind { return true }
      if filter.decidesByKind(kind) == false { return false }
      if let stores = filter.stores, let store, !stores.anyMatches(store) { return false }
      if filter.actions != nil, kind != ActionReceived.kind { return false }
      if filter.paths != nil, kind != StateChanged.kind { return false }
      return true
    }
  }

  /// The renderer's lines for one event as one line: the event, then up to three of its
  /// change lines after `⟨…⟩`.
  static func oneLine(_ text: String) -> String {
    let lines = text.split(separator: "\n").map { collapse($0.trimmingCharacters(in: .whitespaces)) }
    guard let first = lines.first else { return "" }
    let details = lines.dropFirst()
    guard !details.isEmpty else { return String(first) }
    var line = first + "  ⟨" + details.prefix(3).joined(separator: "; ")
    if details.count > 3 { line += "; +\(details.count - 3) more" }
    return line + "⟩"
  }

  /// The renderer's padding (columns for a terminal) squeezed to two spaces between columns:
  /// a model pays for every space.
  static func collapse(_ text: String) -> String {
    var result = ""
    var spaces = 0
    for character in text {
      if character == " " {
        spaces += 1
        continue
      }
      if spaces > 0 { result += spaces >= 2 ? "  " : " " }
      spaces = 0
      result.append(character)
    }
    return result
  }
}
