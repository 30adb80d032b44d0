/// A strict JSON parser (RFC 8259) over UTF-8 bytes.
///
/// It rejects invalid UTF-8, control characters in strings, trailing garbage and nesting
/// deeper than ``maximumDepth``, each with the byte offset where the problem starts. It never
/// traps on any input, which the fuzz harness checks.
public struct JSONParser {
  /// How deep arrays and objects may nest before the input is refused.
  public static let maximumDepth = 512

  public struct Error: Swift.Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    /// Byte offset of the problem in the input.
    public var offset: Int
    public var description: String { "\(message) at byte \(offset)" }
  }

  /// Parses one JSON value that must span the whole input (surrounding whitespace allowed).
  public static func parse(_ bytes: some Collection<UInt8>) throws(Error) -> JSON {
    let result: Result<JSON, Error> =
      bytes.withContiguousStorageIfAvailable { parse(buffer: $0) }
      ?? Array(bytes).withUnsafeBufferPointer { parse(buffer: $0) }
    return try result.get()
  }

  public static func parse(_ text: String) throws(Error) -> JSON {
    var text = text
    return try text.withUTF8 { parse(buffer: $0) }.get()
  }

  static func parse(buffer: UnsafeBufferPointer<UInt8>) -> Result<JSON, Error> {
    var parser = Cursor(buffer)
    do {
      parser.skipWhitespace()
      let value = try parser.parseValue(depth: 0)
      parser.skipWhitespace()
      if parser.index < buffer.count {
        throw Error(message: "Unexpected data after the JSON value", offset: parser.index)
      }
      return .success(value)
    } catch let error as Error {
      return .failure(error)
    } catch {
      return .failure(Error(message: "\(error)", offset: parser.index))
    }
  }

  struct Cursor {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    func fail(_ message: String, at offset: Int? = nil) -> Error {
      Error(message: message, offset: offset ?? index)
    }

    mutating func skipWhitespace() {
      while index < bytes.count {
        switch bytes[index] {
        case 0x20, 0x09, 0x0A, 0x0D: index += 1
        default: return
        }
      }
    }

    mutating func parseValue(depth: Int) throws(Error) -> JSON {
      guard index < bytes.count else { throw fail("Unexpected end of input") }
      switch bytes[index] {
      case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
      case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
      case UInt8(ascii: "\""): return .string(try parseString())
      case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
      case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
      case UInt8(ascii: "n"): try expectLiteral("null"); return .null
      case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
      default: throw fail("Unexpected character '\(Self.printable(bytes[index]))'")
      }
    }

    static func printable(_ byte: UInt8) -> String {
      byte >= 0x20 && byte < 0x7F ? String(UnicodeScalar(byte)) : "\\u{\(String(byte, radix: 16))}"
    }

    mutating func expectLiteral(_ literal: StaticString) throws(Error) {
      let start = index
      let count = literal.utf8CodeUnitCount
      guard bytes.count - index >= count else { throw fail("Invalid literal", at: start) }
      let matches = literal.withUTF8Buffer { expected in
        for offset in 0..<count where bytes[index + offset] != expected[offset] { return false }
        return true
      }
      guard matches else { throw fail("Invalid literal", at: start) }
      index += count
    }

    mutating func parseObject(depth: Int) throws(Error) -> JSON {
      guard depth <= JSONParser.maximumDepth else { throw fail("Nesting too deep") }
      index += 1  // {
      var object = JSONObject()
      skipWhitespace()
      if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
        index += 1
        return .object(object)
      }
      while true {
        skipWhitespace()
        guard index < bytes.count else { throw fail("Unterminated object") }
        guard bytes[index] == UInt8(ascii: "\"") else { throw fail("Expected a string key") }
        let key = try parseString()
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
          throw fail("Expected ':' after object key")
        }
        index += 1
        skipWhitespace()
        let value = try parseValue(depth: depth)
        object.members.append(JSONObject.Member(key, value))
        skipWhitespace()
        guard index < bytes.count else { throw fail("Unterminated object") }
        if bytes[index] == UInt8(ascii: ",") {
          index += 1
          continue
        }
        if bytes[index] == UInt8(ascii: "}") {
          index += 1
          return .object(object)
        }
        throw fail("Expected ',' or '}' in object")
      }
    }

    mutating func parseArray(depth: Int) throws(Error) -> JSON {
      guard depth <= JSONParser.maximumDepth else { throw fail("Nesting too deep") }
      index += 1  // [
      var elements: [JSON] = []
      skipWhitespace()
      if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
        index += 1
        return .array(elements)
      }
      while true {
        skipWhitespace()
        elements.append(try parseValue(depth: depth))
        skipWhitespace()
        guard index < bytes.count else { throw fail("Unterminated array") }
        if bytes[index] == UInt8(ascii: ",") {
          index += 1
          continue
        }
        if bytes[index] == UInt8(ascii: "]") {
          index += 1
          return .array(elements)
        }
        throw fail("Expected ',' or ']' in array")
      }
    }

    mutating func parseNumber() throws(Error) -> JSON {
      let start = index
      var isInteger = true
      if bytes[index] == UInt8(ascii: "-") { index += 1 }
      guard index < bytes.count, isDigit(bytes[index]) else { throw fail("Invalid number", at: start) }
      if bytes[index] == UInt8(ascii: "0") {
        index += 1
        if index < bytes.count, isDigit(bytes[index]) {
          throw fail("Leading zeros are not allowed", at: start)
        }
      } else {
        while index < bytes.count, isDigit(bytes[index]) { index += 1 }
      }
      if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
        isInteger = false
        index += 1
        guard index < bytes.count, isDigit(bytes[index]) else { throw fail("Invalid number", at: start) }
        while index < bytes.count, isDigit(bytes[index]) { index += 1 }
      }
      if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
        isInteger = false
        index += 1
        if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
          index += 1
        }
        guard index < bytes.count, isDigit(bytes[index]) else { throw fail("Invalid number", at: start) }
        while index < bytes.count, isDigit(bytes[index]) { index += 1 }
      }
      let slice = UnsafeBufferPointer(rebasing: bytes[start..<index])
      if isInteger, slice.count <= 18 {
        var value = 0
        var negative = false
        for byte in slice {
          if byte == UInt8(ascii: "-") { negative = true } else { value = value * 10 + Int(byte - 48) }
        }
        return .int(negative ? -value : value)
      }
      let text = String(decoding: slice, as: UTF8.self)
      if isInteger, let value = Int(text) { return .int(value) }
      guard let value = Double(text), value.isFinite else { throw fail("Number out of range", at: start) }
      return .double(value)
    }

    func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    mutating func parseString() throws(Error) -> String {
      let start = index
      index += 1  // opening quote
      let contentStart = index
      // Fast path: no escapes.
      var isASCII = true
      while index < bytes.count {
        let byte = bytes[index]
        if byte == UInt8(ascii: "\"") {
          let slice = UnsafeBufferPointer(rebasing: bytes[contentStart..<index])
          index += 1
          // ASCII is valid UTF-8 as it is; `String(decoding:)` is several times faster than the
          // generic `String(validating:)`, which is left for the rest.
          if isASCII { return String(decoding: slice, as: UTF8.self) }
          guard let string = String(validating: slice, as: UTF8.self) else {
            throw fail("Invalid UTF-8 in string", at: start)
          }
          return string
        }
        if byte == UInt8(ascii: "\\") { break }
        if byte < 0x20 { throw fail("Unescaped control character in string") }
        if byte >= 0x80 { isASCII = false }
        index += 1
      }
      guard index < bytes.count else { throw fail("Unterminated string", at: start) }
      // Slow path: escapes.
      var scratch = Array(UnsafeBufferPointer(rebasing: bytes[contentStart..<index]))
      while index < bytes.count {
        let byte = bytes[index]
        switch byte {
        case UInt8(ascii: "\""):
          index += 1
          guard let string = String(validating: scratch, as: UTF8.self) else {
            throw fail("Invalid UTF-8 in string", at: start)
          }
          return string
        case UInt8(ascii: "\\"):
          index += 1
          guard index < bytes.count else { throw fail("Unterminated string", at: start) }
          let escaped = bytes[index]
          index += 1
          switch escaped {
          case UInt8(ascii: "\""): scratch.append(0x22)
          case UInt8(ascii: "\\"): scratch.append(0x5C)
          case UInt8(ascii: "/"): scratch.append(0x2F)
          case UInt8(ascii: "b"): scratch.append(0x08)
          case UInt8(ascii: "f"): scratch.append(0x0C)
          case UInt8(ascii: "n"): scratch.append(0x0A)
          case UInt8(ascii: "r"): scratch.append(0x0D)
          case UInt8(ascii: "t"): scratch.append(0x09)
          case UInt8(ascii: "u"):
            var scalar = try parseHex4()
            if (0xD800...0xDBFF).contains(scalar) {
              // A high surrogate must be followed by an escaped low surrogate.
              guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
                bytes[index + 1] == UInt8(ascii: "u")
              else { throw fail("Unpaired surrogate in string") }
              index += 2
              let low = try parseHex4()
              guard (0xDC00...0xDFFF).contains(low) else { throw fail("Unpaired surrogate in string") }
              scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(scalar) {
              throw fail("Unpaired surrogate in string")
            }
            guard let unicode = Unicode.Scalar(scalar) else { throw fail("Invalid \\u escape") }
            scratch.append(contentsOf: String(Character(unicode)).utf8)
          default:
            throw fail("Invalid escape '\\\(Self.printable(escaped))'", at: index - 2)
          }
        default:
          if byte < 0x20 { throw fail("Unescaped control character in string") }
          scratch.append(byte)
          index += 1
        }
      }
      throw fail("Unterminated string", at: start)
    }

    mutating func parseHex4() throws(Error) -> UInt32 {
      guard bytes.count - index >= 4 else { throw fail("Invalid \\u escape") }
      var value: UInt32 = 0
      for _ in 0..<4 {
        let byte = bytes[index]
        let digit: UInt32
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - 48)
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - 87)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - 55)
        default: throw fail("Invalid \\u escape")
        }
        value = value << 4 | digit
        index += 1
      }
      return value
    }
  }
}
