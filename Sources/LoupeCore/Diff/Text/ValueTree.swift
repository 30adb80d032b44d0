/// A rendered value as an indented tree, in the value text the diffs use (``ValueText``,
/// ``DiffText``): a container that fits on one line of `width` characters prints on it in
/// ``ValueText``'s compact form, else one member or element per line, elements labelled by
/// their index. With the value's ``ValueShape``, enum cases and tuples read as Swift
/// (`.loading(progress: 0.5)`, `(1, "a")`), as in the diffs. What `loupe state` prints, and
/// `loupe mcp`'s answers.
///
/// ```
/// {
///   count: 3
///   mode: .playing
///   pages: [{id: 1, count: 0}, {id: 2, count: 3}]
/// }
/// ```
public enum ValueTree {
  /// The tree's text, without a final line break. With `expandingRoot`, a non-empty root
  /// struct, dictionary or array opens on its own line even when it would fit on one. With
  /// `cuttingLongValues`, a string or number longer than the line is cut with `…` (for
  /// answers on a budget); without, every value is whole.
  public static func render(
    _ value: JSON, shape: ValueShape? = nil, width: Int = 100, expandingRoot: Bool = false, cuttingLongValues: Bool = true
  ) -> String {
    var writer = Writer(width: width, cuts: cuttingLongValues)
    writer.write(value, ShapeTree.of(shape), label: "", level: 0, expand: expandingRoot)
    return writer.lines.joined(separator: "\n")
  }

  private struct Writer {
    let width: Int
    let cuts: Bool
    var lines: [String] = []

    init(width: Int, cuts: Bool) {
      self.width = width
      self.cuts = cuts
    }

    mutating func write(_ value: JSON, _ tree: ShapeTree?, label: String, level: Int, expand: Bool = false) {
      let indent = String(repeating: "  ", count: level)
      let plain = ShapeTree.enumCase(value, tree) == nil && !ShapeTree.isTuple(value, tree)
      if !expand || !plain || ValueText.isAtom(value) {
        // Cut early: a 10,000-row array is not written out to learn that it does not fit. A
        // cut text ends in `…`, which no whole value does.
        let compact = ValueText.compact(value, tree: tree, maxLength: 4 * width)
        if indent.count + label.count + compact.count <= width, !compact.hasSuffix("…") {
          lines.append(indent + label + compact)
          return
        }
      }
      if let (name, payload) = ShapeTree.enumCase(value, tree), let (inner, innerTree) = payload {
        // `.case(` payload `)`, the payload spread below.
        lines.append(indent + label + "." + name + "(")
        if ShapeTree.isTuple(inner, innerTree) {
          arguments(inner, innerTree, level: level + 1)
        } else {
          write(inner, innerTree, label: "", level: level + 1)
        }
        lines.append(indent + ")")
        return
      }
      if ShapeTree.isTuple(value, tree) {
        lines.append(indent + label + "(")
        arguments(value, tree, level: level + 1)
        lines.append(indent + ")")
        return
      }
      switch value {
      case .object(let object) where !object.isEmpty:
        lines.append(indent + label + "{")
        for member in object.members {
          write(member.value, tree?.member(member.key), label: ValueText.memberName(member.key) + ": ", level: level + 1)
        }
        lines.append(indent + "}")
      case .array(let elements) where !elements.isEmpty:
        lines.append(indent + label + "[")
        for (index, element) in elements.enumerated() {
          write(element, tree?.element(index), label: "[\(index)]: ", level: level + 1)
        }
        lines.append(indent + "]")
      default:
        let room = max(20, width - indent.count - label.count)
        lines.append(indent + label + ValueText.compact(value, tree: tree, maxLength: cuts ? room : .max))
      }
    }

    /// A tuple's elements, one per line, labelled where they have a label.
    mutating func arguments(_ value: JSON, _ tree: ShapeTree?, level: Int) {
      switch value {
      case .object(let object):
        for member in object.members {
          write(member.value, tree?.member(member.key), label: ShapeTree.argumentLabel(member.key), level: level)
        }
      case .array(let elements):
        for (index, element) in elements.enumerated() {
          write(element, tree?.element(index), label: "", level: level)
        }
      default:
        write(value, tree, label: "", level: level)
      }
    }
  }
}
