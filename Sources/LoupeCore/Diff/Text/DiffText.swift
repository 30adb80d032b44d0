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
/// - Given the values' ``ValueShape``s, enum cases and tuples read as Swift: a case whose
///   payload changed opens with `mode: .playing(` and closes with `)`, its labelled values
///   inside as members (`speed: 2`); a case that changed prints whole (`− mode: .idle`).
public enum DiffText {
  /// The diff text, or `nil` when the values are equal.
  public static func diff(
    _ old: JSON, _ new: JSON, oldShape: ValueShape? = nil, newShape: ValueShape? = nil, width: Int = 80
  ) -> String? {
    let lines = lines(old, new, oldShape: oldShape, newShape: newShape, width: width)
    return lines.isEmpty ? nil : lines.joined(separator: "\n")
  }

  /// The diff text's lines; empty when the values are equal.
  public static func lines(
    _ old: JSON, _ new: JSON, oldShape: ValueShape? = nil, newShape: ValueShape? = nil, width: Int = 80
  ) -> [String] {
    guard old != new else { return [] }
    var writer = Writer(width: width)
    writer.changed(
      Side(old, ShapeTree.of(oldShape)), Side(new, ShapeTree.of(newShape)), oldLabel: "", newLabel: "", level: 0)
    return writer.lines
  }

  /// A value and what its shape says about it.
  private struct Side {
    var value: JSON
    var tree: ShapeTree?
    init(_ value: JSON, _ tree: ShapeTree?) {
      self.value = value
      self.tree = tree
    }
    func member(_ key: String, _ value: JSON) -> Side { Side(value, tree?.member(key)) }
    func element(_ index: Int, _ value: JSON) -> Side { Side(value, tree?.element(index)) }
    var compact: String { ValueText.compact(value, tree: tree) }
  }

  private struct Writer {
    let width: Int
    var lines: [String] = []

    init(width: Int) { self.width = width }

    mutating func line(_ gutter: String, _ level: Int, _ text: String) {
      lines.append(gutter + String(repeating: "  ", count: level) + text)
    }

    mutating func changed(_ a: Side, _ b: Side, oldLabel: String, newLabel: String, level: Int, isElement: Bool = false) {
      // The same enum case on both sides, its payload changed: `.case(` … `)`.
      if let (nameA, payloadA) = ShapeTree.enumCase(a.value, a.tree), let (nameB, payloadB) = ShapeTree.enumCase(b.value, b.tree),
        nameA == nameB, let (pa, ta) = payloadA, let (pb, tb) = payloadB
      {
        let x = Side(pa, ta)
        let y = Side(pb, tb)
        if ShapeTree.isTuple(pa, ta), ShapeTree.isTuple(pb, tb), let opened = opened(x, y) {
          line("  ", level, newLabel + "." + nameB + "(")
          opened(&self, level + 1)
        } else if !ValueText.isAtom(pa) || !ValueText.isAtom(pb), let opened = opened(x, y) {
          line("  ", level, newLabel + "." + nameB + "(")
          opened(&self, level + 1)
        } else {
          dump("− ", a, label: oldLabel, level: level)
          dump("+ ", b, label: newLabel, level: level)
          return
        }
        line("  ", level, ")")
        return
      }
      // A case on either side that is not the same case with a payload: printed whole.
      if ShapeTree.enumCase(a.value, a.tree) != nil || ShapeTree.enumCase(b.value, b.tree) != nil {
        dump("− ", a, label: oldLabel, level: level)
        dump("+ ", b, label: newLabel, level: level)
        return
      }
      // A tuple: its elements as arguments between `(` and `)`.
      if ShapeTree.isTuple(a.value, a.tree), ShapeTree.isTuple(b.value, b.tree), let opened = opened(a, b) {
        line("  ", level, newLabel + "(")
        opened(&self, level + 1)
        line("  ", level, ")")
        return
      }
      switch (a.value, b.value) {
      case (.object(let x), .object(let y)) where !x.isEmpty && !y.isEmpty:
        line("  ", level, newLabel + "{")
        members(x, y, a, b, level: level + 1, isElement: isElement, arguments: false)
        line("  ", level, "}")
      case (.array(let x), .array(let y)) where !x.isEmpty && !y.isEmpty:
        line("  ", level, newLabel + "[")
        elements(x, y, a, b, level: level + 1)
        line("  ", level, "]")
      default:
        dump("− ", a, label: oldLabel, level: level)
        dump("+ ", b, label: newLabel, level: level)
      }
    }

    /// The inside of a payload or tuple that changed, printed at the given level: the
    /// members or elements of two tuples, or the diff of a single payload value. `nil` when
    /// the two cannot be opened side by side (then they print whole).
    func opened(_ a: Side, _ b: Side) -> ((inout Writer, Int) -> Void)? {
      let tuples = ShapeTree.isTuple(a.value, a.tree) && ShapeTree.isTuple(b.value, b.tree)
      switch (a.value, b.value) {
      case (.object(let x), .object(let y)) where tuples && !x.isEmpty && !y.isEmpty:
        return { writer, level in writer.members(x, y, a, b, level: level, isElement: false, arguments: true) }
      case (.array(let x), .array(let y)) where tuples && !x.isEmpty && !y.isEmpty:
        return { writer, level in writer.arguments(x, y, a, b, level: level) }
      case _ where tuples:
        return nil
      default:
        return { writer, level in writer.changed(a, b, oldLabel: "", newLabel: "", level: level) }
      }
    }

    /// Prints `side` with `gutter` on every line.
    mutating func dump(_ gutter: String, _ side: Side, label: String, level: Int) {
      let compact = side.compact
      if ValueText.isAtom(side.value) || gutter.count + 2 * level + label.count + compact.count <= width {
        line(gutter, level, label + compact)
        return
      }
      if let (name, payload) = ShapeTree.enumCase(side.value, side.tree), let (value, tree) = payload {
        line(gutter, level, label + "." + name + "(")
        let inner = Side(value, tree)
        if ShapeTree.isTuple(value, tree) {
          dumpArguments(gutter, inner, level: level + 1)
        } else {
          dump(gutter, inner, label: "", level: level + 1)
        }
        line(gutter, level, ")")
        return
      }
      if ShapeTree.isTuple(side.value, side.tree) {
        line(gutter, level, label + "(")
        dumpArguments(gutter, side, level: level + 1)
        line(gutter, level, ")")
        return
      }
      switch side.value {
      case .object(let object):
        line(gutter, level, label + "{")
        for member in object.members {
          dump(gutter, side.member(member.key, member.value), label: ValueText.memberName(member.key) + ": ", level: level + 1)
        }
        line(gutter, level, "}")
      case .array(let elements):
        line(gutter, level, label + "[")
        for (offset, element) in elements.enumerated() { dump(gutter, side.element(offset, element), label: "", level: level + 1) }
        line(gutter, level, "]")
      default:
        line(gutter, level, label + compact)
      }
    }

    /// A tuple's elements, one per line, labelled where they have a label.
    mutating func dumpArguments(_ gutter: String, _ side: Side, level: Int) {
      switch side.value {
      case .object(let object):
        for member in object.members {
          dump(gutter, side.member(member.key, member.value), label: ShapeTree.argumentLabel(member.key), level: level)
        }
      case .array(let elements):
        for (offset, element) in elements.enumerated() { dump(gutter, side.element(offset, element), label: "", level: level) }
      default:
        dump(gutter, side, label: "", level: level)
      }
    }

    private var unchanged: [(label: String, value: Side)] = []

    mutating func keep(_ label: String, _ value: Side) {
      unchanged.append((label, value))
    }

    mutating func flush(level: Int) {
      if unchanged.count == 1 {
        let (label, side) = unchanged[0]
        let text: String
        if let (name, payload) = ShapeTree.enumCase(side.value, side.tree), let (value, _) = payload, !ValueText.isAtom(value) {
          text = "." + name + "(…)"
        } else if ShapeTree.enumCase(side.value, side.tree) == nil, ShapeTree.isTuple(side.value, side.tree), !ValueText.isAtom(side.value) {
          text = "(…)"
        } else {
          switch side.value {
          case .object(let object) where !object.isEmpty && ShapeTree.enumCase(side.value, side.tree) == nil: text = "{…}"
          case .array(let elements) where !elements.isEmpty: text = "[…]"
          default: text = ValueText.compact(side.value, tree: side.tree, maxLength: max(8, width - 2 - 2 * level - label.count))
          }
        }
        line("  ", level, label + text)
      } else if unchanged.count > 1 {
        line("  ", level, "… (\(unchanged.count) unchanged)")
      }
      unchanged.removeAll()
    }

    /// The members of two objects; an array element's identifying members stay in sight.
    /// `arguments`: the objects are tuples, whose positional elements have no label.
    mutating func members(_ x: JSONObject, _ y: JSONObject, _ a: Side, _ b: Side, level: Int, isElement: Bool, arguments: Bool) {
      func label(_ key: String) -> String { arguments ? ShapeTree.argumentLabel(key) : ValueText.memberName(key) + ": " }
      let segments = SequenceDiff.segments(oldCount: x.count, newCount: y.count) { x[$0].key == y[$1].key }
      for segment in segments {
        if segment.isEqual {
          for (i, j) in zip(segment.old, segment.new) {
            let label = label(y[j].key)
            let old = a.member(x[i].key, x[i].value)
            let new = b.member(y[j].key, y[j].value)
            if isElement, x[i].value == y[j].value, ValueText.isAtom(y[j].value), Self.identifying.contains(y[j].key) {
              // What tells the reader which element this is stays in sight.
              flush(level: level)
              keep(label, new)
              flush(level: level)
            } else if x[i].value == y[j].value {
              keep(label, new)
            } else {
              flush(level: level)
              changed(old, new, oldLabel: label, newLabel: label, level: level)
            }
          }
        } else {
          flush(level: level)
          for i in segment.old { dump("− ", a.member(x[i].key, x[i].value), label: label(x[i].key), level: level) }
          for j in segment.new { dump("+ ", b.member(y[j].key, y[j].value), label: label(y[j].key), level: level) }
        }
      }
      flush(level: level)
    }

    /// The elements of two unlabeled tuples, position by position.
    mutating func arguments(_ x: [JSON], _ y: [JSON], _ a: Side, _ b: Side, level: Int) {
      for offset in 0..<max(x.count, y.count) {
        let old: JSON? = offset < x.count ? x[offset] : nil
        let new: JSON? = offset < y.count ? y[offset] : nil
        switch (old, new) {
        case (let old?, let new?) where old == new:
          keep("", b.element(offset, new))
        case (let old?, let new?):
          flush(level: level)
          changed(a.element(offset, old), b.element(offset, new), oldLabel: "", newLabel: "", level: level)
        case (let old?, nil):
          flush(level: level)
          dump("− ", a.element(offset, old), label: "", level: level)
        case (nil, let new?):
          flush(level: level)
          dump("+ ", b.element(offset, new), label: "", level: level)
        case (nil, nil):
          break
        }
      }
      flush(level: level)
    }

    mutating func elements(_ x: [JSON], _ y: [JSON], _ a: Side, _ b: Side, level: Int) {
      if let oldIDs = Self.ids(x), let newIDs = Self.ids(y) {
        identifiedElements(x, y, a, b, oldIDs: oldIDs, newIDs: newIDs, level: level)
        return
      }
      for segment in SequenceDiff.segments(oldCount: x.count, newCount: y.count, equal: { x[$0] == y[$1] }) {
        if segment.isEqual {
          for j in segment.new { keep("[\(j)]: ", b.element(j, y[j])) }
          continue
        }
        flush(level: level)
        let paired = min(segment.old.count, segment.new.count)
        for offset in 0..<paired {
          let i = segment.old.lowerBound + offset
          let j = segment.new.lowerBound + offset
          changed(a.element(i, x[i]), b.element(j, y[j]), oldLabel: "[\(i)]: ", newLabel: "[\(j)]: ", level: level, isElement: true)
        }
        for i in (segment.old.lowerBound + paired)..<segment.old.upperBound { dump("− ", a.element(i, x[i]), label: "[\(i)]: ", level: level) }
        for j in (segment.new.lowerBound + paired)..<segment.new.upperBound { dump("+ ", b.element(j, y[j]), label: "[\(j)]: ", level: level) }
      }
      flush(level: level)
    }

    /// Elements that are objects with unique `id` members (identified collections) align by
    /// id: same id → the element's own diff, otherwise removed or inserted.
    mutating func identifiedElements(_ x: [JSON], _ y: [JSON], _ a: Side, _ b: Side, oldIDs: [JSON], newIDs: [JSON], level: Int) {
      for segment in SequenceDiff.segments(oldCount: x.count, newCount: y.count, equal: { oldIDs[$0] == newIDs[$1] }) {
        if segment.isEqual {
          for (i, j) in zip(segment.old, segment.new) {
            if x[i] == y[j] {
              keep("[\(j)]: ", b.element(j, y[j]))
            } else {
              flush(level: level)
              changed(a.element(i, x[i]), b.element(j, y[j]), oldLabel: "[\(i)]: ", newLabel: "[\(j)]: ", level: level, isElement: true)
            }
          }
          continue
        }
        flush(level: level)
        for i in segment.old { dump("− ", a.element(i, x[i]), label: "[\(i)]: ", level: level) }
        for j in segment.new { dump("+ ", b.element(j, y[j]), label: "[\(j)]: ", level: level) }
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
