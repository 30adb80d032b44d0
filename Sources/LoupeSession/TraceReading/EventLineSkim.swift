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

  private var cursor: JSONLineCursor

  private init(_ bytes: UnsafeBufferPointer<UInt8>) { cursor = JSONLineCursor(bytes) }

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

  private mutating func members(needs: Needs) -> EventLineScanner.Fields? {
    cursor.skipWhitespace()
    guard cursor.peek == UInt8(ascii: "{") else { return nil }
    cursor.i += 1
    var fields = EventLineScanner.Fields()
    var haveKind = false
    var haveStore = !needs.store
    var haveAction = !needs.action
    var seenStore = false
    var seenAction = false
    while true {
      cursor.skipWhitespace()
      guard cursor.peek == UInt8(ascii: "\"") else { return nil }
      guard let key = cursor.string(), !key.escaped else { return nil }
      cursor.skipWhitespace()
      guard cursor.peek == UInt8(ascii: ":") else { return nil }
      cursor.i += 1
      cursor.skipWhitespace()
      let valueStart = cursor.i
      guard let isPlainString = cursor.skipValue() else { return nil }
      let member: EventLineScanner.Member =
        isPlainString ? .plain((valueStart + 1)..<(cursor.i - 1)) : .other
      switch key.range.count {
      case 4 where !haveKind && cursor.equal(key.range, "kind"):
        guard case .plain = member else { return nil }
        fields.kind = member
        haveKind = true
      case 5 where !seenStore && cursor.equal(key.range, "store"):
        fields.store = member
        seenStore = true
        haveStore = true
      case 6 where !seenAction && cursor.equal(key.range, "action"):
        fields.action = member
        seenAction = true
        haveAction = true
      default:
        break
      }
      if haveKind && haveStore && haveAction { return fields }
      cursor.skipWhitespace()
      switch cursor.peek {
      case UInt8(ascii: ","): cursor.i += 1
      case UInt8(ascii: "}"):
        // The whole object is seen: what was not found is absent.
        return haveKind ? fields : nil
      default: return nil
      }
    }
  }
}
