/// The compact text of a list of changes, as `loupe` prints it under a `state.changed` line.
///
/// One line per value: `−` for what was there, `+` for what is there now (U+2212 MINUS SIGN
/// and `+`, as TCA prints diffs), then the path (`@self` for the whole state) and the value
/// in ``ValueText`` form (Swift-like where the change carries the shapes of its values):
///
/// ```
///   − count: 1
///   + count: 2
///   + todos[id: 3] (at 2): {id: 3, title: "Milk", isDone: false}
///   − todos[id: 1]: {id: 1, title: "Eggs", isDone: true}
///   − mode: .idle
///   + mode: .loading(progress: 0.5)
/// ```
///
/// A `replace` prints both lines, an `insert` the `+` line (with `(at N)` for an element
/// inserted into an identified collection), a `remove` the `−` line. A change a cap cut
/// short (`truncated`) ends its last line with ` (truncated)`.
public enum ChangeText {
  /// The lines for `changes`, each starting with `indent`. Values longer than
  /// `maxValueLength` characters are cut with `…`.
  public static func lines(_ changes: [Change], indent: String = "  ", maxValueLength: Int = 120) -> [String] {
    var lines: [String] = []
    lines.reserveCapacity(changes.count * 2)
    for change in changes {
      let path = change.path.isEmpty ? "@self" : change.path
      func value(_ json: JSON?, _ shape: ValueShape?) -> String {
        ValueText.compact(json ?? .null, shape: shape, maxLength: maxValueLength)
      }
      switch change.op {
      case .replace:
        if let old = change.old { lines.append("\(indent)− \(path): \(value(old, change.oldShape))") }
        lines.append("\(indent)+ \(path): \(value(change.new, change.newShape))")
      case .insert:
        var position = ""
        if let index = change.index, isIdentified(change.path) { position = " (at \(index))" }
        lines.append("\(indent)+ \(path)\(position): \(value(change.new, change.newShape))")
      case .remove:
        lines.append("\(indent)− \(path): \(value(change.old, change.oldShape))")
      }
      // A change a cap cut short (protocol/values.md): its values may not show it.
      if change.truncated { lines[lines.count - 1] += " (truncated)" }
    }
    return lines
  }

  /// ``lines(_:indent:maxValueLength:)`` joined with newlines.
  public static func text(_ changes: [Change], indent: String = "  ", maxValueLength: Int = 120) -> String {
    lines(changes, indent: indent, maxValueLength: maxValueLength).joined(separator: "\n")
  }

  private static func isIdentified(_ path: String) -> Bool {
    guard path.hasSuffix("]"), let parsed = try? StatePath(parsing: path), case .id? = parsed.components.last else { return false }
    return true
  }
}
