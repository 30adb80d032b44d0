import LoupeCore
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
package struct EventLinePrefix {
  package var seq: Int
  package var kind: Range<Int>
  package var store: Range<Int>?

  /// The prefix of `line`, or `nil` when it does not start the way Loupe writes events.
  ///
  /// The fixed parts are compared as little-endian words (constants below), not with
  /// `memcmp`: this runs on every line a filter may drop, so it is a large part of reading.
  static package func parse(_ line: UnsafeBufferPointer<UInt8>) -> EventLinePrefix? {
    guard let base = line.baseAddress else { return nil }
    let count = line.count
    // `{"seq":` (seven bytes; the eighth, masked off, is the first digit).
    guard count >= 8, word(base, 0) & 0x00FF_FFFF_FFFF_FFFF == 0x003a_2271_6573_227b else { return nil }
    var i = 7
    var seq = 0
    let digits = i
    while i < count, base[i] &- UInt8(ascii: "0") < 10, i - digits < 18 {
      seq = seq * 10 + Int(base[i] &- UInt8(ascii: "0"))
      i += 1
    }
    // `,"time":`
    guard i > digits, count - i >= 8, word(base, i) == 0x3a22_656d_6974_222c else { return nil }
    i += 8
    let time = i
    while i < count, isNumberByte(base[i]) { i += 1 }
    // `,"kind":"`
    guard i > time, count - i >= 9, word(base, i) == 0x3a22_646e_696b_222c, base[i + 8] == UInt8(ascii: "\"") else {
      return nil
    }
    i += 9
    guard let kind = string(base, count: count, at: &i) else { return nil }
    var store: Range<Int>?
    // `,"store":"`
    if count - i >= 10, word(base, i) == 0x2265_726f_7473_222c, base[i + 8] == UInt8(ascii: ":"),
      base[i + 9] == UInt8(ascii: "\"")
    {
      i += 10
      store = string(base, count: count, at: &i)
    }
    return EventLinePrefix(seq: seq, kind: kind, store: store)
  }

  @inline(__always)
  private static func word(_ base: UnsafePointer<UInt8>, _ i: Int) -> UInt64 {
    UInt64(littleEndian: UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self))
  }

  /// Whether the bytes at `range` of `line` are `text`.
  static package func bytes(_ line: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, equal text: StaticString) -> Bool {
    EventLineScanner.bytes(line, range, equal: text)
  }

  /// The bytes of a string without escapes up to its closing quote (`i` after the opening
  /// one); `nil` at a backslash or a control character.
  @inline(__always)
  private static func string(_ base: UnsafePointer<UInt8>, count: Int, at i: inout Int) -> Range<Int>? {
    let start = i
    var j = i
    while true {
      // Eight bytes at a time to the first quote, backslash, control or non-ASCII byte.
      if count - j >= 8 {
        let lanes = StringBytes.specials(word(base, j))
        if lanes == 0 {
          j += 8
          continue
        }
        j += lanes.trailingZeroBitCount >> 3
      } else if j >= count {
        return nil
      }
      let byte = base[j]
      if byte == UInt8(ascii: "\"") {
        i = j + 1
        return start..<j
      }
      if byte == UInt8(ascii: "\\") || byte < 0x20 { return nil }
      j += 1  // any other byte, non-ASCII included, is part of the string here
    }
  }

  @inline(__always)
  private static func isNumberByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "e"), UInt8(ascii: "E"):
      true
    default:
      false
    }
  }
}
