import Foundation
import LoupeCore

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
        ("matched", JSONSchema.integer("Events in [since, until] that pass the filter.")),
        ("shown", JSONSchema.integer("Events in 'events'.")),
        ("next", JSONSchema.nullable("integer", "The 'since' that continues after the last event shown; null when nothing is left.")),
        ("lastSeq", JSONSchema.nullable("integer", "The session's newest event.")),
      ], required: ["events", "matched", "shown", "next", "lastSeq"]),
    readOnly: true)

  static func run(_ arguments: ToolArguments, in box: ToolBox) async throws(ToolFailure) -> ToolResult {
    let session = try await SessionArgument.session(arguments, in: box)
    let filter = FilterArguments.filter(arguments)
    let since = arguments.int("since") ?? 0
    let until = arguments.int("until") ?? .max
    let limit = arguments.int("limit") ?? box.budget.timelineLimit
    if since > until { throw .invalidArguments("'since' (\(since)) is after 'until' (\(until)).") }
    let reader = try SessionArgument.reader(session)
    var lines = EventLines(budget: box.budget)
    var texts: [String] = []
    var shown: [JSON] = []
    var matched = 0
    var next: Int?
    var lastSeq: Int?
    do throws(CommandFailure) {
      // Every event up to the last one shown feeds the renderer (effect durations, the labels of
      // causes); after that, matching events are only counted, without decoding what the
      // filter can decide from the raw line.
      while true {
        let counting = shown.count >= limit
        guard let item = try TraceInput.next(reader, filter: counting ? filter : .all, decode: !counting) else { break }
        lastSeq = item.seq
        if counting {
          if item.seq > until { break }
          if item.seq >= since, try passes(item, filter) {
            matched += 1
            if next == nil { next = item.seq }
          }
          continue
        }
        guard item.seq >= since, item.seq <= until else {
          if shown.count < limit, let event = item.event { _ = lines.line(event, shown: false) }
          continue
        }
        if let event = item.event {
          let passes = filter.matches(event)
          let line = lines.line(event, shown: passes)
          guard passes else { continue }
          matched += 1
          texts.append(line)
          shown.append(EventLines.json(event, line: line))
        }
      }
    } catch {
      throw ToolFailure("io-error", error.message)
    }
    var text = "Session \(session.id): "
    text += "\(Formatting.plural(matched, "event")) match"
    if let description = FilterArguments.describe(arguments) { text += " [\(description)]" }
    if since > 0 || until < .max { text += " in #\(since)…\(until == .max ? "end" : "#\(until)")" }
    text += "; showing \(shown.count)"
    if let lastSeq, next == nil { text += " (the session's newest event is #\(lastSeq))" }
    text += ".\n"
    text += texts.joined(separator: "\n") + (texts.isEmpty ? "" : "\n")
    if let next {
      text += "… \(Formatting.plural(matched - shown.count, "more matching event")) not shown: call loupe_timeline with \"since\": \(next) to continue (or narrow the filter).\n"
    } else if shown.isEmpty, matched == 0 {
      text += "No event matches; loupe_stats lists the kinds, actions and stores there are.\n"
    }
    text += DamageNotes(reader).text
    return ToolResult(
      text: text,
      structured: [
        "events": .array(shown), "matched": .int(matched), "shown": .int(shown.count), "next": next.map(JSON.int) ?? .null,
        "lastSeq": lastSeq.map(JSON.int) ?? .null,
      ])
  }

  /// Whether a raw item passes, decoding it only when the filter needs more than its line's
  /// kind, store and action.
  private static func passes(_ item: TraceReader.Item, _ filter: EventFilter) throws(CommandFailure) -> Bool {
    if let event = item.event { return filter.matches(event) }
    // The reader yields only items that pass, or that it could decide without decoding.
    return true
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
