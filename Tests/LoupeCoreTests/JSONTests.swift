import Testing
@testable import LoupeCore

@Suite struct JSONWriterTests {
  @Test func scalarsAndNesting() {
    let value: JSON = ["a": 1, "b": [true, false, nil], "c": ["d": "e"], "f": 1.5, "g": -3]
    #expect(value.jsonText == #"{"a":1,"b":[true,false,null],"c":{"d":"e"},"f":1.5,"g":-3}"#)
  }

  @Test func doubles() {
    #expect(JSON.double(12).jsonText == "12.0")
    #expect(JSON.double(-0.0).jsonText == "-0.0")
    #expect(JSON.double(0.1).jsonText == "0.1")
    #expect(JSON.double(1e20).jsonText == "1e+20")
    #expect(JSON.double(.nan).jsonText == "null")
    #expect(JSON.double(-.infinity).jsonText == "null")
    #expect(JSON.int(Int.min).jsonText == "-9223372036854775808")
    #expect(JSON.int(1234567890).jsonText == "1234567890")
  }

  /// Short decimals (event times: nanoseconds counted in milliseconds) take a path of their
  /// own that must print exactly what `description` prints, edges included.
  @Test func shortDecimalsPrintAsDescriptionDoes() {
    #expect(JSON.double(12.345678).jsonText == "12.345678")
    #expect(JSON.double(0.0001).jsonText == "0.0001")
    #expect(JSON.double(0.00005).jsonText == "5e-05")
    #expect(JSON.double(-3.5).jsonText == "-3.5")
    #expect(JSON.double(0.1 + 0.2).jsonText == "0.30000000000000004")
    #expect(JSON.double(999_999_999.999999).jsonText == "999999999.999999")
    #expect(JSON.double(3_600_000.000001).jsonText == "3600000.000001")
    var samples: [Double] = [0.0001, 0.000123, 0.001, 0.5, 1e9 - 1e-6, 1e9, 123_456.7, 1e-4 - 1e-12]
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<20_000 {
      let nanoseconds = Int.random(in: 0..<4_000_000_000_000, using: &generator)
      samples.append(Double(nanoseconds) / 1e6)
      samples.append(Double(nanoseconds >> Int.random(in: 0..<40, using: &generator)) / 1e6)
      samples.append(-Double(nanoseconds % 1_000_000) / 1e3)
      samples.append(Double.random(in: 0..<2_000_000, using: &generator))
      // The old clock's form: seconds in milliseconds plus a fraction (rarely short).
      samples.append(Double(nanoseconds / 1_000_000_000) * 1000 + Double(nanoseconds % 1_000_000_000 * 1_000_000_000) / 1e15)
    }
    let wrong = samples.filter { JSON.double($0).jsonText != expectedText($0) }
    #expect(wrong.isEmpty, "\(wrong.prefix(5).map { "\($0.description) → \(JSON.double($0).jsonText)" })")
  }

  /// What `double` printed before its short-decimal path: integral values as integers with
  /// `.0`, the rest by `description`.
  private func expectedText(_ value: Double) -> String {
    if value == value.rounded(), abs(value) < 1e15 { return (value == 0 && value.sign == .minus ? "-" : "") + "\(Int(value)).0" }
    return value.description
  }

  @Test func stringEscapes() {
    #expect(JSON.string("a\"b\\c\n\r\t\u{8}\u{c}\u{1}\u{1f}é😀").jsonText == #""a\"b\\c\n\r\t\b\f\u0001\u001fé😀""#)
    #expect(JSON.string("").jsonText == #""""#)
    #expect(JSON.string("/").jsonText == #""/""#)
  }

  @Test func wordScanFindsEverySpecialByteAtEveryPosition() {
    for byte in UInt8.min...UInt8.max {
      let special = byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
      for position in 0..<8 {
        var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: 8)
        bytes[position] = byte
        let word = bytes.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
        #expect(JSONWriter.mayNeedEscaping(word) == special, "byte \(byte) at \(position)")
      }
    }
    // Non-ASCII bytes next to a special one do not hide it.
    let mixed: [UInt8] = [0xC3, 0xA9, 0xFF, 0x80, 0x1F, 0xF0, 0x9F, 0x98]
    #expect(JSONWriter.mayNeedEscaping(mixed.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }))
  }

  @Test func longStringsEscapeWhereverTheSpecialByteIs() throws {
    for (base, length) in [("a", 7), ("a", 8), ("a", 9), ("a", 16), ("a", 17), ("é", 9), ("é", 40)] {
      for position in 0..<length {
        for special in ["\"", "\\", "\n", "\u{1}"] {
          var characters = Array(repeating: base, count: length)
          characters[position] = special
          let text = characters.joined()
          let encoded = JSON.string(text).jsonText
          #expect(try JSONParser.parse(encoded) == .string(text), "\(length) \(position) \(encoded)")
        }
      }
    }
  }

  /// The writer keeps its bytes in a buffer of its own, shared by copies until one writes.
  @Test func growsFromTheSmallestBufferAndCopiesStayApart() throws {
    var w = JSONWriter(capacity: 1)
    w.beginObject()
    for index in 0..<40 {
      w.key("k")
      w.string("value \(index) \"quoted\"")
    }
    var copy = w
    w.endObject()
    #expect(w.count == w.bytes.count)
    #expect(copy.count == w.count - 1)
    copy.key(String(repeating: "x", count: 300))  // the copy writes: it grows a buffer of its own
    copy.int(-1_234)
    copy.endObject()
    let text = w.string
    #expect(text.hasPrefix(#"{"k":"value 0 \"quoted\"","k":"value 1"#))
    #expect(text.hasSuffix(#""k":"value 39 \"quoted\""}"#))
    #expect(try JSONParser.parse(copy.string)[String(repeating: "x", count: 300)] == -1_234)
    #expect(w.string == text)  // unaffected by the copy's writes
    w.reset()
    w.int(7)
    w.rawByte(0x0A)
    #expect(w.withBytes { Array($0) } == Array("7\n".utf8))
    w.bytes = Array("[1".utf8)
    w.endArray()
    #expect(w.string == "[1]")
  }

  @Test func integersOfEveryLength() {
    var value = 1
    for _ in 0..<18 {
      for candidate in [value - 1, value, value + 1, -value, -value - 1] {
        #expect(JSON.int(candidate).jsonText == "\(candidate)")
      }
      value *= 10
    }
    #expect(JSON.int(Int.max).jsonText == "\(Int.max)")
    #expect(JSON.double(-0.0).jsonText == "-0.0")
    #expect(JSON.double(-12.0).jsonText == "-12.0")
  }
}

@Suite struct JSONParserTests {
  @Test func roundTrips() throws {
    let texts = [
      #"{"a":1,"b":[true,false,null],"c":{"d":"e"},"f":1.5,"g":-3}"#,
      #"[]"#, #"{}"#, #""x""#, "0", "-1", "1.25", "9223372036854775807",
      #"{"nested":[[[{"k":[]}]]]}"#,
    ]
    for text in texts {
      #expect(try JSONParser.parse(text).jsonText == text)
    }
  }

  @Test func numbers() throws {
    #expect(try JSONParser.parse("1e2") == .double(100))
    #expect(try JSONParser.parse("-0") == .int(0))
    #expect(try JSONParser.parse("12345678901234567890") == .double(1.2345678901234567e19))
    #expect(try JSONParser.parse("1.0") == .double(1))
  }

  @Test func escapesAndUnicode() throws {
    #expect(try JSONParser.parse(#""\u00e9\ud83d\ude00\n\/""#) == .string("é😀\n/"))
    #expect(try JSONParser.parse(" \n\t{ \"a\" : [ 1 , 2 ] } \r\n") == ["a": [1, 2]])
  }

  @Test(arguments: [
    ("", "Unexpected end of input at byte 0"),
    ("{", "Unterminated object at byte 1"),
    ("{1:2}", "Expected a string key at byte 1"),
    ("[1,]", "Unexpected character ']' at byte 3"),
    ("01", "Leading zeros are not allowed at byte 0"),
    ("1.", "Invalid number at byte 0"),
    ("tru", "Invalid literal at byte 0"),
    (#""abc"#, "Unterminated string at byte 0"),
    (#""\ud800""#, "Unpaired surrogate in string at byte 7"),
    (#""\x""#, #"Invalid escape '\x' at byte 1"#),
    ("{} x", "Unexpected data after the JSON value at byte 3"),
    ("\"a\u{1}\"", "Unescaped control character in string at byte 2"),
    ("1e999", "Number out of range at byte 0"),
  ])
  func errors(input: String, message: String) {
    #expect(throws: JSONParser.Error.self) { try JSONParser.parse(input) }
    do {
      _ = try JSONParser.parse(input)
    } catch {
      #expect(error.description == message)
    }
  }

  @Test func invalidUTF8() {
    #expect(throws: JSONParser.Error.self) { try JSONParser.parse([0x22, 0xFF, 0x22]) }
    #expect(throws: JSONParser.Error.self) { try JSONParser.parse([0x22, 0x61, 0xC3, 0x22]) }  // cut short after ASCII
  }

  @Test func unescapedStringsASCIIAndNot() throws {
    #expect(try JSONParser.parse(#"["plain ascii", "é😀 unescaped", ""]"#) == .array([.string("plain ascii"), .string("é😀 unescaped"), .string("")]))
  }

  @Test func depthLimit() {
    let deep = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
    #expect(throws: JSONParser.Error.self) { try JSONParser.parse(deep) }
    let ok = String(repeating: "[", count: 500) + String(repeating: "]", count: 500)
    #expect((try? JSONParser.parse(ok)) != nil)
  }
}
