import LoupeCore
/// A position in one line of JSON that steps over values without validating or decoding them:
/// strings to their closing quote (eight bytes at a time), objects and arrays by counting
/// brackets outside strings, numbers and literals to the next separator. What the skims of a
/// line (``EventLineSkim``, ``StateChangeSkim``) read their members with.
struct JSONLineCursor {
  let bytes: UnsafeBufferPointer<UInt8>
  var i = 0

  init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

  var peek: UInt8? { i < bytes.count ? bytes[i] : nil }

  mutating func skipWhitespace() {
    while i < bytes.count {
      switch bytes[i] {
      case 0x20, 0x09, 0x0A, 0x0D: i += 1
      default: return
      }
    }
  }

  /// Takes `byte` (after any whitespace) if it comes next.
  mutating func take(_ byte: UInt8) -> Bool {
    skipWhitespace()
    guard peek == byte else { return false }
    i += 1
    return true
  }

  /// Whether the bytes in `range` spell `text`.
  func equal(_ range: Range<Int>, _ text: StaticString) -> Bool {
    EventLineScanner.bytes(bytes, range, equal: text)
  }

  /// Steps over one value; whether it was a string without escapes, or `nil` when the bytes
  /// are not shaped like a value.
  mutating func skipValue() -> Bool? {
    guard let byte = peek else { return nil }
    switch byte {
    case UInt8(ascii: "\""):
      guard let string = string() else { return nil }
      return !string.escaped
    case UInt8(ascii: "{"), UInt8(ascii: "["):
      return skipContainer() ? false : nil
    default:
      // A number or a literal: up to the next separator.
      let start = i
      while i < bytes.count {
        switch bytes[i] {
        case UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x09, 0x0A, 0x0D:
          return i > start ? false : nil
        case UInt8(ascii: "\""), UInt8(ascii: "{"), UInt8(ascii: "["):
          return nil
        default:
          i += 1
        }
      }
      return nil
    }
  }

  /// Steps over an object or array, counting brackets outside strings.
  private mutating func skipContainer() -> Bool {
    var depth = 0
    while i < bytes.count {
      switch bytes[i] {
      case UInt8(ascii: "{"), UInt8(ascii: "["):
        depth += 1
        i += 1
      case UInt8(ascii: "}"), UInt8(ascii: "]"):
        depth -= 1
        i += 1
        if depth == 0 { return true }
      case UInt8(ascii: "\""):
        guard string() != nil else { return false }
      default:
        i += 1
      }
    }
    return false
  }

  /// Steps over a string from its opening quote; its contents' range and whether it holds
  /// escapes, or `nil` when it does not end on this line.
  mutating func string() -> (range: Range<Int>, escaped: Bool)? {
    i += 1
    let start = i
    var escaped = false
    let count = bytes.count
    let base = bytes.baseAddress!
    while true {
      i = StringBytes.firstSpecial(
        base, from: i, count: count, mask: StringBytes.quotesOrBackslashes, isSpecial: StringBytes.isQuoteOrBackslash)
      guard i < count else { return nil }
      if base[i] == UInt8(ascii: "\"") {
        i += 1
        return (start..<(i - 1), escaped)
      }
      escaped = true
      i += 2
    }
  }
}
