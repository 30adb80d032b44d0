import LoupeCore

/// The −/+ lines of a `state.changed` event's changes, one or two per change, in the style of
/// TCA's `_printChanges()`:
///
/// ```
/// - count: 1
/// + count: 2
/// + pages[id: 3]: {"count":0,"isPlaying":false}
/// ```
enum ChangeLines {
  /// At most this many changes are shown per event; the rest are counted.
  static let maximumChanges = 20

  static func lines(_ changes: [Change], style: Style, valueLimit: Int = 160) -> [String] {
    var lines: [String] = []
    for change in changes.prefix(maximumChanges) {
      let path = change.path.isEmpty ? "(state)" : change.path
      if let old = change.old, change.op != .insert {
        lines.append(style.red("- \(path): \(Formatting.json(old, limit: valueLimit))"))
      }
      if let new = change.new, change.op != .remove {
        lines.append(style.green("+ \(path): \(Formatting.json(new, limit: valueLimit))"))
      }
      if change.old == nil, change.new == nil {
        lines.append("\(change.op == .remove ? "-" : "+") \(path)")
      }
    }
    if changes.count > maximumChanges {
      lines.append(style.dim("… \(Formatting.plural(changes.count - maximumChanges, "more change"))"))
    }
    return lines
  }
}
