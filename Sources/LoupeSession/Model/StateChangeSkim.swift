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
  private let bytes: UnsafeBufferPointer<UInt8>
  private var i = 0

  private init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

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

  private mutating func skipWhitespace() {
    while i < bytes.count {
      switch bytes[i] {
      case 0x20, 0x09, 0x0A, 0x0D: i += 1
      default: return
      }
    }
  }

  /// Takes `byte` (after any whitespace) if it comes next.
  private mutating func take(_ byte: UInt8) -> Bool {
    skipWhitespace()
    guard i < bytes.count, bytes[i] == byte else { return false }
    i += 1
    return true
  }

  /// A member name: ASCII, no escapes.
  private mutating func name() -> Range<Int>? { quoted(asciiOnly: true) }

  /// A string value without escapes: its bytes' range.
  private mutating func plainString() -> Range<Int>? { quoted(asciiOnly: false) }

  /// A quoted string without escapes (and, with `asciiOnly`, without bytes past ASCII): the
  /// range of the bytes between its quotes; `nil` for anything else.
  private mutating func quoted(asciiOnly: Bool) -> Range<Int>? {
    guard take(UInt8(ascii: "\"")) else { return nil }
    let start = i
    while i < bytes.count {
      let byte = bytes[i]
      if byte == UInt8(ascii: "\"") {
        i += 1
        return start..<(i - 1)
      }
      guard byte != UInt8(ascii: "\\"), !asciiOnly || byte < 0x80 else { return nil }
      i += 1
    }
    return nil
  }

  /// Steps over a value; `false` at the end of the bytes.
  private mutating func skipValue() -> Bool {
    skipWhitespace()
    guard i < bytes.count else { return false }
    switch bytes[i] {
    case UInt8(ascii: "\""):
      return skipString()
    case UInt8(ascii: "{"), UInt8(ascii: "["):
      var depth = 0
      while i < bytes.count {
        switch bytes[i] {
        case UInt8(ascii: "\""):
          guard skipString() else { return false }
          continue
        case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
        case UInt8(ascii: "}"), UInt8(ascii: "]"):
          depth -= 1
          if depth == 0 {
            i += 1
            return true
          }
        default: break
        }
        i += 1
      }
      return false
    default:
      // A number or a literal: up to the next delimiter.
      let start = i
      while i < bytes.count {
        switch bytes[i] {
        case UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x09, 0x0A, 0x0D: return i > start
        default: i += 1
        }
      }
      return false
    }
  }

  /// Steps over a string (escapes and all), from its opening quote.
  private mutating func skipString() -> Bool {
    i += 1
    while i < bytes.count {
      switch bytes[i] {
      case UInt8(ascii: "\\"): i += 2
      case UInt8(ascii: "\""):
        i += 1
        return true
      default: i += 1
      }
    }
    return false
  }

  private func equal(_ range: Range<Int>, _ text: StaticString) -> Bool {
    guard range.count == text.utf8CodeUnitCount else { return false }
    let wanted = text.utf8Start
    for offset in 0..<range.count where bytes[range.lowerBound + offset] != wanted[offset] { return false }
    return true
  }
}
