import LoupeCore

/// The MCP revisions `loupe mcp` speaks, and how a session settles on one.
///
/// MCP has two eras. Up to `2025-11-25` a session begins with the `initialize` handshake, in
/// which the client proposes a revision and the server answers with the same one if it
/// supports it, else the newest it does (the client then decides whether to go on). From
/// `2026-07-28` there is no handshake: every request carries its revision and the client's
/// capabilities in `params._meta`, `server/discover` tells a client what the server speaks,
/// and an unsupported revision is the error `-32022` naming the supported ones. `loupe mcp`
/// serves both, so clients of either era work.
enum MCPProtocolVersion {
  /// Revisions reachable through `initialize`, newest first.
  static let handshake = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"]
  /// Revisions whose requests carry their own `_meta` envelope, newest first.
  static let modern = ["2026-07-28"]
  /// Everything, newest first (what `server/discover` and `-32022` list).
  static let all = modern + handshake

  /// The `_meta` keys of the per-request envelope.
  static let versionKey = "io.modelcontextprotocol/protocolVersion"
  static let capabilitiesKey = "io.modelcontextprotocol/clientCapabilities"
  static let clientInfoKey = "io.modelcontextprotocol/clientInfo"
  static let serverInfoKey = "io.modelcontextprotocol/serverInfo"

  /// The revision to answer `initialize` with when the client proposed `requested`.
  static func negotiate(_ requested: String) -> String {
    handshake.contains(requested) ? requested : handshake[0]
  }
}

/// How one request reached the server: inside an `initialize`d session, or self-described
/// with the `2026-07-28` envelope. Results of the modern era carry `resultType`.
enum RequestEra: Sendable, Equatable {
  case handshake(version: String)
  case modern(version: String)

  var isModern: Bool { if case .modern = self { true } else { false } }
}
