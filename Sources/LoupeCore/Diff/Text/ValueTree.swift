/// A rendered value as an indented tree, in the value text the diffs use (``ValueText``,
/// ``DiffText``): a container that fits on one line of `width` characters prints on it in
/// ``ValueText``'s compact form, else one member or element per line, elements labelled by
/// their index. What `loupe state` prints, and `loupe mcp`'s answers.
///
/// ```
/// {
///   count: 3
///   pages: [{id: 1, count: 0}, {id: 2, count: 3}]
/// }
/// ```
public enum ValueTree {
  /// The tree's text, without a final line break. With `expandingRoot`, a non-empty root
  /// container opens on its own line even when it would fit on one.
  public static func render(_ value: JSON, width: Int = 100, expandingRoot: Bool = false) -> String {
    var lines: [String] = []
    write(value, label: "", level: 0, width: width, expand: expandingRoot, into: &lines)
    return lines.joined(separator: "\n")
  }

  private static func write(_ value: JSON, label: String, level: Int, width: Int, expand: Bool = false, into lines: inout [String]) {
    let indent = String(repeating: "  ", count: level)
    if !expand || ValueText.isAtom(value) {
      // Cut early: a 10,000-row array is not written out to learn that it does not fit. A
      // cut text ends in `…`, which no whole value does.
      let compact = ValueText.compact(value, maxLength: 4 * width)
      if indent.count + label.count + compact.count <= width, !compact.hasSuffix("…") {
        lines.append(indent + label + compact)
        return
      }
    }
    switch value {
    case .object(let object) where !object.isEmpty:
      lines.append(indent + label + "{")
      for member in object.members {
        write(member.value, label: ValueText.memberName(member.key) + ": ", level: level + 1, width: width, into: &lines)
      }
      lines.append(indent + "}")
    case .array(let elements) where !elements.isEmpty:
      lines.append(indent + label + "[")
      for (index, element) in elements.enumerated() {
        write(element, label: "[\(index)]: ", level: level + 1, width: width, into: &lines)
      }
      lines.append(indent + "]")
    default:
      lines.append(indent + label + ValueText.compact(value, maxLength: max(20, width - indent.count - label.count)))
    }
  }
}
