import LoupeCore
import LoupeSession

/// The −/+ lines under a `state.changed` event in the timeline: core's compact change text
/// (``ChangeText``), `−` lines red and `+` lines green on a terminal, at most
/// ``maximumChanges`` changes per event.
///
/// ```
/// − count: 1
/// + count: 2
/// + todos[id: 3] (at 2): {id: 3, title: "Milk", isDone: false}
/// ```
enum ChangeLines {
  /// At most this many changes are shown per event; the rest are counted.
  static let maximumChanges = 20

  static func lines(_ changes: [Change], style: Style, valueLimit: Int = 120) -> [String] {
    var lines = ChangeText.lines(Array(changes.prefix(maximumChanges)), indent: "", maxValueLength: valueLimit).map { line in
      line.hasPrefix("+") ? style.green(line) : style.red(line)
    }
    if changes.count > maximumChanges {
      lines.append(style.dim("… \(Formatting.plural(changes.count - maximumChanges, "more change"))"))
    }
    return lines
  }
}
