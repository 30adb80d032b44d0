import LoupeCore

/// A request type of this protocol: its method name, its params and its result.
///
/// Each request lives in its own file under `Requests/` and is listed in ``MessageRegistry``.
/// The server decodes params with ``init(params:)`` (throwing `-32602` for bad ones) and encodes
/// its result with ``encodeResult(_:)``; a client does the reverse with ``params`` and
/// ``decodeResult(_:)``.
public protocol RequestType: Sendable {
  associatedtype Result: Sendable
  /// The JSON-RPC `method`, e.g. `"loupe/state"`.
  static var method: String { get }
  /// Decodes params; `nil` when absent (or `null`).
  init(params: JSON?) throws(ResponseError)
  /// The params to send; `nil` to omit them.
  var params: JSON? { get }
  static func encodeResult(_ result: Result) -> JSON
  static func decodeResult(_ json: JSON) throws(ResponseError) -> Result
}

/// A notification type of this protocol (never answered).
public protocol NotificationType: Sendable {
  static var method: String { get }
  init(params: JSON?) throws(ResponseError)
  var params: JSON? { get }
}

extension RequestType {
  /// This request as a message with `id`.
  public func message(id: RequestID) -> Message { .request(id: id, method: Self.method, params: params) }
}

extension NotificationType {
  public var message: Message { .notification(method: Self.method, params: params) }
}

/// The result of requests that answer `null` on success (`shutdown`, `loupe/unsubscribe`).
public struct NullResult: Sendable, Hashable {
  public init() {}
  public static func encode(_: NullResult) -> JSON { .null }
  public static func decode(_: JSON) -> NullResult { NullResult() }
}

/// Reads members of a params or result object, turning every mismatch into an error that
/// names the member (`-32602` for params).
struct ObjectReader {
  let object: JSONObject
  let context: String
  let errorCode: ResponseError.Code

  /// `json` must be an object, or absent when `allowAbsent`.
  init(_ json: JSON?, context: String, errorCode: ResponseError.Code = .invalidParams, allowAbsent: Bool = true)
    throws(ResponseError)
  {
    self.context = context
    self.errorCode = errorCode
    switch json {
    case nil, .null?:
      guard allowAbsent else { throw ResponseError(code: errorCode, message: "\(context) are required") }
      object = JSONObject()
    case .array(let elements)? where elements.isEmpty:
      // By-position params with no position given: no params (Neovim's `vim.lsp.rpc` sends an
      // empty Lua table as `[]`).
      guard allowAbsent else { throw ResponseError(code: errorCode, message: "\(context) are required") }
      object = JSONObject()
    case .object(let object)?:
      self.object = object
    case let other?:
      throw ResponseError(code: errorCode, message: "\(context) must be an object, not \(other.typeName)")
    }
  }

  func fail(_ key: String, _ expectation: String) -> ResponseError {
    ResponseError(code: errorCode, message: "\(context): '\(key)' \(expectation)")
  }

  func value(_ key: String) -> JSON? {
    if case .null? = object[key] { return nil }
    return object[key]
  }

  func string(_ key: String) throws(ResponseError) -> String {
    guard let value = value(key) else { throw fail(key, "is required") }
    guard let string = value.stringValue else { throw fail(key, "must be a string, not \(value.typeName)") }
    return string
  }

  func optionalString(_ key: String) throws(ResponseError) -> String? {
    guard value(key) != nil else { return nil }
    return try string(key)
  }

  func int(_ key: String) throws(ResponseError) -> Int {
    guard let value = value(key) else { throw fail(key, "is required") }
    guard let int = value.intValue else { throw fail(key, "must be an integer, not \(value.typeName)") }
    return int
  }

  func optionalBool(_ key: String) throws(ResponseError) -> Bool? {
    guard let value = value(key) else { return nil }
    guard let bool = value.boolValue else { throw fail(key, "must be a boolean, not \(value.typeName)") }
    return bool
  }

  func array(_ key: String) throws(ResponseError) -> [JSON] {
    guard let value = value(key) else { throw fail(key, "is required") }
    guard let array = value.arrayValue else { throw fail(key, "must be an array, not \(value.typeName)") }
    return array
  }

  func stringArray(_ key: String) throws(ResponseError) -> [String] {
    var strings: [String] = []
    for item in try array(key) {
      guard let string = item.stringValue else { throw fail(key, "must be an array of strings") }
      strings.append(string)
    }
    return strings
  }

  func object(_ key: String) throws(ResponseError) -> ObjectReader {
    guard let value = value(key) else { throw fail(key, "is required") }
    return try ObjectReader(value, context: "\(context).\(key)", errorCode: errorCode, allowAbsent: false)
  }
}

extension ObjectReader {
  /// A reader for a result object (malformed results are internal errors on the client).
  static func result(_ json: JSON, of method: String) throws(ResponseError) -> ObjectReader {
    try ObjectReader(json, context: "\(method) result", errorCode: .internalError, allowAbsent: false)
  }

  static func params(_ json: JSON?, of method: String) throws(ResponseError) -> ObjectReader {
    try ObjectReader(json, context: "\(method) params")
  }
}
