import LoupeCore

/// The text of a value that an event carries as text (an effect's `error`).
///
/// It is the value's `String(describing:)` — unless that would show what redaction hides: a
/// ``LoupeRedacted`` part, or a part at a path `LOUPE_REDACT` names (the value is rendered at
/// the root, as an action is). Then it is the text of the value's redacted rendering, e.g.
/// `AuthError {user: "alice", password: "<redacted>"}`.
enum RedactedDescription {
  static func of(_ value: Any, options: RenderOptions) -> String {
    if value is any LoupeRedacted { return RenderMarker.redacted }
    let (rendered, shape) = ValueRenderer.renderWithShape(value, options: options)
    guard containsRedaction(rendered) else { return String(describing: value) }
    return ValueRenderer.typeName(type(of: value)) + " " + ValueText.compact(rendered, shape: shape)
  }

  private static func containsRedaction(_ json: JSON) -> Bool {
    switch json {
    case .string(let text): text == RenderMarker.redacted
    case .array(let elements): elements.contains(where: containsRedaction)
    case .object(let object): object.members.contains { containsRedaction($0.value) }
    default: false
    }
  }
}
