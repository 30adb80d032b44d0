import LoupeCore
/// Finding the bytes that end the plain run of a JSON string, eight at a time: most of an
/// event line is inside strings, and most of its strings are short keys and values, so the
/// scanners jump straight to the first byte that matters instead of looking at each.
///
/// Each mask has the high bit set in the lanes (bytes, in memory order from the lowest bit)
/// that may be special. Lanes above a truly special one may be set by mistake (a borrow
/// crossing lanes); the lowest set lane is always exact, which is all ``firstSpecial`` uses.
package enum StringBytes {
  private static let ones: UInt64 = 0x0101_0101_0101_0101
  private static let high: UInt64 = 0x8080_8080_8080_8080

  /// Lanes holding a quote or a backslash.
  @inline(__always)
  static package func quotesOrBackslashes(_ word: UInt64) -> UInt64 {
    let quote = word ^ (ones &* 0x22)
    let backslash = word ^ (ones &* 0x5C)
    return ((quote &- ones) & ~quote | (backslash &- ones) & ~backslash) & high
  }

  /// Lanes holding a quote, a backslash, a control character (below 0x20) or a byte that is
  /// not ASCII: everything a strict scan must look at.
  @inline(__always)
  static package func specials(_ word: UInt64) -> UInt64 {
    let control = (word &- ones &* 0x20) & ~word
    return quotesOrBackslashes(word) | (control | word) & high
  }

  /// The index of the first byte at or after `i` (and before `count`) whose lane `mask` flags,
  /// or `count` when there is none; bytes are looked at eight at a time, the last few one by
  /// one through `isSpecial`.
  @inline(__always)
  static package func firstSpecial(
    _ base: UnsafePointer<UInt8>, from i: Int, count: Int,
    mask: (UInt64) -> UInt64, isSpecial: (UInt8) -> Bool
  ) -> Int {
    var i = i
    let raw = UnsafeRawPointer(base)
    while count - i >= 8 {
      // Little-endian: the byte at `i` is the lowest lane.
      let lanes = mask(UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)))
      if lanes != 0 { return i + lanes.trailingZeroBitCount >> 3 }
      i += 8
    }
    while i < count, !isSpecial(base[i]) { i += 1 }
    return i
  }

  @inline(__always)
  static package func isQuoteOrBackslash(_ byte: UInt8) -> Bool {
    byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
  }

  @inline(__always)
  static package func isSpecial(_ byte: UInt8) -> Bool {
    byte < 0x20 || byte >= 0x80 || isQuoteOrBackslash(byte)
  }
}
