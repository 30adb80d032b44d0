/// The `store` of a `state.changed` line and the `path` of each of its changes, read without
/// decoding the line: a rebuild for one store (``ScopeFocus``) leaves out, by these alone, the
/// changes that cannot reach it.
///
/// It steps over the other members' values (strings to their closing quote, objects and arrays
/// by counting brackets outside strings). It gives up (`nil`: decode the line and apply it)
/// unless the line reads plainly: an object whose member names are ASCII without escapes,
/// one `store` and one `changes` at its top, `store` a string without escapes, `changes` an
/// array of objects each with one `path`, a string without escapes, and no `newShape` or
/// `oldShape` (a shape merged anywhere is kept). Of a well-formed line it reads what the
/// decoder reads; a malformed line may be read, but the decoder would not apply it either.
package struct StateChangeSkim {
  private var cursor: JSONLineCursor

  private init(_ bytes: UnsafeBufferPointer<UInt8>) { cursor = JSONLineCursor(bytes) }

  /// The range of the `store` string's bytes in `line`, the ranges of the `path` strings'
  /// bytes in `paths` (emptied first); `nil` when the line does not read plainly.
  static package func read(_ line: UnsafeBufferPointer<UInt8>, paths: inout [Range<Int>]) -> Range<Int>? {
    paths.removeAll(keepingCapacity: true)
    var skim = StateChangeSkim(line)
    return skim.event(paths: &paths)
  }

  private mutating func event(paths: inout [Range<Int>]) -> Range<Int>? {
    guard take(UInt8(ascii: "{")) else { return nil }
    var store: Range<Int>?
    var sawChanges = false
    if take(UInt8(ascii: "}")) { return nil }
    repeat {
      guard let key = name(), take(UInt8(ascii: ":")) else { return nil }
      if equal(key, "store") {
        guard store == nil, let range = plainString() else { return nil }
        store = range
      } else if equal(key, "changes") {
        guard !sawChanges, changes(paths: &paths) else { return nil }
        sawChanges = true
      } else {
        guard skipValue() else { return nil }
      }
    } while take(UInt8(ascii: ","))
    guard take(UInt8(ascii: "}")), sawChanges else { return nil }
    return store
  }

  private mutating func changes(paths: inout [Range<Int>]) -> Bool {
    guard take(UInt8(ascii: "[")) else { return false }
    if take(UInt8(ascii: "]")) { return true }
    repeat {
      guard take(UInt8(ascii: "{")) else { return false }
      var path: Range<Int>?
      if !take(UInt8(ascii: "}")) {
        repeat {
          guard let key = name(), take(UInt8(ascii: ":")) else { return false }
          if equal(key, "path") {
            guard path == nil, let range = plainString() else { return false }
            path = range
          } else if equal(key, "newShape") || equal(key, "oldShape") {
            return false
          } else {
            guard skipValue() else { return false }
          }
        } while take(UInt8(ascii: ","))
        guard take(UInt8(ascii: "}")) else { return false }
      }
      guard let path else { return false }
      paths.append(path)
    } while take(UInt8(ascii: ","))
    return take(UInt8(ascii: "]"))
  }

  private mutating func take(_ byte: UInt8) -> Bool { cursor.take(byte) }

  private func equal(_ range: Range<Int>, _ text: StaticString) -> Bool { cursor.equal(range, text) }

  /// A member name: ASCII, no escapes.
  private mutating func name() -> Range<Int>? { quoted(asciiOnly: true) }

  /// A string value without escapes: its bytes' range.
  private mutating func plainString() -> Range<Int>? { quoted(asciiOnly: false) }

  /// A quoted string without escapes (and, with `asciiOnly`, without bytes past ASCII): the
  /// range of the bytes between its quotes; `nil` for anything else.
  private mutating func quoted(asciiOnly: Bool) -> Range<Int>? {
    cursor.skipWhitespace()
    guard cursor.peek == UInt8(ascii: "\""), let string = cursor.string(), !string.escaped else { return nil }
    if asciiOnly, string.range.contains(where: { cursor.bytes[$0] >= 0x80 }) { return nil }
    return string.range
  }

  /// Steps over a value; `false` when the bytes are not shaped like one.
  private mutating func skipValue() -> Bool {
    cursor.skipWhitespace()
    return cursor.skipValue() != nil
  }
}
