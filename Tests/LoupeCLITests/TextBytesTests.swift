import Testing
import TestSupport
@testable import LoupeCLI
@testable import LoupeSession
import LoupeSession

/// The timeline's byte buffer: integers as `String(value)` writes them, pieces of every
/// length copied whole, styles as ``Style`` writes them.
@Suite struct TextBytesTests {
  static func text(_ build: (inout TextBytes) -> Void) -> String {
    var bytes = TextBytes(capacity: 8)
    build(&bytes)
    return String(decoding: bytes.bytes, as: UTF8.self)
  }

  @Test func integersReadAsStringWritesThem() {
    var values = [0, 1, -1, 9, 10, -10, 99, 100, -100, 999, 1000, 9999, 10000, 99_999, 100_000, 123_456_789, Int.max, Int.min, Int.max - 1, Int.min + 1]
    for exponent in 0..<19 {
      let power = (0..<exponent).reduce(1) { result, _ in result * 10 }
      values += [power - 1, power, power + 1, -power, -(power - 1)]
    }
    var random = SplitMix64(seed: 5)
    values += (0..<5_000).map { _ in Int.random(in: Int.min...Int.max, using: &random) >> Int.random(in: 0..<63, using: &random) }
    for value in values {
      #expect(Self.text { $0.append(int: value) } == String(value))
      #expect(TextBytes.decimalLength(value) == String(value).utf8.count, "\(value)")
    }
  }

  @Test func piecesOfEveryLengthAreCopiedWhole() {
    // Across the word-copy sizes (under 8, 8–16, 17–32, more) and buffer growth.
    let source = (0..<200).map { UInt8(ascii: "a") + UInt8($0 % 26) }
    var expected: [UInt8] = []
    var bytes = TextBytes(capacity: 8)
    for length in 0...100 {
      source.withUnsafeBufferPointer { bytes.append(UnsafeBufferPointer(rebasing: $0[length..<(length * 2)])) }
      expected += source[length..<(length * 2)]
    }
    #expect(Array(bytes.bytes) == expected)
    bytes.truncate(to: 3)
    bytes.append("xyz")
    bytes.append(spaces: 2)
    bytes.append(string: "é")
    #expect(String(decoding: bytes.bytes, as: UTF8.self) == "bcdxyz  é")
  }

  @Test(arguments: [false, true]) func stylesAreStyleBytes(colour: Bool) {
    let style = Style(enabled: colour)
    let codes: [Style.Code] = [.bold, .dim, .red, .green, .yellow, .blue, .magenta, .cyan, .boldRed]
    for code in codes {
      let written = Self.text {
        $0.open(code, style)
        $0.append("text")
        $0.close(style)
      }
      #expect(written == style.apply(code, "text"))
    }
  }
}
