import LoupeCore

/// One JSON-RPC 2.0 message, in either direction.
///
/// ```swift
/// let request = Message.request(id: 1, method: "loupe/mark", params: ["label": "tapped"])
/// request.jsonText  // {"jsonrpc":"2.0","id":1,"method":"loupe/mark","params":{"label":"tapped"}}
/// ```
public enum Message: Sendable, Hashable {
  /// A call that expects a response carrying the same `id`.
  case request(id: RequestID, method: String, params: JSON?)
  /// A call that is never answered.
  case notification(method: String, params: JSON?)
  /// The answer to a request: its result or an error. `id` is `nil` (JSON `null`) only when
  /// the request's id could not be read (a parse error, an invalid request).
  case response(id: RequestID?, result: Result<JSON, ResponseError>)

  /// A successful response.
  public static func success(id: RequestID, _ result: JSON) -> Message { .response(id: id, result: .success(result)) }
  /// An error response.
  public static func failure(id: RequestID?, _ error: ResponseError) -> Message { .response(id: id, result: .failure(error)) }

  public var method: String? {
    switch self {
    case .request(_, let method, _), .notification(let method, _): method
    case .response: nil
    }
  }

  /// Writes the message as one compact JSON object. Notifications and requests without params
  /// omit `params`; a successful response always has `result` (`null` when empty).
  public func encode(into w: inout JSONWriter) {
    w.beginObject()
    w.key("jsonrpc"); w.string("2.0")
    switch self {
    case .request(let id, let method, let params):
      w.key("id"); id.encode(into: &w)
      w.key("method"); w.string(method)
      if let params { w.key("params"); w.value(params) }
    case .notification(let method, let params):
      w.key("method"); w.string(method)
      if let params { w.key("params"); w.value(params) }
    case .response(let id, let result):
      w.key("id")
      if let id { id.encode(into: &w) } else { w.null() }
      switch result {
      case .success(let value): w.key("result"); w.value(value)
      case .failure(let error): w.key("error"); error.encode(into: &w)
      }
    }
    w.endObject()
  }

  /// The message's compact JSON bytes (a frame body).
  public var body: [UInt8] {
    var writer = JSONWriter()
    encode(into: &writer)
    return writer.bytes
  }

  public var jsonText: String { String(decoding: body, as: UTF8.self) }

  /// The body of a batch: a JSON array of messages.
  public static func batchBody(_ messages: [Message]) -> [UInt8] {
    var writer = JSONWriter()
    writer.beginArray()
    for message in messages { message.encode(into: &writer) }
    writer.endArray()
    return writer.bytes
  }
}
