/// A `_printChanges()`-style −/+ tree of two renderings, like swift-custom-dump's `diff`
/// that TCA prints.
///
/// ```
///   {
///     … (2 unchanged)
/// −   isPlaying: false
/// +   isPlaying: true
///     todos: [
///       [0]: {…}
///       [1]: {
///         id: 2
///         title: "Eggs"
/// −       isDone: false
/// +       isDone: true
///       }
/// +     [2]: {id: 3, title: "Milk", isDone: false}
///     ]
///   }
/// ```
///
/// - Every line starts with a two-character gutter: `− ` (U+2212 MINUS SIGN) for the old
///   value, `+ ` for the new one, two spaces for context; nesting indents by two spaces.
/// - Containers that changed inside open with `{` or `[`, show their changed members, and
///   close; runs of two or more unchanged members or elements collapse to `… (N unchanged)`,
///   a single unchanged one shows as itself (`{…}` / `[…]` for a container). In an array
///   element, the members that identify it — `id`, `name`, `title`, `key` holding a single
///   value — always show, so the reader can tell which element changed.
/// - Object members are labelled `name: ` (quoted if not an identifier); array elements
///   `[i]: ` with their old index on `−` lines and their new index otherwise. Arrays are
///   aligned by equality like ``JSONDiff``; arrays whose elements are all objects with
///   unique `id` members (identified collections) are aligned by id, like ``StateDiff``.
/// - A value that changed as a whole prints on `−`/`+` lines, on one line (``ValueText``)
///   when that fits in `width` columns, else spread over several.
public enum DiffText {
  /// The diff text, or `nil` when the values are equal.
  public static func diff(_ old: JSON, _ new: JSON, width: Int = 80) -> String? {
    let lines = lines(old, new, width: width)
    return lines.isEmpty ? nil : lines.joined(separator: "\n")
  }

  /// The diff text's lines; empty when the values are equal.
  public static func lines(_ old: JSON, _ new: JSON, width: Int = 80) -> [String] {
    guard old != new else { return [] }
    var writer = Writer(width: width)
    writer.changed(old, new, oldLabel: "", newLabel: "", level: 0)
    return writer.lines
  }

  private struct Writer {
    let width: Int
    var lines: [String] = []

    init(width: Int) { self.width = width }

    mutating func line(_ gutter: String, _ level: Int, _ text: String) {
      lines.append(gutter + String(repeating: "  ", count: level) + text)
    }

    mutating func changed(_ a: JSON, _ b: JSON, oldLabel: String, newLabel: String, level: Int, isElement: Bool = false) {
      switch (a, b) {
      case (.object(let x), .object(let y)) where !x.isEmpty && !y.isEmpty:
        line("  ", level, newLabel + "{")
        members(x, y, level: level + 1, isElement: isElement)
        line("  ", level, "}")
      case (.array(let x), .array(let y)) where !x.isEmpty && !y.isEmpty:
        line("  ", level, newLabel + "[")
        elements(x, y, level: level + 1)
        line("  ", level, "]")
      default:
        dump("− ", a, label: oldLabel, level: level)
        dump("+ ", b, label: newLabel, level: level)
      }
    }

    /// Prints `value` with `gutter` on every line.
    mutating func dump(_ gutter: String, _ value: JSON, label: String, level: Int) {
      let compact = ValueText.compact(value)
      if ValueText.isAtom(value) || gutter.count + 2 * level + label.count + compact.count <= width {
        line(gutter, level, label + compact)
        return
      }
      switch value {
      case .object(let object):
        line(gutter, level, label + "{")
        for member in object.members {
          dump(gutter, member.value, label: ValueText.memberName(member.key) + ": ", level: level + 1)
        }
        line(gutter, level, "}")
      case .array(let elements):
        line(gutter, level, label + "[")
        for element in elements { dump(gutter, element, label: "", level: level + 1) }
        line(gutter, level, "]")
      default:
        line(gutter, level, label + compact)
      }
    }

    private var unchanged: [(label: String, value: JSON)] = []

    mutating func keep(_ label: String, _ value: JSON) {
      unchanged.append((label, value))
    }

    mutating func flush(level: Int) {
      if unchanged.count == 1 {
        let (label, value) = unchanged[0]
        let text: String
        switch value {
        case .object(let object) where !object.isEmpty: text = "{…}"
        case .array(let elements) where !elements.isEmpty: text = "[…]"
        default: text = ValueText.compact(value, maxLength: max(8, width - 2 - 2 * level - label.count))
        }
        line("  ", level, label + text)
      } else if unchanged.count > 1 {
        line("  ", level, "… (\(unchanged.count) unchanged)")
      }
      unchanged.removeAll()
    }

    /// The members of two objects; an array element's identifying members stay in sight.
    mutating func members(_ x: JSONObject, _ y: JSONObject, level: Int, isElement: Bool) {
      let segments = SequenceDiff.segments(oldCount: x.count, newCount: y.count) { x[$0].key == y[$1].key }
      for segment in segments {
        if segment.isEqual {
          for (i, j) in zip(segment.old, segment.new) {
            let label = ValueText.memberName(y[j].key) + ": "
            if isElement, x[i].value == y[j].value, ValueText.isAtom(y[j].value), Self.identifying.contains(y[j].key) {
              // What tells the reader which element this is stays in sight.
              flush(level: level)
              keep(label, y[j].value)
              flush(level: level)
            } else if x[i].value == y[j].value {
              keep(label, y[j].value)
            } else {
              flush(level: level)
              changed(x[i].value, y[j].value, oldLabel: label, newLabel: label, level: level)
            }
          }
        } else {
          flush(level: level)
          for i in segment.old { dump("− ", x[i].value, label: ValueText.memberName(x[i].key) + ": ", level: level) }
          for j in segment.new { dump("+ ", y[j].value, label: ValueText.memberName(y[j].key) + ": ", level: level) }
        }
      }
      flush(level: level)
    }

    mutating func elements(_ x: [JSON], _ y: [JSON], level: Int) {
      if let oldIDs = Self.ids(x), let newIDs = Self.ids(y) {
        identifiedElements(x, y, oldIDs: oldIDs, newIDs: newIDs, level: level)
        return
      }
      for segment in SequenceDiff.segments(oldCount: x.count, newCount: y.count, equal: { x[$0] == y[$1] }) {
        if segment.isEqual {
          for j in segment.new { keep("[\(j)]: ", y[j]) }
          continue
        }
        flush(level: level)
        let paired = min(segment.old.count, segment.new.count)
        for offset in 0..<paired {
          let i = segment.old.lowerBound + offset
          let j = segment.new.lowerBound + offset
          changed(x[i], y[j], oldLabel: "[\(i)]: ", newLabel: "[\(j)]: ", level: level, isElement: true)
        }
        for i in (segment.old.lowerBound + paired)..<segment.old.upperBound { dump("− ", x[i], label: "[\(i)]: ", level: level) }
        for j in (segment.new.lowerBound + paired)..<segment.new.upperBound { dump("+ ", y[j], label: "[\(j)]: ", level: level) }
      }
      flush(level: level)
    }

    /// Elements that are objects with unique `id` members (identified collections) align by
    /// id: same id → the element's own diff, otherwise removed or inserted.
    mutating func identifiedElements(_ x: [JSON], _ y: [JSON], oldIDs: [JSON], newIDs: [JSON], level: Int) {
      for segment in SequenceDiff.segments(oldCount: x.count, newCount: y.count, equal: { oldIDs[$0] == newIDs[$1] }) {
        if segment.isEqual {
          for (i, j) in zip(segment.old, segment.new) {
            if x[i] == y[j] {
              keep("[\(j)]: ", y[j])
            } else {
              flush(level: level)
              changed(x[i], y[j], oldLabel: "[\(i)]: ", newLabel: "[\(j)]: ", level: level, isElement: true)
            }
          }
          continue
        }
        flush(level: level)
        for i in segment.old { dump("− ", x[i], label: "[\(i)]: ", level: level) }
        for j in segment.new { dump("+ ", y[j], label: "[\(j)]: ", level: level) }
      }
      flush(level: level)
    }

    /// Members that identify the array element they sit in: shown even when unchanged, so a
    /// changed row reads `id: 3` rather than folding it into `… (2 unchanged)`.
    static let identifying: Set<String> = ["id", "name", "title", "key"]

    /// The `id` members of `elements` when every element is an object with one and they are
    /// unique; `nil` otherwise (or when empty).
    static func ids(_ elements: [JSON]) -> [JSON]? {
      guard !elements.isEmpty else { return nil }
      var ids: [JSON] = []
      ids.reserveCapacity(elements.count)
      for element in elements {
        guard case .object(let object) = element, let id = object["id"] else { return nil }
        ids.append(id)
      }
      return Set(ids).count == ids.count ? ids : nil
    }
  }
}
