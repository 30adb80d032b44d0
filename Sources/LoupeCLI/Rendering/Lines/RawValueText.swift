import LoupeCore

/// ``ValueText/compact(_:shape:maxLength:)`` for a value with no shape, written from its
/// bytes in the line: `nil`, `true`, `42`, `0.25`, `"text"`, `[1, 2]`, `{id: 3, "odd key": 2}`.
///
/// It writes only what it is sure reads the same as the decoded value's text, and says
/// `false` otherwise (writing nothing), and the caller falls back to decoding: a string or
/// key with escapes, a key that is not ASCII, a number whose text is not the one the value
/// prints back as (`1e3`, `1.50`, `-0`), a cut that would fall near text that is not ASCII.
enum RawValueText {
  /// Appends the text of `value`, cut to `limit` characters with `…` as ``ValueText`` cuts.
  static func append(_ value: JSONLine.Value, in line: JSONLine, limit: Int, to out: inout TextBytes) -> Bool {
    let start = out.count
    // Past the limit the rest is cut anyway: stop writing a byte after it.
    let stop = start &+ limit &+ 1
    guard write(value, line, stop: stop, to: &out) else {
      out.truncate(to: start)
      return false
    }
    guard out.count &- start > limit else { return true }
    // Cut as `String.prefix(limit - 1) + "…"` does: byte for character while they are ASCII.
    let kept = limit &- 1
    guard kept >= 0, out.bytes[start..<(start &+ limit)].allSatisfy({ $0 < 0x80 }) else {
      out.truncate(to: start)
      return false
    }
    out.truncate(to: start &+ kept)
    out.append("…")
    return true
  }

  private static func write(_ value: JSONLine.Value, _ line: JSONLine, stop: Int, to out: inout TextBytes) -> Bool {
    if out.count > stop { return true }
    switch value.kind {
    case .null: out.append("nil")
    case .true: out.append("true")
    case .false: out.append("false")
    case .number:
      guard isCanonicalNumber(value, line) else { return false }
      out.append(line.bytes(value))
    case .string:
      // No escapes, so no control characters, quotes or backslashes: JSON's text of the
      // decoded string is these bytes between quotes.
      out.append(byte: JSONLine.Byte.quote)
      out.append(line.bytes(value))
      out.append(byte: JSONLine.Byte.quote)
    case .escapedString, .absent:
      return false
    case .array:
      out.append("[")
      var elements = line.elements(of: value)
      var first = true
      while let element = elements.next() {
        if !first { out.append(", ") }
        first = false
        guard write(element, line, stop: stop, to: &out) else { return false }
        if out.count > stop { return true }
      }
      guard !elements.failed else { return false }
      out.append("]")
    case .object:
      out.append("{")
      var members = line.members(of: value)
      var first = true
      while let member = members.next() {
        if !first { out.append(", ") }
        first = false
        guard !member.keyEscaped, appendMemberName(line.bytes(member.key), to: &out) else { return false }
        out.append(": ")
        guard write(member.value, line, stop: stop, to: &out) else { return false }
        if out.count > stop { return true }
      }
      guard !members.failed else { return false }
      out.append("}")
    }
    return true
  }

  /// ``ValueText/memberName(_:)`` for an ASCII key: bare when it reads as an identifier,
  /// else quoted. `false` for a key that is not ASCII (identifier rules differ there).
  private static func appendMemberName(_ key: UnsafeBufferPointer<UInt8>, to out: inout TextBytes) -> Bool {
    var identifier = !key.isEmpty
    for (offset, byte) in key.enumerated() {
      if byte >= 0x80 { return false }
      let letter = (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
        || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "$")
      let digit = byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
      if !(letter || (offset > 0 && digit)) { identifier = false }
    }
    if identifier {
      out.append(key)
    } else {
      out.append(byte: JSONLine.Byte.quote)
      out.append(key)
      out.append(byte: JSONLine.Byte.quote)
    }
    return true
  }

  /// Whether the number's text is exactly what its decoded value prints as (``JSON/jsonText``):
  /// a plain integer other than `-0`; or `int.fraction` with no exponent, which `JSONWriter`
  /// writes back digit for digit when the fraction is `0` (integral, under 10^15) or has 1–6
  /// digits not ending in `0`, the integer part under 10^9 and the value at least 10^-4.
  static func isCanonicalNumber(_ value: JSONLine.Value, _ line: JSONLine) -> Bool {
    if line.plainInt(value) != nil { return line.isCanonicalInt(value) }
    var i = Int(value.start)
    let end = Int(value.end)
    if line[i] == JSONLine.Byte.minus { i &+= 1 }
    let integerStart = i
    while i < end, line[i] &- JSONLine.Byte.zero < 10 { i &+= 1 }
    let integerDigits = i &- integerStart
    guard integerDigits > 0, i < end, line[i] == JSONLine.Byte.dot else { return false }
    i &+= 1
    let fractionStart = i
    while i < end, line[i] &- JSONLine.Byte.zero < 10 { i &+= 1 }
    let fractionDigits = i &- fractionStart
    guard i == end, fractionDigits > 0 else { return false }
    if fractionDigits == 1, line[fractionStart] == JSONLine.Byte.zero { return integerDigits <= 15 }
    guard fractionDigits <= 6, integerDigits <= 9, line[end &- 1] != JSONLine.Byte.zero else { return false }
    if integerDigits == 1, line[integerStart] == JSONLine.Byte.zero {
      // 0.000x: at least 10^-4 when a digit of the first four is not zero.
      var index = fractionStart
      while index < fractionStart &+ 4, index < end {
        if line[index] != JSONLine.Byte.zero { return true }
        index &+= 1
      }
      return false
    }
    return true
  }
}
