/// Finds the end of a header block incrementally, validating each byte once as it arrives, so
/// garbage (a body sent without headers, binary noise) is refused at its first bad byte rather
/// than after the header limit fills up.
struct HeaderScanner: Sendable {
  enum Result: Sendable {
    case incomplete
    case complete(fields: [HeaderField], end: Int)
    case failed(FrameError)
  }

  private enum LineState: Sendable {
    case name
    case value
    case carriageReturn
  }

  /// Start of the header block in the decoder's buffer.
  private var blockStart: Int
  /// Next byte to look at.
  private var position: Int
  private var lineStart: Int
  private var colon: Int?
  private var state = LineState.name
  private var fields: [HeaderField] = []

  init(position: Int = 0) {
    blockStart = position
    self.position = position
    lineStart = position
  }

  /// The decoder dropped `count` consumed bytes from the front of its buffer.
  mutating func shift(by count: Int) {
    blockStart -= count
    position -= count
    lineStart -= count
    if let c = colon { colon = c - count }
  }

  mutating func scan(_ buffer: [UInt8], limit: Int) -> Result {
    while position < buffer.count {
      let byte = buffer[position]
      switch state {
      case .name:
        if byte == UInt8(ascii: ":") {
          guard position > lineStart else { return .failed(.malformedHeader("empty header name")) }
          colon = position
          state = .value
        } else if byte == UInt8(ascii: "\r") {
          guard position == lineStart else {
            return .failed(.malformedHeader("header line without ':'"))
          }
          state = .carriageReturn
        } else if !Self.isTokenByte(byte) {
          return .failed(.malformedHeader("byte 0x\(String(byte, radix: 16)) in a header name"))
        }
      case .value:
        if byte == UInt8(ascii: "\r") {
          state = .carriageReturn
        } else if byte == UInt8(ascii: "\n") {
          return .failed(.malformedHeader("bare LF in a header line"))
        } else if byte >= 0x80 || (byte < 0x20 && byte != UInt8(ascii: "\t")) || byte == 0x7F {
          return .failed(.malformedHeader("byte 0x\(String(byte, radix: 16)) in a header value"))
        }
      case .carriageReturn:
        guard byte == UInt8(ascii: "\n") else { return .failed(.malformedHeader("CR not followed by LF")) }
        if let colon {
          let name = String(decoding: buffer[lineStart..<colon], as: UTF8.self)
          let value = String(decoding: buffer[(colon + 1)..<(position - 1)], as: UTF8.self).trimmingASCIISpaces()
          fields.append(HeaderField(name: name, value: value))
          self.colon = nil
          lineStart = position + 1
          state = .name
        } else {
          // The empty line: the block is complete.
          position += 1
          return .complete(fields: fields, end: position)
        }
      }
      position += 1
      if position - blockStart > limit { return .failed(.headerTooLarge(limit: limit)) }
    }
    return .incomplete
  }

  /// RFC 7230 `tchar`: the characters allowed in a header name.
  static func isTokenByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"):
      return true
    default:
      return "!#$%&'*+-.^_`|~".utf8.contains(byte)
    }
  }
}
