// EventLinePrefix as it was at main 778a12b: the reference for the differential tests.

@testable import LoupeCore
@testable import LoupeSession

/// The start of an event line as Loupe's writers write it — `{"seq":N,"time":T,"kind":"K"`,
/// then `,"store":"S"` for events about a store — read without looking at the rest of the
/// line. A reader that needs only the `seq`, kind and store of most lines (``TraceStateIndex``)
/// skips the full check ``EventLineScanner`` makes, which is most of the cost of reading a
/// large trace; a line that does not start this way (another writer's member order, escapes
/// in the kind or store) is decoded in full instead.
///
/// ```
/// {"seq":42,"time":3.5,"kind":"state.changed","store":"AppFeature#1","cause":41,…
///         ^^          ^^^        ^^^^^^^^^^^^^          ^^^^^^^^^^^^
///         seq         time       kind                   store (nil when absent or escaped)
/// ```
struct ReferenceEventLinePrefix {
  var seq: Int
  var kind: Range<Int>
  var store: Range<Int>?

  /// The prefix of `line`, or `nil` when it does not start the way Loupe writes events.
  static func parse(_ line: UnsafeBufferPointer<UInt8>) -> ReferenceEventLinePrefix? {
    var i = 0
    guard skip(#"{"seq":"#, in: line, at: &i) else { return nil }
    var seq = 0
    let digits = i
    while i < line.count, line[i] >= UInt8(ascii: "0"), line[i] <= UInt8(ascii: "9"), i - digits < 18 {
      seq = seq * 10 + Int(line[i] - UInt8(ascii: "0"))
      i += 1
    }
    guard i > digits, skip(#","time":"#, in: line, at: &i) else { return nil }
    let time = i
    while i < line.count, isNumberByte(line[i]) { i += 1 }
    guard i > time, skip(#","kind":""#, in: line, at: &i), let kind = string(in: line, at: &i) else { return nil }
    var store: Range<Int>?
    if skip(#","store":""#, in: line, at: &i) { store = string(in: line, at: &i) }
    return ReferenceEventLinePrefix(seq: seq, kind: kind, store: store)
  }

  /// Whether the bytes at `range` of `line` are `text`.
  static func bytes(_ line: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, equal text: StaticString) -> Bool {
    ReferenceEventLineScanner.bytes(line, range, equal: text)
  }

  private static func skip(_ text: StaticString, in line: UnsafeBufferPointer<UInt8>, at i: inout Int) -> Bool {
    let end = i + text.utf8CodeUnitCount
    guard end <= line.count, bytes(line, i..<end, equal: text) else { return false }
    i = end
    return true
  }

  /// The bytes of a string without escapes up to its closing quote (`i` after the opening one).
  private static func string(in line: UnsafeBufferPointer<UInt8>, at i: inout Int) -> Range<Int>? {
    let start = i
    while i < line.count {
      switch line[i] {
      case UInt8(ascii: "\""):
        defer { i += 1 }
        return start..<i
      case UInt8(ascii: "\\"), 0..<0x20:
        return nil
      default:
        i += 1
      }
    }
    return nil
  }

  private static func isNumberByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "e"), UInt8(ascii: "E"):
      true
    default:
      false
    }
  }
}
