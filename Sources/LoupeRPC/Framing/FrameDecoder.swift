/// Splits a byte stream into LSP base-protocol frames (CONTRACT §3).
///
/// A frame is a header block of `Name: value\r\n` lines ended by an empty line, then exactly
/// `Content-Length` bytes of UTF-8 body:
///
/// ```
/// Content-Length: 52\r\n
/// Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n
/// \r\n
/// {"jsonrpc":"2.0","id":1,"method":"initialize"}
/// ```
///
/// The decoder is a pure state machine: it does no I/O. Feed it whatever bytes arrived, in any
/// split (one byte at a time, many frames in one read, a multi-megabyte body in pieces), then
/// call ``next()`` until it answers ``Output/needMoreData``:
///
/// ```swift
/// var decoder = FrameDecoder()
/// decoder.append(bytesJustRead)
/// loop: while true {
///   switch decoder.next() {
///   case .frame(let body): handle(body)
///   case .needMoreData: break loop
///   case .failed(let error): closeConnection(because: error); break loop
///   }
/// }
/// ```
///
/// Header names are case-insensitive. `Content-Length` is required and must be plain decimal
/// digits; `Content-Type` is optional and, when it names a charset, that charset must be
/// `utf-8` or `utf8`. Other headers are ignored. Any violation is a ``FrameError``, after which
/// the decoder stays failed: framing cannot be resynchronised, so the caller closes the
/// connection (and only that connection).
public struct FrameDecoder: Sendable {
  /// Bounds that keep a hostile or broken peer from using unbounded memory.
  public struct Limits: Sendable, Hashable {
    /// The largest body accepted, in bytes.
    public var maxBodySize: Int
    /// The largest header block accepted, in bytes (including the final empty line).
    public var maxHeaderSize: Int

    public init(maxBodySize: Int = 64 << 20, maxHeaderSize: Int = 8 << 10) {
      self.maxBodySize = maxBodySize
      self.maxHeaderSize = maxHeaderSize
    }

    public static let `default` = Limits()
  }

  /// What ``next()`` found.
  public enum Output: Sendable, Equatable {
    /// One complete body (the bytes after the header block).
    case frame([UInt8])
    /// No complete frame is buffered; append more bytes.
    case needMoreData
    /// The stream is not valid framing. Terminal: every later call answers the same.
    case failed(FrameError)
  }

  public let limits: Limits

  private var buffer: [UInt8] = []
  /// Start of the unconsumed bytes in `buffer`.
  private var start = 0
  private var phase = Phase.header(HeaderScanner())
  private var failure: FrameError?

  private enum Phase: Sendable {
    case header(HeaderScanner)
    case body(length: Int)
  }

  public init(limits: Limits = .default) {
    self.limits = limits
  }

  /// Bytes buffered and not yet returned as frames.
  public var bufferedByteCount: Int { buffer.count - start }

  /// Whether the decoder sits exactly between frames (nothing partial is buffered). At end of
  /// input this tells a clean close from a truncated frame.
  public var isAtFrameBoundary: Bool {
    if case .header = phase, bufferedByteCount == 0, failure == nil { return true }
    return false
  }

  /// Adds bytes that arrived from the peer.
  public mutating func append(_ bytes: some Sequence<UInt8>) {
    guard failure == nil else { return }
    // Drop consumed bytes once they dominate the buffer, so memory follows what is pending.
    if start > 0, start >= buffer.count - start {
      buffer.removeSubrange(0..<start)
      if case .header(var scanner) = phase {
        scanner.shift(by: start)
        phase = .header(scanner)
      }
      start = 0
    }
    buffer.append(contentsOf: bytes)
  }

  /// The next complete frame, or what stops one from being returned.
  public mutating func next() -> Output {
    if let failure { return .failed(failure) }
    switch phase {
    case .header(var scanner):
      let result = scanner.scan(buffer, limit: limits.maxHeaderSize)
      switch result {
      case .incomplete:
        phase = .header(scanner)
        return .needMoreData
      case .failed(let error):
        return fail(error)
      case .complete(let fields, let end):
        let length: Int
        switch Self.contentLength(from: fields, limits: limits) {
        case .success(let value): length = value
        case .failure(let error): return fail(error)
        }
        start = end
        phase = .body(length: length)
        return next()
      }
    case .body(let length):
      guard buffer.count - start >= length else { return .needMoreData }
      let body = Array(buffer[start..<(start + length)])
      start += length
      if start == buffer.count {
        buffer.removeAll(keepingCapacity: buffer.capacity <= 1 << 20)
        start = 0
      }
      phase = .header(HeaderScanner(position: start))
      return .frame(body)
    }
  }

  private mutating func fail(_ error: FrameError) -> Output {
    failure = error
    buffer = []
    start = 0
    return .failed(error)
  }

  /// Checks the header fields and returns the body length.
  static func contentLength(from fields: [HeaderField], limits: Limits) -> Result<Int, FrameError> {
    var length: Int?
    var sawType = false
    for field in fields {
      switch field.name.lowercased() {
      case "content-length":
        guard length == nil else { return .failure(.duplicateHeader("Content-Length")) }
        guard let value = parseLength(field.value) else {
          return .failure(.invalidContentLength(field.value))
        }
        guard value <= limits.maxBodySize else {
          return .failure(.bodyTooLarge(length: value, limit: limits.maxBodySize))
        }
        length = value
      case "content-type":
        guard !sawType else { return .failure(.duplicateHeader("Content-Type")) }
        sawType = true
        if let error = checkContentType(field.value) { return .failure(error) }
      default:
        continue  // unknown headers are ignored, as LSP says
      }
    }
    guard let length else { return .failure(.missingContentLength) }
    return .success(length)
  }

  /// Plain decimal digits only: no sign, no spaces inside, no hex, no overflow.
  static func parseLength(_ text: String) -> Int? {
    let digits = text.utf8
    guard !digits.isEmpty, digits.count <= 18 else { return nil }
    var value = 0
    for byte in digits {
      guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
      value = value * 10 + Int(byte - UInt8(ascii: "0"))
    }
    return value
  }

  /// `type/subtype; charset=utf-8` — only the charset parameter is checked.
  static func checkContentType(_ value: String) -> FrameError? {
    let parts = value.split(separator: ";", omittingEmptySubsequences: false)
    guard let mediaType = parts.first?.trimmingASCIISpaces(), !mediaType.isEmpty else {
      return .invalidContentType(value)
    }
    for parameter in parts.dropFirst() {
      let pair = parameter.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      guard pair.count == 2 else { return .invalidContentType(value) }
      let name = pair[0].trimmingASCIISpaces().lowercased()
      var charset = pair[1].trimmingASCIISpaces()
      if charset.count >= 2, charset.hasPrefix("\""), charset.hasSuffix("\"") {
        charset = String(charset.dropFirst().dropLast())
      }
      if name == "charset", !["utf-8", "utf8"].contains(charset.lowercased()) {
        return .unsupportedCharset(charset)
      }
    }
    return nil
  }
}

/// One `Name: value` header line; the value has surrounding spaces and tabs removed.
struct HeaderField: Sendable, Hashable {
  var name: String
  var value: String
}

extension StringProtocol {
  /// The text without leading and trailing spaces and tabs (header whitespace, RFC 7230 OWS).
  func trimmingASCIISpaces() -> String {
    let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
    guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
      return ""
    }
    return String(self[first...last])
  }
}
