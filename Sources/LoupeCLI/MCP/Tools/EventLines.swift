import LoupeCore

/// One event as a line of an answer, in `loupe show`'s style, with where in the code it came
/// from (`source`, CONTRACT §9) as `file:line`.
struct EventLines {
  var budget: AnswerBudget
  var renderer = TimelineRenderer(style: Style(enabled: false))

  init(budget: AnswerBudget) {
    self.budget = budget
  }

  /// `file:line` of a `source` member, when there is one.
  static func location(_ source: JSON?) -> String? {
    guard let file = source?["file"]?.stringValue, let line = source?["line"]?.intValue else { return nil }
    return "\(file):\(line)"
  }

  /// The event's line (feeding the renderer, so later lines can name causes and durations).
  mutating func line(_ event: Event, source: JSON?) -> String {
    var text = TimelineTool.oneLine(renderer.render(event, format: .text))
    if let location = Self.location(source), !text.contains(location) { text += "  at \(location)" }
    return budget.line(text)
  }

  /// The structured form that goes with a line.
  static func json(_ event: Event, source: JSON?, line: String) -> JSON {
    [
      "seq": .int(event.seq), "time": .double(event.time), "kind": .string(event.kind), "store": event.store.map(JSON.string) ?? .null,
      "source": source ?? .null, "line": .string(line),
    ]
  }

  static let schema = JSONSchema.object(
    [
      ("seq", JSONSchema.integer("The event's seq.")),
      ("time", ["type": "number", "description": "Milliseconds since the session started."]),
      ("kind", JSONSchema.string("The event's kind.")),
      ("store", JSONSchema.nullable("string", "The store it is about.")),
      ("source", ["description": "Where in the code it came from: {file, line, path?}, or null."]),
      ("line", JSONSchema.string("The event as one line of text.")),
    ], required: ["seq", "time", "kind", "store", "source", "line"])
}
