import LoupeCore

/// `initialize`: the first request of every connection.
///
/// Params `{clientInfo?: {name, version?}, protocolVersion?}`; result ``InitializeResult``.
public struct InitializeRequest: RequestType, Hashable {
  public static let method = "initialize"

  public struct ClientInfo: Sendable, Hashable {
    public var name: String
    public var version: String?
    public init(name: String, version: String? = nil) {
      self.name = name
      self.version = version
    }
  }

  public var clientInfo: ClientInfo?
  /// The protocol version the client speaks (`"1"`), if it says.
  public var protocolVersion: String?
  /// The program's token, required over TCP (CONTRACT §14). The program removes it before
  /// the request goes further, so handlers never see it.
  public var token: String?

  public init(clientInfo: ClientInfo? = nil, protocolVersion: String? = loupeProtocolVersion) {
    self.clientInfo = clientInfo
    self.protocolVersion = protocolVersion
  }

  public init(params: JSON?) throws(ResponseError) {
    let reader = try ObjectReader.params(params, of: Self.method)
    protocolVersion = try reader.optionalString("protocolVersion")
    if reader.value("clientInfo") != nil {
      let info = try reader.object("clientInfo")
      clientInfo = ClientInfo(name: try info.string("name"), version: try info.optionalString("version"))
    }
  }

  public var params: JSON? {
    var object = JSONObject()
    if let clientInfo {
      var info: JSONObject = ["name": .string(clientInfo.name)]
      if let version = clientInfo.version { info.append("version", .string(version)) }
      object.append("clientInfo", .object(info))
    }
    if let protocolVersion { object.append("protocolVersion", .string(protocolVersion)) }
    if let token { object.append("token", .string(token)) }
    return .object(object)
  }

  public static func encodeResult(_ result: InitializeResult) -> JSON { result.json }
  public static func decodeResult(_ json: JSON) throws(ResponseError) -> InitializeResult {
    try InitializeResult(json: json)
  }
}

/// The result of `initialize`: who the server is and what it can do.
public struct InitializeResult: Sendable, Hashable {
  public struct ServerInfo: Sendable, Hashable {
    public var name: String
    public var version: String
    public init(name: String, version: String) {
      self.name = name
      self.version = version
    }
  }

  public struct ProcessInfo: Sendable, Hashable {
    public var pid: Int
    public var name: String
    public init(pid: Int, name: String) {
      self.pid = pid
      self.name = name
    }
  }

  public struct Capabilities: Sendable, Hashable {
    /// Every event kind the server may send.
    public var eventKinds: [String]
    /// Every method the server handles (requests and notifications).
    public var methods: [String]
    public init(eventKinds: [String] = Event.knownKinds, methods: [String] = MessageRegistry.serverMethods) {
      self.eventKinds = eventKinds
      self.methods = methods
    }
  }

  public var protocolVersion: String
  public var serverInfo: ServerInfo
  public var process: ProcessInfo
  public var capabilities: Capabilities

  public init(
    protocolVersion: String = loupeProtocolVersion, serverInfo: ServerInfo, process: ProcessInfo,
    capabilities: Capabilities = Capabilities()
  ) {
    self.protocolVersion = protocolVersion
    self.serverInfo = serverInfo
    self.process = process
    self.capabilities = capabilities
  }

  public var json: JSON {
    [
      "protocolVersion": .string(protocolVersion),
      "serverInfo": ["name": .string(serverInfo.name), "version": .string(serverInfo.version)],
      "process": ["pid": .int(process.pid), "name": .string(process.name)],
      "capabilities": [
        "eventKinds": .array(capabilities.eventKinds.map(JSON.string)),
        "methods": .array(capabilities.methods.map(JSON.string)),
      ],
    ]
  }

  public init(json: JSON) throws(ResponseError) {
    let reader = try ObjectReader.result(json, of: InitializeRequest.method)
    protocolVersion = try reader.string("protocolVersion")
    let server = try reader.object("serverInfo")
    serverInfo = ServerInfo(name: try server.string("name"), version: try server.string("version"))
    let process = try reader.object("process")
    self.process = ProcessInfo(pid: try process.int("pid"), name: try process.string("name"))
    let capabilities = try reader.object("capabilities")
    self.capabilities = Capabilities(
      eventKinds: try capabilities.stringArray("eventKinds"), methods: try capabilities.stringArray("methods"))
  }
}
