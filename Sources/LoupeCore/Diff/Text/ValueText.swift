/// The compact one-line text of a rendered value, as the text forms print it.
///
/// Swift-like and unambiguous: `nil`, `true`, `42`, `1.5`, `"text"` (JSON escapes),
/// `[1, 2]`, `{count: 1, title: "Milk", "odd key": 2}` — member names bare when they read as
/// identifiers, quoted otherwise. With the value's ``ValueShape`` (which the program sends
/// beside it), enum cases and tuples read as Swift: `.idle`, `.loading(progress: 0.5)`,
/// `.playButton(.tapped)`, `(1, "a")`; without one (traces written before shapes) they read
/// as their JSON: `"idle"`, `{loading: {progress: 0.5}}`.
///
/// ```swift
/// ValueText.compact(["id": 3, "tags": ["a"]])   // {id: 3, tags: ["a"]}
/// ValueText.compact(["mode": ["loading": ["progress": 0.5]]],
///                   shape: ValueShape(enums: ["mode"], tuples: ["mode.loading"]))
/// // {mode: .loading(progress: 0.5)}
/// ```
public enum ValueText {
  /// The value on one line; past `maxLength` characters it is cut and ends in `…`.
  public static func compact(_ value: JSON, shape: ValueShape? = nil, maxLength: Int = .max) -> String {
    compact(value, tree: ShapeTree.of(shape), maxLength: maxLength)
  }

  static func compact(_ value: JSON, tree: ShapeTree?, maxLength: Int = .max) -> String {
    var writer = Writer(limit: maxLength)
    writer.write(value, tree)
    return writer.finished
  }

  /// The text inside the parentheses of an enum case's payload: `0.5`, `progress: 0.5`,
  /// `1, "a"`, `.tapped`.
  static func payload(_ value: JSON, tree: ShapeTree?, maxLength: Int = .max) -> String {
    var writer = Writer(limit: maxLength)
    writer.payload(value, tree)
    return writer.finished
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

    init(limit: Int) { self.limit = limit }

    var finished: String {
      guard overflowed || text.count > limit else { return text }
      return String(text.prefix(max(0, limit - 1))) + "…"
    }

    mutating func write(_ value: JSON, _ tree: ShapeTree?) {
      if overflowed { return }
      if text.utf8.count > limit {
        overflowed = true
        return
      }
      if let (name, payload) = ShapeTree.enumCase(value, tree) {
        text += "."
        text += name
        if let (value, tree) = payload {
          text += "("
          self.payload(value, tree)
          text += ")"
        }
        return
      }
      if ShapeTree.isTuple(value, tree) {
        text += "("
        arguments(value, tree)
        text += ")"
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
          write(element, tree?.element(offset))
          if overflowed { return }
        }
        text += "]"
      case .object(let object):
        text += "{"
        for (offset, member) in object.members.enumerated() {
          if offset > 0 { text += ", " }
          text += memberName(member.key)
          text += ": "
          write(member.value, tree?.member(member.key))
          if overflowed { return }
        }
        text += "}"
      }
    }

    /// A case's payload inside its parentheses: a tuple's elements as arguments (`()` for
    /// the empty tuple, as Swift writes `.saved(())`), anything else as itself.
    mutating func payload(_ value: JSON, _ tree: ShapeTree?) {
      if ShapeTree.isTuple(value, tree), !ValueText.isAtom(value) {
        arguments(value, tree)
      } else {
        write(value, tree)
      }
    }

    /// A tuple's elements, comma-separated, labelled where they have a label.
    mutating func arguments(_ value: JSON, _ tree: ShapeTree?) {
      switch value {
      case .array(let elements):
        for (offset, element) in elements.enumerated() {
          if offset > 0 { text += ", " }
          write(element, tree?.element(offset))
          if overflowed { return }
        }
      case .object(let object):
        for (offset, member) in object.members.enumerated() {
          if offset > 0 { text += ", " }
          text += ShapeTree.argumentLabel(member.key)
          write(member.value, tree?.member(member.key))
          if overflowed { return }
        }
      default:
        write(value, nil)
      }
    }
  }
}
