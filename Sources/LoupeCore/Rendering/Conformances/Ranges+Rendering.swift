/// Ranges render as the text Swift writes them in: `"0..<3"`, `"0.0...1.0"`, `"5..."`,
/// `"..<3"`, `"...3"`.
///
/// Each bound is rendered by the usual rules and written as its JSON text, except that a
/// bound rendering as a string is written without quotes: a `ClosedRange<Date>` is
/// `"2023-11-14T22:13:20.250Z...2023-11-15T00:00:00.000Z"`. The string keeps the two things a
/// reader wants at a glance — the bounds and whether the upper one is included — where the
/// ranges' own mirrors show the same `{lowerBound, upperBound}` for `0..<3` and `0...3`.
extension Range: BuiltinRenderable {
  func render(in renderer: inout Renderer) -> JSON {
    .string(renderer.boundText(lowerBound) + "..<" + renderer.boundText(upperBound))
  }
}

extension ClosedRange: BuiltinRenderable {
  func render(in renderer: inout Renderer) -> JSON {
    .string(renderer.boundText(lowerBound) + "..." + renderer.boundText(upperBound))
  }
}

extension PartialRangeFrom: BuiltinRenderable {
  func render(in renderer: inout Renderer) -> JSON { .string(renderer.boundText(lowerBound) + "...") }
}

extension PartialRangeUpTo: BuiltinRenderable {
  func render(in renderer: inout Renderer) -> JSON { .string("..<" + renderer.boundText(upperBound)) }
}

extension PartialRangeThrough: BuiltinRenderable {
  func render(in renderer: inout Renderer) -> JSON { .string("..." + renderer.boundText(upperBound)) }
}

/// A string index renders as Swift debug-prints it: its offset and encoding, `"3[utf8]"` (its
/// own storage is a packed bit field).
extension String.Index: BuiltinRenderable {
  func render(in renderer: inout Renderer) -> JSON { .string(debugDescription) }
}

extension Renderer {
  /// A range bound as it appears in the range's text: its rendering's JSON text, a string
  /// without its quotes.
  mutating func boundText(_ bound: Any) -> String {
    switch render(bound) {
    case .string(let text): text
    case let json: json.jsonText
    }
  }
}
