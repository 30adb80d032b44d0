/// A shell-style pattern: `*` matches any run of characters (including none, and across `/`
/// and `.`), `?` matches exactly one character, `\` makes the next character literal.
/// Everything else matches itself, case-sensitively.
///
/// ```swift
/// Glob("effect.*").matches("effect.started")          // true
/// Glob("AppFeature#1/pages*").matches("AppFeature#1/pages[id: 2]")  // true
/// ```
public struct Glob: Sendable, Hashable, CustomStringConvertible {
  enum Token: Sendable, Hashable {
    case literal(Unicode.Scalar)
    case any  // ?
    case star  // *
  }

  public let pattern: String
  let tokens: [Token]
  /// A pattern with no wildcards is compared as a plain string.
  let literal: String?

  public init(_ pattern: String) {
    self.pattern = pattern
    var tokens: [Token] = []
    var escaping = false
    for scalar in pattern.unicodeScalars {
      if escaping {
        tokens.append(.literal(scalar))
        escaping = false
        continue
      }
      switch scalar {
      case "\\": escaping = true
      case "*": if tokens.last != .star { tokens.append(.star) }
      case "?": tokens.append(.any)
      default: tokens.append(.literal(scalar))
      }
    }
    if escaping { tokens.append(.literal("\\")) }
    self.tokens = tokens
    let isLiteral = tokens.allSatisfy { if case .literal = $0 { true } else { false } }
    if isLiteral {
      var text = String.UnicodeScalarView()
      for case .literal(let scalar) in tokens { text.append(scalar) }
      literal = String(text)
    } else {
      literal = nil
    }
  }

  public var description: String { pattern }

  /// Whether `text` matches the whole pattern. Linear in practice: one backtrack point.
  public func matches(_ text: String) -> Bool {
    if let literal { return literal == text }
    if tokens == [.star] { return true }
    let scalars = Array(text.unicodeScalars)
    var t = 0  // position in tokens
    var s = 0  // position in scalars
    var starToken = -1
    var starScalar = 0
    while s < scalars.count {
      if t < tokens.count {
        switch tokens[t] {
        case .star:
          starToken = t
          starScalar = s
          t += 1
          continue
        case .any:
          t += 1
          s += 1
          continue
        case .literal(let c) where c == scalars[s]:
          t += 1
          s += 1
          continue
        default:
          break
        }
      }
      guard starToken >= 0 else { return false }
      t = starToken + 1
      starScalar += 1
      s = starScalar
    }
    while t < tokens.count, tokens[t] == .star { t += 1 }
    return t == tokens.count
  }
}

extension Sequence where Element == Glob {
  /// Whether any pattern matches `text`.
  public func anyMatches(_ text: String) -> Bool {
    contains { $0.matches(text) }
  }
}
