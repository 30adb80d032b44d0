import LoupeCore

/// One thing `loupe doctor` found: what happened (with the `seq` numbers involved), why it
/// matters, and what to do about it.
package struct Finding: Sendable, Equatable {
  /// How much a finding matters. Only problems make `doctor` exit with status 1.
  package enum Severity: String, Sendable {
    /// A pitfall that made the program misbehave or waste work on every action.
    case problem
    /// Worth a look, often fine: the program behaved as written.
    case note
  }

  /// A stable identifier for scripts, e.g. `effect-cancelled-by-another-store`.
  package var code: String
  package var title: String
  /// What happened, in sentences that name stores, effects and `#seq`s.
  package var details: [String]
  package var why: String
  package var fix: String
  /// The events involved, in order (at most ``Finding/maximumSeqs``).
  package var seqs: [Int]
  package var severity: Severity = .problem

  static package let maximumSeqs = 20

  package var json: JSON {
    [
      "code": .string(code), "severity": .string(severity.rawValue), "title": .string(title), "details": .array(details.map(JSON.string)),
      "why": .string(why), "fix": .string(fix), "seqs": .array(seqs.map(JSON.int)),
    ]
  }

  /// Wraps at spaces, but never inside a bracketed path component (`pages[id: 2]`).
  private static func wrap(_ text: String, width: Int) -> [String] {
    var protected = ""
    var depth = 0
    for character in text {
      if character == "[" { depth += 1 }
      if character == "]" { depth = max(0, depth - 1) }
      protected.append(character == " " && depth > 0 ? "\u{00A0}" : character)
    }
    return Formatting.wrap(protected, width: width).map { $0.replacingOccurrences(of: "\u{00A0}", with: " ") }
  }

  package func text(number: Int, style: Style) -> String {
    let indent = String(repeating: " ", count: 2 + String(number).count)
    let marker = severity == .note ? style.dim(" (note)") : ""
    var text = style.bold("\(number). \(title)") + marker + "\n"
    for detail in details {
      // List items ("- …") continue under their text.
      let hanging = detail.hasPrefix("- ") ? "  " : ""
      for (offset, line) in Self.wrap(detail, width: 96 - indent.count - hanging.count).enumerated() {
        text += indent + (offset == 0 ? "" : hanging) + line + "\n"
      }
    }
    for (label, body) in [("Why:", why), ("Fix:", fix)] {
      let lines = Self.wrap(body, width: 96 - indent.count - 5)
      for (offset, line) in lines.enumerated() {
        text += indent + (offset == 0 ? style.apply(.yellow, label) + " " : "     ") + line + "\n"
      }
    }
    if !seqs.isEmpty {
      text += indent + style.dim("Events: " + seqs.map { "#\($0)" }.joined(separator: ", ")) + "\n"
    }
    return text
  }
}

/// Up to `limit` examples and how many there were in all.
package struct Examples<Element> {
  package var items: [Element] = []
  package var count = 0
  package let limit: Int

  package init(limit: Int = 5) { self.limit = limit }

  mutating package func add(_ item: Element) {
    count += 1
    if items.count < limit { items.append(item) }
  }

  /// `" (and 12 more)"` when some were left out.
  package var more: String { count > items.count ? " (and \(Formatting.count(count - items.count)) more)" : "" }
}
