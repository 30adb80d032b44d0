/// Why a byte stream is not valid LSP base-protocol framing. Every case is terminal for the
/// connection: after it, the byte stream cannot be resynchronised.
public enum FrameError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The header block ended without a `Content-Length` header.
  case missingContentLength
  /// `Content-Length` is not plain decimal digits (or does not fit).
  case invalidContentLength(String)
  /// The body announced is larger than the decoder accepts.
  case bodyTooLarge(length: Int, limit: Int)
  /// The header block grew past its limit without ending.
  case headerTooLarge(limit: Int)
  /// A header appeared twice.
  case duplicateHeader(String)
  /// `Content-Type` is not `type/subtype[; name=value]*`.
  case invalidContentType(String)
  /// `Content-Type` names a charset other than `utf-8`/`utf8`.
  case unsupportedCharset(String)
  /// A header line is not `Name: value` (bad character, no colon, bare CR or LF, …).
  case malformedHeader(String)
  /// The stream ended in the middle of a frame.
  case truncatedFrame

  public var description: String {
    switch self {
    case .missingContentLength: "Missing Content-Length header"
    case .invalidContentLength(let value): "Invalid Content-Length '\(value)'"
    case .bodyTooLarge(let length, let limit): "Body of \(length) bytes exceeds the limit of \(limit) bytes"
    case .headerTooLarge(let limit): "Header block exceeds \(limit) bytes"
    case .duplicateHeader(let name): "Duplicate \(name) header"
    case .invalidContentType(let value): "Invalid Content-Type '\(value)'"
    case .unsupportedCharset(let charset): "Unsupported charset '\(charset)' (only utf-8 is accepted)"
    case .malformedHeader(let reason): "Malformed header: \(reason)"
    case .truncatedFrame: "The stream ended in the middle of a frame"
    }
  }
}
