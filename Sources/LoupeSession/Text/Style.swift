import LoupeCore

/// ANSI styles for terminal output; plain text when colour is off.
package struct Style: Sendable {
  package init(enabled: Bool) {
    self.enabled = enabled
  }

  package let enabled: Bool

  package enum Code: String {
    case bold = "1", dim = "2", red = "31", green = "32", yellow = "33", blue = "34", magenta = "35", cyan = "36"
    case boldRed = "1;31"
  }

  package func apply(_ code: Code, _ text: String) -> String {
    enabled ? "\u{1B}[\(code.rawValue)m\(text)\u{1B}[0m" : text
  }

  package func bold(_ text: String) -> String { apply(.bold, text) }
  package func dim(_ text: String) -> String { apply(.dim, text) }
  package func red(_ text: String) -> String { apply(.red, text) }
  package func green(_ text: String) -> String { apply(.green, text) }
}
