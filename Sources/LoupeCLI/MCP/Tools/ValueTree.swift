import LoupeCore

/// A rendered value as an indented tree for answers: a container that fits on one line of
/// ``width`` characters prints on it in ``ValueText``'s compact form (the form the diffs use),
/// else one member or element per line.
///
/// ```
/// {
///   count: 3
///   pages: [{id: 1, count: 0}, {id: 2, count: 3}]
/// }
/// ```
///
/// With the value's shape, enum cases and tuples read as Swift (`mode: .loading(progress: 0.5)`).
enum ValueTree {
  static func render(_ value: JSON, shape: ValueShape? = nil, width: Int = 100) -> String {
    var lines: [String] = []
    write(value, shape: shape, label: "", level: 0, width: width, into: &lines)
    return lines.joined(separator: "\n")
  }

  private static func write(_ value: JSON, shape: ValueShape?, label: String, level: Int, width: Int, into lines: inout [String]) {
    let indent = String(repeating: "  ", count: level)
    let compact = ValueText.compact(value, shape: shape)
    if indent.count + label.count + compact.count <= width {
      lines.append(indent + label + compact)
      return
    }
    switch value {
    case .object(let object) where !object.isEmpty:
      lines.append(indent + label + "{")
      for member in object.members {
        write(
          member.value, shape: shape?.descending([.field(member.key)]), label: ValueText.memberName(member.key) + ": ",
          level: level + 1, width: width, into: &lines)
      }
      lines.append(indent + "}")
    case .array(let elements) where !elements.isEmpty:
      lines.append(indent + label + "[")
      for (index, element) in elements.enumerated() {
        write(element, shape: shape?.descending([.index(index)]), label: "[\(index)]: ", level: level + 1, width: width, into: &lines)
      }
      lines.append(indent + "]")
    default:
      lines.append(indent + label + ValueText.compact(value, shape: shape, maxLength: max(20, width - indent.count - label.count)))
    }
  }
}
