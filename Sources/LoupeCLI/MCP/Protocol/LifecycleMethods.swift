import LoupeCore
import LoupeRPC

/// MCP's lifecycle: `initialize` (protocol version negotiation), `ping`, and the `2026-07-28`
/// `server/discover`. `notifications/initialized` is handled by ``MCPServer``.
enum LifecycleMethods {
  static let initialize = "initialize"
  static let ping = "ping"
  static let discover = "server/discover"

  static let serverInfo: JSON = [
    "name": "loupe",
    "title": "Loupe",
    "version": .string(LoupeCLI.version),
  ]

  static let instructions = """
    Loupe shows what a program's state stores did and why: every action, state change, effect and \
    cancellation, with the source line behind it. Start with loupe_open (launch a program, attach \
    to a socket, or open a .loupe trace); it returns a session id for the other tools. \
    loupe_doctor finds known pitfalls; loupe_timeline lists events (filter, since/until, limit); \
    loupe_why explains one event's causes and effects; loupe_state shows a store's state at any seq. \
    A program started with LOUPE_CONTROL=1 can be acted on: loupe_send sends an action, loupe_set_state \
    replaces a root store's state. Answers are bounded: each says what it left out and how to ask for more.
    """

  static let capabilities: JSON = ["tools": ["listChanged": false]]

  /// `initialize`: answers with the client's revision when this server speaks it, else with
  /// the newest handshake revision it does.
  static func initialize(_ params: JSON?, server: MCPServer) throws(ResponseError) -> JSON {
    guard let params, params.objectValue != nil else {
      throw .invalidParams("Invalid params: 'initialize' needs params {protocolVersion, capabilities, clientInfo}")
    }
    guard let requested = params["protocolVersion"]?.stringValue else {
      throw .invalidParams("Invalid params: 'protocolVersion' must be a string")
    }
    if let capabilities = params["capabilities"], capabilities.objectValue == nil {
      throw .invalidParams("Invalid params: 'capabilities' must be an object")
    }
    let version = MCPProtocolVersion.negotiate(requested)
    let client = params["clientInfo"]?["name"]?.stringValue
    let already = server.state.withLock { state in
      if state.handshakeVersion != nil { return true }
      state.handshakeVersion = version
      state.clientName = client
      return false
    }
    if already { throw .invalidRequest("Invalid request: the session is already initialized") }
    server.log("loupe mcp: initialized by \(client ?? "a client") with protocol \(version) (asked for \(requested))")
    return [
      "protocolVersion": .string(version),
      "capabilities": capabilities,
      "serverInfo": serverInfo,
      "instructions": .string(instructions),
    ]
  }

  /// `server/discover` (`2026-07-28`): what this server speaks and offers.
  static func discover(era: RequestEra?) -> JSON {
    var meta = JSONObject()
    meta.append(MCPProtocolVersion.serverInfoKey, serverInfo)
    return [
      "supportedVersions": .array(MCPProtocolVersion.all.map(JSON.string)),
      "capabilities": capabilities,
      "instructions": .string(instructions),
      "resultType": "complete",
      "ttlMs": 3_600_000,
      "cacheScope": "public",
      "_meta": .object(meta),
    ]
  }

  /// A result as the request's era wants it: `2026-07-28` results carry `resultType`.
  static func result(_ object: JSONObject, era: RequestEra?) -> JSON {
    var object = object
    if era?.isModern == true, object["resultType"] == nil { object.append("resultType", "complete") }
    return .object(object)
  }
}
