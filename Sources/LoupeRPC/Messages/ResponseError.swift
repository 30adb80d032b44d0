import LoupeCore

/// A JSON-RPC error object: `{code, message, data?}`.
///
/// The codes Loupe uses are named (CONTRACT §3); see `protocol/errors.md` for when each is sent.
///
/// ```swift
/// throw ResponseError.invalidParams("'label' must be a string")
/// ```
public struct ResponseError: Error, Sendable, Hashable, CustomStringConvertible {
  public var code: Code
  public var message: String
  public var data: JSON?

  public init(code: Code, message: String, data: JSON? = nil) {
    self.code = code
    self.message = message
    self.data = data
  }

  /// An error code. Known codes have names; any other integer is kept as is.
  public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public var rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// The body is not valid JSON.
    public static let parseError = Code(rawValue: -32700)
    /// The JSON is not a valid request object (or the request is not allowed now, e.g. after
    /// `shutdown`).
    public static let invalidRequest = Code(rawValue: -32600)
    public static let methodNotFound = Code(rawValue: -32601)
    public static let invalidParams = Code(rawValue: -32602)
    public static let internalError = Code(rawValue: -32603)
    /// A request other than `initialize` arrived before `initialize`.
    public static let serverNotInitialized = Code(rawValue: -32002)
    /// The program refuses the connection: it serves as many clients as it may
    /// (`LOUPE_MAX_CLIENTS`) or is short of file descriptors. Sent once, with id `null`,
    /// before the connection is closed.
    public static let serverBusy = Code(rawValue: -32001)
    /// A TCP client's first message was not `initialize` with the program's token
    /// (CONTRACT §14); the connection is closed after this answer.
    public static let unauthorized = Code(rawValue: -32003)
    /// A control method (`loupe/send`, `loupe/setState`, CONTRACT §16) and the program does
    /// not allow control: it is off unless `LOUPE_CONTROL=1` (or
    /// `Inspector.configuration.allowsControl`) is set.
    public static let controlNotAllowed = Code(rawValue: -32004)
    /// The request was cancelled by `$/cancelRequest` before it completed.
    public static let requestCancelled = Code(rawValue: -32800)

    public var description: String { "\(rawValue)" }
  }

  public static func parseError(_ message: String) -> ResponseError { .init(code: .parseError, message: message) }
  public static func invalidRequest(_ message: String) -> ResponseError { .init(code: .invalidRequest, message: message) }
  public static func methodNotFound(_ method: String) -> ResponseError {
    .init(code: .methodNotFound, message: "Method not found: \(method)")
  }
  public static func invalidParams(_ message: String) -> ResponseError { .init(code: .invalidParams, message: message) }
  public static func internalError(_ message: String) -> ResponseError { .init(code: .internalError, message: message) }
  public static let serverNotInitialized = ResponseError(
    code: .serverNotInitialized, message: "Server not initialized: send 'initialize' first")
  public static let requestCancelled = ResponseError(code: .requestCancelled, message: "Request cancelled")
  public static let unauthorized = ResponseError(
    code: .unauthorized,
    message: "Unauthorized: over TCP the first message must be 'initialize' with params.token (the program's LOUPE_TOKEN, or the token it printed)")

  /// The answer to a control method in a program that does not allow control.
  public static func controlNotAllowed(_ method: String) -> ResponseError {
    .init(
      code: .controlNotAllowed,
      message: "Control not allowed: \(method) acts on the program, which it allows only when started with LOUPE_CONTROL=1 (or Inspector.shared.configuration.allowsControl = true)")
  }

  public var description: String { "\(message) (\(code.rawValue))" }

  /// The error object's JSON.
  public var json: JSON {
    var object: JSONObject = ["code": .int(code.rawValue), "message": .string(message)]
    if let data { object.append("data", data) }
    return .object(object)
  }

  public func encode(into w: inout JSONWriter) {
    w.beginObject()
    w.key("code"); w.int(code.rawValue)
    w.key("message"); w.string(message)
    if let data { w.key("data"); w.value(data) }
    w.endObject()
  }

  /// Decodes an error object; `nil` when `json` is not one.
  public init?(json: JSON) {
    guard let code = json["code"]?.intValue, let message = json["message"]?.stringValue else { return nil }
    self.init(code: Code(rawValue: code), message: message, data: json["data"])
  }
}
