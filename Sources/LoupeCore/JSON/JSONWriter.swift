/// A fast, allocation-light JSON writer into a byte buffer.
///
/// The writer keeps one flag for separators, so nested objects and arrays need no stack:
/// every value and key first writes a comma if one is due.
///
/// ```swift
/// var w = JSONWriter()
/// w.beginObject()
/// w.key("seq"); w.int(3)
/// w.key("kind"); w.string("mark")
/// w.endObject()
/// w.string   // {"seq":3,"kind":"mark"}
/// ```
public struct JSONWriter: Sendable {
  public var bytes: [UInt8]
  @usableFromInline var needsComma = false

  public init(capacity: Int = 256) {
    bytes = []
    bytes.reserveCapacity(capacity)
  }

  /// The text written so far.
  public var string: String { String(decoding: bytes, as: UTF8.self) }

  /// Forgets what was written, keeping the buffer's capacity.
  public mutating func reset() {
    bytes.removeAll(keepingCapacity: true)
    needsComma = false
  }

  @inlinable mutating func separate() {
    if needsComma { bytes.append(UInt8(ascii: ",")) }
  }

  public mutating func beginObject() {
    separate()
    bytes.append(UInt8(ascii: "{"))
    needsComma = false
  }

  public mutating func endObject() {
    bytes.append(UInt8(ascii: "}"))
    needsComma = true
  }

  public mutating func beginArray() {
    separate()
    bytes.append(UInt8(ascii: "["))
    needsComma = false
  }

  public mutating func endArray() {
    bytes.append(UInt8(ascii: "]"))
    needsComma = true
  }

  /// Writes an object key that needs no escaping (the event model's own field names).
  public mutating func key(_ key: StaticString) {
    separate()
    bytes.append(UInt8(ascii: "\""))
    key.withUTF8Buffer { bytes.append(contentsOf: $0) }
    bytes.append(UInt8(ascii: "\""))
    bytes.append(UInt8(ascii: ":"))
    needsComma = false
  }

  /// Writes an arbitrary object key, escaped. (Disfavored, so that a literal key picks the
  /// `StaticString` overload, which skips the escaping scan.)
  @_disfavoredOverload
  public mutating func key(_ key: String) {
    separate()
    writeEscaped(key)
    bytes.append(UInt8(ascii: ":"))
    needsComma = false
  }

  public mutating func null() {
    separate()
    bytes.append(contentsOf: [0x6E, 0x75, 0x6C, 0x6C])  // null
    needsComma = true
  }

  public mutating func bool(_ value: Bool) {
    separate()
    if value {
      bytes.append(contentsOf: [0x74, 0x72, 0x75, 0x65])  // true
    } else {
      bytes.append(contentsOf: [0x66, 0x61, 0x6C, 0x73, 0x65])  // false
    }
    needsComma = true
  }

  public mutating func int(_ value: Int) {
    separate()
    writeInt(value)
    needsComma = true
  }

  /// Writes a double in its shortest round-trip form; non-finite values become `null`.
  public mutating func double(_ value: Double) {
    separate()
    if !value.isFinite {
      bytes.append(contentsOf: [0x6E, 0x75, 0x6C, 0x6C])
    } else if value == value.rounded(), abs(value) < 1e15 {
      // Integral values print without Swift's exponent forms, keeping one decimal so a
      // reader sees a floating-point number: 12.0
      writeInt(Int(value))
      if value == 0, value.sign == .minus { bytes.insert(UInt8(ascii: "-"), at: bytes.count - 1) }
      bytes.append(UInt8(ascii: "."))
      bytes.append(UInt8(ascii: "0"))
    } else {
      bytes.append(contentsOf: value.description.utf8)
    }
    needsComma = true
  }

  public mutating func string(_ value: String) {
    separate()
    writeEscaped(value)
    needsComma = true
  }

  /// Writes already-encoded JSON text as the next value. The caller vouches for its validity.
  public mutating func raw(_ json: some Collection<UInt8>) {
    separate()
    bytes.append(contentsOf: json)
    needsComma = true
  }

  public mutating func value(_ value: JSON) {
    switch value {
    case .null: null()
    case .bool(let b): bool(b)
    case .int(let i): int(i)
    case .double(let d): double(d)
    case .string(let s): string(s)
    case .array(let elements):
      beginArray()
      for element in elements { self.value(element) }
      endArray()
    case .object(let object):
      beginObject()
      for member in object.members {
        key(member.key)
        self.value(member.value)
      }
      endObject()
    }
  }

  /// Writes `value` as the value of `key`, or nothing when `value` is `nil`.
  public mutating func optional(_ key: StaticString, _ value: String?) {
    guard let value else { return }
    self.key(key)
    string(value)
  }

  // MARK: - Internals

  @usableFromInline mutating func writeInt(_ value: Int) {
    if value >= 0 && value < 10 {
      bytes.append(UInt8(ascii: "0") &+ UInt8(value))
      return
    }
    if value == Int.min {
      bytes.append(contentsOf: "\(value)".utf8)
      return
    }
    var magnitude = value < 0 ? -value : value
    if value < 0 { bytes.append(UInt8(ascii: "-")) }
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
      var count = 0
      while magnitude > 0 {
        digits[count] = UInt8(ascii: "0") &+ UInt8(magnitude % 10)
        magnitude /= 10
        count += 1
      }
      while count > 0 {
        count -= 1
        bytes.append(digits[count])
      }
    }
  }

  private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

  /// Whether one of the 8 bytes in `word` is a control character, `"` or `\` (the bytes a
  /// JSON string escapes): the classic "has a zero byte" bit trick, on the word and on its
  /// XOR with each special byte.
  @inline(__always) static func mayNeedEscaping(_ word: UInt64) -> Bool {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highs: UInt64 = 0x8080_8080_8080_8080
    let control = (word &- ones &* 0x20) & ~word & highs
    let quote = word ^ (ones &* 0x22)
    let backslash = word ^ (ones &* 0x5C)
    let specials = ((quote &- ones) & ~quote | (backslash &- ones) & ~backslash) & highs
    return control | specials != 0
  }

  mutating func writeEscaped(_ string: String) {
    bytes.append(UInt8(ascii: "\""))
    var string = string
    string.withUTF8 { utf8 in
      var runStart = 0
      var index = 0
      let count = utf8.count
      // Most strings need no escaping: skip clean 8-byte words in one step each.
      if let base = utf8.baseAddress {
        while index + 8 <= count, !Self.mayNeedEscaping(UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)) {
          index += 8
        }
      }
      while index < count {
        let byte = utf8[index]
        if byte >= 0x20 && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\") {
          index += 1
          continue
        }
        if runStart < index {
          bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
        }
        bytes.append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""): bytes.append(UInt8(ascii: "\""))
        case UInt8(ascii: "\\"): bytes.append(UInt8(ascii: "\\"))
        case 0x0A: bytes.append(UInt8(ascii: "n"))
        case 0x0D: bytes.append(UInt8(ascii: "r"))
        case 0x09: bytes.append(UInt8(ascii: "t"))
        case 0x08: bytes.append(UInt8(ascii: "b"))
        case 0x0C: bytes.append(UInt8(ascii: "f"))
        default:
          bytes.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")])
          bytes.append(Self.hexDigits[Int(byte >> 4)])
          bytes.append(Self.hexDigits[Int(byte & 0xF)])
        }
        index += 1
        runStart = index
      }
      if runStart < count {
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<count]))
      }
    }
    bytes.append(UInt8(ascii: "\""))
  }
}
