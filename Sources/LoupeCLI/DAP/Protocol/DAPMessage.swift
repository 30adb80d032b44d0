import LoupeCore

/// One request from the editor: `{"seq", "type": "request", "command", "arguments"?}`.
///
/// DAP shares LSP's `Content-Length` framing but not JSON-RPC: messages carry their own `seq`,
/// responses name the request they answer with `request_seq`, and events are named by `event`.
struct DAPRequest: Sendable {
  var seq: Int
  var command: String
  var arguments: DAPArguments

  /// Decodes a frame body; a message that is not a request says why.
  static func decode(_ body: [UInt8]) -> Result<DAPRequest, DAPError> {
    let json: JSON
    do {
      json = try JSONParser.parse(body)
    } catch {
      return .failure(DAPError(.parseError, "The message is not JSON: \(error)"))
    }
    guard let object = json.objectValue else {
      return .failure(DAPError(.invalidRequest, "A DAP message is a JSON object, not \(json.typeName)."))
    }
    guard let seq = object["seq"]?.intValue else {
      return .failure(DAPError(.invalidRequest, "The message has no integer 'seq'."))
    }
    guard object["type"]?.stringValue == "request" else {
      let type = object["type"]?.stringValue ?? "none"
      return .failure(DAPError(.invalidRequest, "Only requests are expected from the client (type '\(type)').", requestSeq: seq))
    }
    guard let command = object["command"]?.stringValue else {
      return .failure(DAPError(.invalidRequest, "The request has no 'command'.", requestSeq: seq))
    }
    switch object["arguments"] {
    case nil, .null?:
      return .success(DAPRequest(seq: seq, command: command, arguments: DAPArguments(command: command, [:])))
    case .object(let arguments)?:
      return .success(DAPRequest(seq: seq, command: command, arguments: DAPArguments(command: command, arguments)))
    case let other?:
      return .failure(
        DAPError(.invalidArguments, "'\(command)': 'arguments' must be an object, not \(other.typeName).", requestSeq: seq, command: command))
    }
  }
}

/// A request's arguments, read with clear errors: `null` counts as absent (clients send it
/// for unset optional fields), a wrong type names the field and what it should be.
struct DAPArguments: Sendable {
  var command: String
  var object: JSONObject

  init(command: String, _ object: JSONObject) {
    self.command = command
    self.object = object
  }

  func has(_ key: String) -> Bool { value(key) != nil }

  func value(_ key: String) -> JSON? {
    guard let value = object[key], !value.isNull else { return nil }
    return value
  }

  func string(_ key: String) throws(DAPError) -> String? {
    guard let value = value(key) else { return nil }
    guard let string = value.stringValue else { throw wrongType(key, "a string", value) }
    return string
  }

  func requiredString(_ key: String) throws(DAPError) -> String {
    guard let string = try string(key) else { throw missing(key) }
    return string
  }

  func int(_ key: String) throws(DAPError) -> Int? {
    guard let value = value(key) else { return nil }
    guard let int = value.intValue else { throw wrongType(key, "an integer", value) }
    return int
  }

  func requiredInt(_ key: String) throws(DAPError) -> Int {
    guard let int = try int(key) else { throw missing(key) }
    return int
  }

  func bool(_ key: String) throws(DAPError) -> Bool? {
    guard let value = value(key) else { return nil }
    guard let bool = value.boolValue else { throw wrongType(key, "true or false", value) }
    return bool
  }

  func strings(_ key: String) throws(DAPError) -> [String]? {
    guard let value = value(key) else { return nil }
    guard let array = value.arrayValue else { throw wrongType(key, "an array of strings", value) }
    var strings: [String] = []
    for element in array {
      guard let string = element.stringValue else { throw wrongType(key, "an array of strings", value) }
      strings.append(string)
    }
    return strings
  }

  func objects(_ key: String) throws(DAPError) -> [DAPArguments]? {
    guard let value = value(key) else { return nil }
    guard let array = value.arrayValue else { throw wrongType(key, "an array of objects", value) }
    var objects: [DAPArguments] = []
    for element in array {
      guard let object = element.objectValue else { throw wrongType(key, "an array of objects", value) }
      objects.append(DAPArguments(command: command, object))
    }
    return objects
  }

  func nested(_ key: String) throws(DAPError) -> DAPArguments? {
    guard let value = value(key) else { return nil }
    guard let object = value.objectValue else { throw wrongType(key, "an object", value) }
    return DAPArguments(command: command, object)
  }

  private func missing(_ key: String) -> DAPError {
    DAPError(.invalidArguments, "'\(command)' needs '\(key)'.")
  }

  private func wrongType(_ key: String, _ expected: String, _ value: JSON) -> DAPError {
    DAPError(.invalidArguments, "'\(command)': '\(key)' must be \(expected), not \(value.typeName).")
  }
}
