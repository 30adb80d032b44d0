import Testing
import TestSupport
@testable import LoupeCore
@testable import LoupeSession

/// The eight-bytes-at-a-time search the scanners use inside strings, against a byte-by-byte one,
/// with the special bytes at every position of a word (the borrow between lanes is where such
/// tricks go wrong).
@Suite struct StringBytesTests {
  static let interesting: [UInt8] = [0x22, 0x5C, 0x00, 0x01, 0x1F, 0x20, 0x21, 0x23, 0x5B, 0x5D, 0x7F, 0x80, 0xC3, 0xFF]

  func randomBuffer(_ random: inout SplitMix64) -> [UInt8] {
    let count = Int.random(in: 0..<40, using: &random)
    return (0..<count).map { _ in
      Int.random(in: 0..<4, using: &random) == 0
        ? Self.interesting.randomElement(using: &random)! : UInt8.random(in: 0x61...0x7A, using: &random)
    }
  }

  @Test func findsTheFirstSpecialByteLikeABytewiseSearch() {
    var random = SplitMix64(seed: 7)
    for _ in 0..<20_000 {
      let buffer = randomBuffer(&random)
      buffer.withUnsafeBufferPointer { bytes in
        guard let base = bytes.baseAddress else { return }
        for start in 0...bytes.count {
          let strict = StringBytes.firstSpecial(
            base, from: start, count: bytes.count, mask: StringBytes.specials, isSpecial: StringBytes.isSpecial)
          let loose = StringBytes.firstSpecial(
            base, from: start, count: bytes.count, mask: StringBytes.quotesOrBackslashes,
            isSpecial: StringBytes.isQuoteOrBackslash)
          let strictExpected = bytes[start...].firstIndex { $0 < 0x20 || $0 >= 0x80 || $0 == 0x22 || $0 == 0x5C } ?? bytes.count
          let looseExpected = bytes[start...].firstIndex { $0 == 0x22 || $0 == 0x5C } ?? bytes.count
          #expect(strict == strictExpected, "\(buffer) from \(start)")
          #expect(loose == looseExpected, "\(buffer) from \(start)")
        }
      }
    }
  }

  /// Strings of random bytes (escapes, control characters, multi-byte and broken UTF-8 at any
  /// offset): the scanner accepts exactly what the parser accepts.
  @Test func theScannerAgreesWithTheParserOnRandomStrings() {
    var random = SplitMix64(seed: 11)
    let pieces: [[UInt8]] = [
      Array(#"\""#.utf8), Array(#"\\"#.utf8), Array(#"\n"#.utf8), Array(#"\u00e9"#.utf8), Array(#"\x"#.utf8),
      Array(#"\u12"#.utf8), Array("é".utf8), Array("🙂".utf8), [0xE2, 0x82], [0xED, 0xA0, 0x80], [0xFF], [0x00],
      [0x1F], Array("\"".utf8), Array("abcdefgh".utf8), Array("x".utf8),
    ]
    for _ in 0..<5_000 {
      var contents: [UInt8] = []
      for _ in 0..<Int.random(in: 0..<8, using: &random) { contents += pieces.randomElement(using: &random)! }
      let padding = [UInt8](repeating: 0x61, count: Int.random(in: 0..<9, using: &random))
      let line = Array(#"{"seq":1,"a":""#.utf8) + padding + contents + Array(#"","kind":"k"}"#.utf8)
      let parsed = (try? JSONParser.parse(line))?.objectValue != nil
      let scanned = line.withUnsafeBufferPointer { EventLineScanner.scan($0) } != nil
      #expect(parsed == scanned, "\(String(decoding: line, as: UTF8.self))")
    }
  }
}
