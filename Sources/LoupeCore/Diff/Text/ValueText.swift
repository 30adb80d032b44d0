/// The compact one-line text of a rendered value, as the text forms print it.
///
/// Swift-like and unambiguous: `nil`, `true`, `42`, `1.5`, `"text"` (JSON escapes),
/// `[1, 2]`, `{count: 1, title: "Milk", "odd key": 2}` — member names bare when they read as
/// identifiers, quoted otherwise.
///
/// ```swift
/// ValueText.compact(["id": 3, "tags": ["a"]])   // {id: 3, tags: ["a"]}
/// ```
public enum ValueText {
  /// The value on one line; past `maxLength` characters it is cut and ends in `…`.
  public static func compact(_ value: JSON, maxLength: Int = .max) -> String {
    var writer = Writer(limit: maxLength)
    writer.write(value)
    guard writer.overflowed || writer.text.count > maxLength else { return writer.text }
    return String(writer.text.prefix(max(0, maxLength - 1))) + "…"
  }

  /// A member name: bare when it reads as an identifier, else a JSON string.
  public static func memberName(_ key: String) -> String {
    StatePath.Component.isIdentifier(key) ? key : JSON.string(key).jsonText
  }

  /// Whether the value prints as a single token (not a non-empty container).
  static func isAtom(_ value: JSON) -> Bool {
    switch value {
    case .array(let elements): elements.isEmpty
    case .object(let object): object.isEmpty
    default: true
    }
  }

  private struct Writer {
    var text = ""
    let limit: Int
    var overflowed = false

    mutating func write(_ value: JSON) {
      if overflowed { return }
      if text.utf8.count > limit {
        overflowed = true
        return
      }
      switch value {
      case .null: text += "nil"
      case .bool(let flag): text += flag ? "true" : "false"
      case .int, .double, .string: text += value.jsonText
      case .array(let elements):
        text += "["
        for (offset, element) in elements.enumerated() {
          if offset > 0 { text += ", " }
          write(element)
          if overflowed { return }
        }
        text += "]"
      case .object(let object):
        text += "{"
        for (offset, member) in object.members.enumerated() {
          if offset > 0 { text += ", " }
          text += memberName(member.key)
          text += ": "
          write(member.value)
          if overflowed { return }
        }
        text += "}"
      }
    }
  }
}
