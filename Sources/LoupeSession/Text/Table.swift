import LoupeCore

/// An aligned text table: a header row, then rows, columns two spaces apart; numbers are
/// right-aligned.
package struct Table {
  package struct Column {
    package var title: String
    package var rightAligned: Bool
    static package func text(_ title: String) -> Column { Column(title: title, rightAligned: false) }
    static package func number(_ title: String) -> Column { Column(title: title, rightAligned: true) }
  }

  package var columns: [Column]
  package var rows: [[String]] = []

  package init(_ columns: [Column]) { self.columns = columns }

  mutating package func add(_ row: [String]) { rows.append(row) }

  package func render(style: Style) -> String {
    var widths = columns.map(\.title.count)
    for row in rows {
      for (index, cell) in row.enumerated() where index < widths.count {
        widths[index] = max(widths[index], cell.count)
      }
    }
    func line(_ cells: [String]) -> String {
      var parts: [String] = []
      for (index, column) in columns.enumerated() {
        let cell = index < cells.count ? cells[index] : ""
        let isLast = index == columns.count - 1
        if column.rightAligned {
          parts.append(Formatting.leftPad(cell, widths[index]))
        } else {
          parts.append(isLast ? cell : Formatting.rightPad(cell, widths[index]))
        }
      }
      var text = parts.joined(separator: "  ")
      while text.hasSuffix(" ") { text.removeLast() }
      return text
    }
    var text = style.bold(line(columns.map(\.title))) + "\n"
    for row in rows { text += line(row) + "\n" }
    return text
  }
}
