import LoupeCore

/// A frame body, read as JSON-RPC 2.0: one message or a batch.
public enum IncomingBody: Sendable, Hashable {
  case single(IncomingItem)
  /// A non-empty batch, in order.
  case batch([IncomingItem])

  /// Reads a frame body. Never fails: what is not a valid message becomes an
  /// ``IncomingItem/invalid(id:error:)`` carrying the error to answer with (JSON-RPC 2.0 §5–6):
  ///
  /// - text that is not JSON → one `-32700` parse error, id `null`;
  /// - an empty array → one `-32600` invalid request, id `null`;
  /// - each batch element that is not a valid message → its own `-32600`.
  public static func decode(_ body: some Collection<UInt8>) -> IncomingBody {
    let json: JSON
    do {
      json = try JSONParser.parse(body)
    } catch {
      return .single(.invalid(id: nil, error: .parseError("Parse error: \(error)")))
    }
    if case .array(let elements) = json {
      guard !elements.isEmpty else {
        return .single(.invalid(id: nil, error: .invalidRequest("Invalid request: empty batch")))
      }
      return .batch(elements.map(IncomingItem.init(json:)))
    }
    return .single(IncomingItem(json: json))
  }
}

/// One element of an incoming body.
public enum IncomingItem: Sendable, Hashable {
  case message(Message)
  /// Not a valid message; answer with `error` (using `id` when it could be read).
  case invalid(id: RequestID?, error: ResponseError)

  /// Validates one JSON-RPC 2.0 message object.
  ///
  /// `"params": null` is treated as absent (real clients send it). An `id` that is neither an
  /// integer nor a string makes the message invalid; a valid id is echoed in the error.
  public init(json: JSON) {
    guard case .object(let object) = json else {
      self = .invalid(id: nil, error: .invalidRequest("Invalid request: expected an object, found \(json.typeName)"))
      return
    }
    var id: RequestID?
    var idIsNull = false
    if let idJSON = object["id"], idJSON.isNull {
      idIsNull = true  // only an error response may carry a null id
    } else if let idJSON = object["id"] {
      guard let parsed = RequestID(json: idJSON) else {
        self = .invalid(id: nil, error: .invalidRequest("Invalid request: 'id' must be an integer or a string"))
        return
      }
      id = parsed
    }
    guard object["jsonrpc"] == .string("2.0") else {
      self = .invalid(id: id, error: .invalidRequest("Invalid request: 'jsonrpc' must be \"2.0\""))
      return
    }
    if let methodJSON = object["method"] {
      guard !idIsNull else {
        self = .invalid(id: nil, error: .invalidRequest("Invalid request: 'id' must be an integer or a string"))
        return
      }
      guard let method = methodJSON.stringValue else {
        self = .invalid(id: id, error: .invalidRequest("Invalid request: 'method' must be a string"))
        return
      }
      var params: JSON?
      switch object["params"] {
      case nil, .null?: params = nil
      case .object?, .array?: params = object["params"]
      case let other?:
        self = .invalid(
          id: id, error: .invalidRequest("Invalid request: 'params' must be an object or an array, not \(other.typeName)"))
        return
      }
      if let id {
        self = .message(.request(id: id, method: method, params: params))
      } else {
        self = .message(.notification(method: method, params: params))
      }
      return
    }
    // A response (what a client reads).
    if object["id"] != nil || object["result"] != nil || object["error"] != nil {
      let hasResult = object["result"] != nil
      let errorJSON = object["error"]
      guard object["id"] != nil, hasResult != (errorJSON != nil) else {
        self = .invalid(id: id, error: .invalidRequest("Invalid response: needs 'id' and exactly one of 'result' or 'error'"))
        return
      }
      if let errorJSON {
        guard let error = ResponseError(json: errorJSON) else {
          self = .invalid(id: id, error: .invalidRequest("Invalid response: malformed 'error' object"))
          return
        }
        self = .message(.response(id: id, result: .failure(error)))
      } else {
        self = .message(.response(id: id, result: .success(object["result"] ?? .null)))
      }
      return
    }
    self = .invalid(id: id, error: .invalidRequest("Invalid request: missing 'method'"))
  }
}
