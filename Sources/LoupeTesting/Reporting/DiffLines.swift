/// The −/+ block of a failure message, as TCA prints one:
///
/// ```
///     #6 action.received PageFeature#1 action: PageFeature.Action.onAppear, origin: send
///   − effect.cancelled PageFeature#1 by: PageFeature#1
///   + #17 effect.cancelled PageFeature#1 effect: 1, …, by: PageFeature#2 (#16)
/// ```
///
/// `−` (U+2212) marks what was expected and not found, `+` what was there and not expected,
/// two spaces what matched. Matching rows more than ``context`` rows away from a difference
/// collapse into `… (N events)` (unless `context` is `nil`: the rows were chosen already).
struct DiffLines {
  enum Mark { case same, expected, actual }

  /// The legend every message with a −/+ block ends with.
  static let legend = "(Expected: −, Actual: +)"

  var rows: [(mark: Mark, text: String)] = []
  /// Matching rows shown on each side of a difference; `nil` shows every row.
  var context: Int? = 2

  mutating func same(_ text: String) { rows.append((.same, text)) }
  mutating func expected(_ text: String) { rows.append((.expected, text)) }
  mutating func actual(_ text: String) { rows.append((.actual, text)) }

  /// The block's lines, each indented by two spaces.
  var lines: [String] {
    var shown = [Bool](repeating: context == nil, count: rows.count)
    if let context {
      for index in rows.indices where rows[index].mark != .same {
        for near in max(0, index - context)...min(rows.count - 1, index + context) { shown[near] = true }
      }
    }
    var lines: [String] = []
    var hidden: [Int] = []
    func line(_ row: (mark: Mark, text: String)) -> String {
      switch row.mark {
      case .same: "    " + row.text
      case .expected: "  − " + row.text
      case .actual: "  + " + row.text
      }
    }
    func flushHidden() {
      // A single hidden row is shown: "… (1 event)" would take its place for nothing.
      if hidden.count == 1 { lines.append(line(rows[hidden[0]])) }
      if hidden.count > 1 { lines.append("    … (\(hidden.count) events)") }
      hidden = []
    }
    for (index, row) in rows.enumerated() {
      if shown[index] {
        flushHidden()
        lines.append(line(row))
      } else {
        hidden.append(index)
      }
    }
    flushHidden()
    return lines
  }

  /// `header`, the block, the legend, and `footer` when given.
  func message(_ header: String, footer: String? = nil) -> String {
    var text = header + "\n\n" + lines.joined(separator: "\n") + "\n\n" + Self.legend
    if let footer { text += "\n\n" + footer }
    return text
  }
}

/// `1 event`, `2 events`: a count and the noun that goes with it.
func plural(_ count: Int, _ singular: String, _ pluralForm: String) -> String {
  "\(count) \(count == 1 ? singular : pluralForm)"
}
