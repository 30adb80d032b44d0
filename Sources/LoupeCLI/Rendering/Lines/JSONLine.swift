import LoupeCore

/// A trace line already checked to be one valid JSON object (by the reader's scanner), read
/// in place: values are found by where their bytes are, nothing is built.
///
/// ``TimelineLineRenderer`` reads events through it. Every method still checks its bounds and
/// answers `nil` on anything unexpected, so a line that was not checked cannot make it read
/// out of bounds; the caller then falls back to decoding the line.
struct JSONLine {
  let base: UnsafePointer<UInt8>
  let count: Int

  init?(_ line: UnsafeBufferPointer<UInt8>) {
    guard let base = line.baseAddress else { return nil }
    self.base = base
    count = line.count
  }

  /// One value of the line.
  struct Value {
    enum Kind: UInt8 {
      case absent, string, escapedString, number, object, array, `true`, `false`, null
    }
    var kind: Kind
    /// For a string, the bytes between its quotes; for anything else, the whole token or
    /// container.
    var start: Int32
    var end: Int32

    static let absent = Value(kind: .absent, start: 0, end: 0)

    var isAbsent: Bool { kind == .absent }
    /// Absent, or `null`: what decoding reads as no value for an optional member.
    var isNone: Bool { kind == .absent || kind == .null }
    var range: Range<Int> { Int(start)..<Int(end) }
    var length: Int { Int(end - start) }
  }

  enum Byte {
    static let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\"), colon = UInt8(ascii: ":")
    static let comma = UInt8(ascii: ","), openBrace = UInt8(ascii: "{"), closeBrace = UInt8(ascii: "}")
    static let openBracket = UInt8(ascii: "["), closeBracket = UInt8(ascii: "]")
    static let minus = UInt8(ascii: "-"), dot = UInt8(ascii: "."), zero = UInt8(ascii: "0")
  }

  subscript(_ index: Int) -> UInt8 { base[index] }

  func bytes(_ value: Value) -> UnsafeBufferPointer<UInt8> {
    UnsafeBufferPointer(start: base + Int(value.start), count: value.length)
  }

  func bytes(_ range: Range<Int>) -> UnsafeBufferPointer<UInt8> {
    UnsafeBufferPointer(start: base + range.lowerBound, count: range.count)
  }

  @inline(__always)
  func skipSpace(_ index: Int) -> Int {
    var i = index
    while i < count {
      let byte = base[i]
      guard byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D else { break }
      i &+= 1
    }
    return i
  }

  /// The end of the string whose opening quote is at `index` (the index after its closing
  /// quote), and whether it holds escapes.
  @inline(__always)
  func stringEnd(from index: Int) -> (end: Int, escaped: Bool)? {
    var i = index &+ 1
    var escaped = false
    // Eight bytes at a time: the lowest flagged byte of a word is the first quote or backslash.
    while i &+ 8 <= count {
      let mask = Self.quoteOrBackslashMask(UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self))
      if mask == 0 {
        i &+= 8
        continue
      }
      i &+= mask.trailingZeroBitCount &>> 3
      if base[i] == Byte.quote { return (i &+ 1, escaped) }
      escaped = true
      i &+= 2
    }
    while i < count {
      let byte = base[i]
      if byte == Byte.quote { return (i &+ 1, escaped) }
      if byte == Byte.backslash {
        escaped = true
        i &+= 2
      } else {
        i &+= 1
      }
    }
    return nil
  }

  /// The value starting at `index` (whitespace first is skipped) and the index after it.
  func value(at index: Int) -> (Value, next: Int)? {
    let i = skipSpace(index)
    guard i < count else { return nil }
    switch base[i] {
    case Byte.quote:
      guard let (end, escaped) = stringEnd(from: i) else { return nil }
      return (Value(kind: escaped ? .escapedString : .string, start: Int32(i &+ 1), end: Int32(end &- 1)), end)
    case Byte.openBrace, Byte.openBracket:
      guard let end = containerEnd(from: i) else { return nil }
      return (Value(kind: base[i] == Byte.openBrace ? .object : .array, start: Int32(i), end: Int32(end)), end)
    case UInt8(ascii: "t"):
      return i &+ 4 <= count ? (Value(kind: .true, start: Int32(i), end: Int32(i &+ 4)), i &+ 4) : nil
    case UInt8(ascii: "f"):
      return i &+ 5 <= count ? (Value(kind: .false, start: Int32(i), end: Int32(i &+ 5)), i &+ 5) : nil
    case UInt8(ascii: "n"):
      return i &+ 4 <= count ? (Value(kind: .null, start: Int32(i), end: Int32(i &+ 4)), i &+ 4) : nil
    default:
      var end = i
      while end < count {
        // Digits, sign, point, exponent: `-./0123456789` are 0x2D–0x39.
        let byte = base[end]
        guard byte &- Byte.minus < 13 || byte == UInt8(ascii: "+") || byte | 0x20 == UInt8(ascii: "e") else { break }
        end &+= 1
      }
      return end > i ? (Value(kind: .number, start: Int32(i), end: Int32(end)), end) : nil
    }
  }

  /// The high bit of each of the 8 bytes of `word` that is `"` or `\\`, exact up to the
  /// lowest one (the "has a zero byte" trick on the word's XOR with each: bits above a flagged
  /// byte may be false).
  @inline(__always)
  static func quoteOrBackslashMask(_ word: UInt64) -> UInt64 {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highs: UInt64 = 0x8080_8080_8080_8080
    let quote = word ^ (ones &* 0x22)
    let backslash = word ^ (ones &* 0x5C)
    return ((quote &- ones) & ~quote | (backslash &- ones) & ~backslash) & highs
  }

  /// The index after the object or array opening at `index`.
  private func containerEnd(from index: Int) -> Int? {
    var depth = 0
    var i = index
    while i < count {
      let byte = base[i]
      switch byte {
      case Byte.quote:
        guard let (end, _) = stringEnd(from: i) else { return nil }
        i = end
        continue
      case Byte.openBrace, Byte.openBracket:
        depth &+= 1
      case Byte.closeBrace, Byte.closeBracket:
        depth &-= 1
        if depth == 0 { return i &+ 1 }
      default:
        break
      }
      i &+= 1
    }
    return nil
  }

  /// The members of an object value, in order.
  func members(of object: Value) -> Members {
    Members(line: self, index: Int(object.start) &+ 1, end: Int(object.end) &- 1)
  }

  /// The elements of an array value, in order.
  func elements(of array: Value) -> Elements {
    Elements(line: self, index: Int(array.start) &+ 1, end: Int(array.end) &- 1)
  }

  /// The whole line's members (the line is one object: its closing brace is its last byte
  /// but whitespace, so the line is not walked to find it).
  var topLevelMembers: Members? {
    let start = skipSpace(0)
    var end = count
    while end > start, base[end &- 1] == 0x20 || base[end &- 1] == 0x09 || base[end &- 1] == 0x0A || base[end &- 1] == 0x0D {
      end &-= 1
    }
    guard start < end &- 1, base[start] == Byte.openBrace, base[end &- 1] == Byte.closeBrace else { return nil }
    return Members(line: self, index: start &+ 1, end: end &- 1)
  }

  struct Members {
    let line: JSONLine
    var index: Int
    /// The index of the closing brace.
    let end: Int
    /// Set when something unexpected was met (never in a checked line).
    private(set) var failed = false

    init(line: JSONLine, index: Int, end: Int) {
      self.line = line
      self.index = index
      self.end = end
    }

    /// The next member: its key's bytes (inside the quotes), whether the key holds escapes,
    /// and its value; `nil` at the end (or on failure, see ``failed``).
    mutating func next() -> (key: Range<Int>, keyEscaped: Bool, value: Value)? {
      var i = line.skipSpace(index)
      guard i < end else { return nil }
      if line[i] == Byte.comma { i = line.skipSpace(i &+ 1) }
      guard i < end, line[i] == Byte.quote, let (keyEnd, keyEscaped) = line.stringEnd(from: i) else { return fail() }
      let colon = line.skipSpace(keyEnd)
      guard colon < end, line[colon] == Byte.colon, let (value, next) = line.value(at: colon &+ 1), next <= end else {
        return fail()
      }
      index = next
      return ((i &+ 1)..<(keyEnd &- 1), keyEscaped, value)
    }

    private mutating func fail() -> (key: Range<Int>, keyEscaped: Bool, value: Value)? {
      failed = true
      index = end
      return nil
    }
  }

  struct Elements {
    let line: JSONLine
    var index: Int
    let end: Int
    private(set) var failed = false

    init(line: JSONLine, index: Int, end: Int) {
      self.line = line
      self.index = index
      self.end = end
    }

    mutating func next() -> Value? {
      var i = line.skipSpace(index)
      guard i < end else { return nil }
      if line[i] == Byte.comma { i &+= 1 }
      guard let (value, next) = line.value(at: i), next <= end else {
        failed = true
        index = end
        return nil
      }
      index = next
      return value
    }
  }

  // MARK: - Reading values as decoding reads them

  /// The bytes of a string without escapes, else `nil` (not a string, or escaped: the
  /// caller falls back to decoding).
  func plainString(_ value: Value) -> UnsafeBufferPointer<UInt8>? {
    value.kind == .string ? bytes(value) : nil
  }

  /// Whether `bytes` equals `literal`.
  static func equal(_ bytes: UnsafeBufferPointer<UInt8>, _ literal: StaticString) -> Bool {
    guard bytes.count == literal.utf8CodeUnitCount, let base = bytes.baseAddress else {
      return bytes.count == literal.utf8CodeUnitCount
    }
    return LibC.memcmp(base, literal.utf8Start, bytes.count) == 0
  }

  static func equal(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
    guard a.count == b.count else { return false }
    guard let x = a.baseAddress, let y = b.baseAddress else { return true }
    return LibC.memcmp(x, y, a.count) == 0
  }

  static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    for byte in bytes where byte >= 0x80 { return false }
    return true
  }

  /// An integer written plainly (`-?digits`, at most 18 characters: what the parser reads
  /// as an `Int` without more thought), else `nil` (the caller falls back to decoding).
  func plainInt(_ value: Value) -> Int? {
    guard value.kind == .number, value.length <= 18 else { return nil }
    var i = Int(value.start)
    let end = Int(value.end)
    let negative = base[i] == Byte.minus
    if negative { i &+= 1 }
    guard i < end else { return nil }
    var result = 0
    while i < end {
      let digit = base[i] &- Byte.zero
      guard digit < 10 else { return nil }
      result = result &* 10 &+ Int(digit)
      i &+= 1
    }
    return negative ? -result : result
  }

  /// An optional integer member as decoding reads it: `.some(nil)` when absent or `null`,
  /// `.some(n)` for a plain integer, `nil` when the line must be decoded to know.
  func optionalPlainInt(_ value: Value) -> Int?? {
    if value.isNone { return .some(nil) }
    guard let int = plainInt(value) else { return nil }
    return .some(int)
  }

  /// Whether a plain integer (``plainInt(_:)``) prints back as its own bytes: not `-0`.
  func isCanonicalInt(_ value: Value) -> Bool {
    !(value.length == 2 && base[Int(value.start)] == Byte.minus && base[Int(value.start) &+ 1] == Byte.zero)
  }

  /// A number as the parser reads it: exactly, by a single rounding, for an integer or a
  /// decimal of at most 15 digits; by the standard library's correctly rounded conversion
  /// (which the parser itself uses) otherwise.
  func double(_ value: Value) -> Double? {
    guard value.kind == .number else { return nil }
    var i = Int(value.start)
    let end = Int(value.end)
    let negative = base[i] == Byte.minus
    if negative { i &+= 1 }
    var digits: UInt64 = 0
    var digitCount = 0
    var fractionDigits = 0
    var seenPoint = false
    var simple = true
    while i < end {
      let byte = base[i]
      if byte == Byte.dot, !seenPoint {
        seenPoint = true
      } else if byte &- Byte.zero < 10 {
        digits = digits &* 10 &+ UInt64(byte &- Byte.zero)
        if digits != 0 { digitCount &+= 1 }
        if seenPoint { fractionDigits &+= 1 }
      } else {
        simple = false
        break
      }
      i &+= 1
    }
    if simple, digitCount <= 15, fractionDigits <= 22 {
      // An integer is read as an `Int`, so `-0` is 0; a decimal as a `Double`, so `-0.0` is -0.0.
      if !seenPoint, digits == 0 { return 0 }
      // Both operands exact (under 2^53 and a power of ten up to 10^22): one rounding.
      let magnitude = Double(digits) / Self.powerOfTen(fractionDigits)
      return negative ? -magnitude : magnitude
    }
    if let int = plainInt(value) { return Double(int) }
    let text = String(decoding: bytes(value), as: UTF8.self)
    guard let parsed = Double(text), parsed.isFinite else { return nil }
    return parsed
  }

  /// 10^exponent for 0...22, all exact doubles (a literal table: no lazy global to check).
  private static func powerOfTen(_ exponent: Int) -> Double {
    switch exponent {
    case 0: 1e0
    case 1: 1e1
    case 2: 1e2
    case 3: 1e3
    case 4: 1e4
    case 5: 1e5
    case 6: 1e6
    case 7: 1e7
    case 8: 1e8
    case 9: 1e9
    case 10: 1e10
    case 11: 1e11
    case 12: 1e12
    case 13: 1e13
    case 14: 1e14
    case 15: 1e15
    case 16: 1e16
    case 17: 1e17
    case 18: 1e18
    case 19: 1e19
    case 20: 1e20
    case 21: 1e21
    default: 1e22
    }
  }
}
