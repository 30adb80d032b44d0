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

  /// The text the pattern matches when it has no wildcards (it then matches only that).
  public var literalText: String? { literal }

  /// Whether `text` matches the whole pattern. Linear in practice: one backtrack point.
  public func matches(_ text: String) -> Bool {
    if let literal { return literal == text }
    if isStar { return true }
    if let result = text.utf8.withContiguousStorageIfAvailable({ matchesBytes($0) }) { return result }
    return matchesScalars(text)
  }

  /// Whether the UTF-8 text `utf8` (valid UTF-8, as in a validated trace line) matches the
  /// whole pattern: the same verdict as ``matches(_:)`` on the string, without building it.
  public func matches(utf8: UnsafeBufferPointer<UInt8>) -> Bool {
    if let literal {
      var literal = literal
      return literal.withUTF8 { $0.count == utf8.count && (utf8.isEmpty || LibC.memcmp($0.baseAddress!, utf8.baseAddress!, utf8.count) == 0) }
    }
    if isStar { return true }
    return matchesBytes(utf8)
  }

  private var isStar: Bool { tokens.count == 1 && tokens[0] == .star }

  /// The matcher of ``matchesScalars(_:)`` over UTF-8 bytes: `?` and a backtracking `*` step
  /// over whole scalars (a lead byte and its continuation bytes), literals compare their UTF-8.
  private func matchesBytes(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    func scalarEnd(_ start: Int) -> Int {
      var end = start + 1
      while end < bytes.count, bytes[end] & 0xC0 == 0x80 { end += 1 }
      return end
    }
    var t = 0
    var s = 0
    var starToken = -1
    var starByte = 0
    while s < bytes.count {
      if t < tokens.count {
        switch tokens[t] {
        case .star:
          starToken = t
          starByte = s
          t += 1
          continue
        case .any:
          t += 1
          s = scalarEnd(s)
          continue
        case .literal(let c):
          if c.isASCII {
            if bytes[s] == UInt8(c.value) {
              t += 1
              s += 1
              continue
            }
          } else {
            let end = scalarEnd(s)
            var matched = true
            var k = s
            for unit in UTF8.encode(c)! {
              if k >= end || bytes[k] != unit { matched = false; break }
              k += 1
            }
            if matched && k == end {
              t += 1
              s = end
              continue
            }
          }
        }
      }
      guard starToken >= 0 else { return false }
      t = starToken + 1
      starByte = scalarEnd(starByte)
      s = starByte
    }
    while t < tokens.count, tokens[t] == .star { t += 1 }
    return t == tokens.count
  }

  /// The reference matcher, scalar by scalar (for strings that are not contiguous UTF-8).
  func matchesScalars(_ text: String) -> Bool {
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

  /// Whether any pattern matches the UTF-8 text `utf8`.
  public func anyMatches(utf8: UnsafeBufferPointer<UInt8>) -> Bool {
    contains { $0.matches(utf8: utf8) }
  }
}
