import LoupeCore
/// A quick look at the first top-level members of an event line, to throw it away when a filter
/// rules it out by its `kind`, `store` or `action`, before anything validates or decodes it.
///
/// Unlike ``EventLineScanner`` it validates nothing: it steps over the values of the members
/// it does not need (strings eight bytes at a time, objects and arrays by counting brackets
/// outside strings) and stops as soon as it holds the members the filter needs. A line it
/// keeps goes through the scanner (and the decoder) as before, so only lines the filter
/// drops skip validation; a damaged line the filter drops is therefore not reported.
///
/// It gives up (`nil`, decide the slow way) on anything unusual: an escaped key before the
/// members it needs (it may spell one of them), a `kind` that is not a plain string, bytes
/// that do not look like an object. Of repeated keys it takes the first, as the decoder does.
package struct EventLineSkim {
  /// Which members the filter needs besides `kind`.
  package struct Needs {
    package var store: Bool
    package var action: Bool
  }

  private let bytes: UnsafeBufferPointer<UInt8>
  private var i = 0

  private init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

  /// The line's `kind` (a plain string's range) and, when needed, its `store` and `action`
  /// (``EventLineScanner/Member/absent`` when the object has none), or `nil`.
  static package func head(_ line: UnsafeBufferPointer<UInt8>, needs: Needs) -> EventLineScanner.Fields? {
    guard !line.isEmpty else { return nil }
    // Loupe's own lines start `{"seq":1,"time":0.5,"kind":"…"` (then `,"store":"…"` for events
    // about a store): found there without looking at anything else.
    if !needs.action, let prefix = EventLinePrefix.parse(line), !needs.store || prefix.store != nil {
      var fields = EventLineScanner.Fields()
      fields.kind = .plain(prefix.kind)
      if needs.store, let store = prefix.store { fields.store = .plain(store) }
      return fields
    }
    var skim = EventLineSkim(line)
    return skim.members(needs: needs)
  }

  private var peek: UInt8? { i < bytes.count ? bytes[i] : nil }

  private mutating func skipWhitespace() {
    while i < bytes.count {
      switch bytes[i] {
      case 0x20, 0x09, 0x0A, 0x0D: i += 1
      default: return
      }
    }
  }

  private mutating func members(needs: Needs) -> EventLineScanner.Fields? {
    skipWhitespace()
    guard peek == UInt8(ascii: "{") else { return nil }
    i += 1
    var fields = EventLineScanner.Fields()
    var haveKind = false
    var haveStore = !needs.store
    var haveAction = !needs.action
    var seenStore = false
    var seenAction = false
    while true {
      skipWhitespace()
      guard peek == UInt8(ascii: "\"") else { return nil }
      guard let key = string(), !key.escaped else { return nil }
      skipWhitespace()
      guard peek == UInt8(ascii: ":") else { return nil }
      i += 1
      skipWhitespace()
      let valueStart = i
      guard let isPlainString = skipValue() else { return nil }
      let member: EventLineScanner.Member =
        isPlainString ? .plain((valueStart + 1)..<(i - 1)) : .other
      switch key.range.count {
      case 4 where !haveKind && EventLineScanner.bytes(bytes, key.range, equal: "kind"):
        guard case .plain = member else { return nil }
        fields.kind = member
        haveKind = true
      case 5 where !seenStore && EventLineScanner.bytes(bytes, key.range, equal: "store"):
        fields.store = member
        seenStore = true
        haveStore = true
      case 6 where !seenAction && EventLineScanner.bytes(bytes, key.range, equal: "action"):
        fields.action = member
        seenAction = true
        haveAction = true
      default:
        break
      }
      if haveKind && haveStore && haveAction { return fields }
      skipWhitespace()
      switch peek {
      case UInt8(ascii: ","): i += 1
      case UInt8(ascii: "}"):
        // The whole object is seen: what was not found is absent.
        return haveKind ? fields : nil
      default: return nil
      }
    }
  }

  /// Steps over one value; whether it was a string without escapes, or `nil` when the bytes
  /// are not shaped like a value.
  private mutating func skipValue() -> Bool? {
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
  private mutating func string() -> (range: Range<Int>, escaped: Bool)? {
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
