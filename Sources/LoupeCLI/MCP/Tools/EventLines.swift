import LoupeCore
import LoupeSession

/// One event as a line of an answer, in `loupe show`'s style, with where in the code it came
/// from (`source`, CONTRACT §9) as `file:line`.
struct EventLines {
  var budget: AnswerBudget
  var renderer = TimelineRenderer(style: Style(enabled: false))

  init(budget: AnswerBudget) {
    self.budget = budget
  }

  /// Where in the code the event came from (CONTRACT §9), when it says (for a cancellation,
  /// the line that cancelled).
  static func source(of event: Event) -> CodeLocation? { SessionModel.source(of: event) }

  /// `Module/File.swift:42` of an event, when it has a source.
  static func location(_ event: Event) -> String? { source(of: event)?.description }

  /// The event's line, ending in where it came from (feeding the renderer, so later lines can
  /// name causes and durations). `matches: false` only feeds the renderer.
  mutating func line(_ event: Event, shown: Bool = true) -> String {
    let rendered = renderer.render(event, format: .text, shown: shown)
    guard shown else { return "" }
    var text = TimelineTool.oneLine(rendered)
    if let source = Self.source(of: event), !text.contains(source.shortDescription) { text += "  at \(source)" }
    return budget.line(text)
  }

  /// The structured form that goes with a line.
  static func json(_ event: Event, line: String) -> JSON {
    var source: JSON = .null
    if let location = Self.source(of: event) {
      source = ["file": .string(location.file), "line": .int(location.line)]
      if let path = location.path { source = ["file": .string(location.file), "line": .int(location.line), "path": .string(path)] }
    }
    return [
      "seq": .int(event.seq), "time": .double(event.time), "kind": .string(event.kind), "store": event.store.map(JSON.string) ?? .null,
      "source": source, "line": .string(line),
    ]
  }

  static let schema = JSONSchema.object(
    [
      ("seq", JSONSchema.integer("The event's seq.")),
      ("time", ["type": "number", "description": "Milliseconds since the session started."]),
      ("kind", JSONSchema.string("The event's kind.")),
      ("store", JSONSchema.nullable("string", "The store it is about.")),
      ("source", ["description": "Where in the code it came from: {file, line, path?} (for a cancellation, the line that cancelled), or null."]),
      ("line", JSONSchema.string("The event as one line of text.")),
    ], required: ["seq", "time", "kind", "store", "source", "line"])
}
