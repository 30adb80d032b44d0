import LoupeCore
import LoupeRPC

/// The JSON-RPC errors `loupe mcp` answers with. A tool that fails is *not* one of these: it is
/// a `tools/call` result with `isError: true` (see ``ToolResult``), so the model reads why.
extension ResponseError {
  /// `-32022`: the request's `_meta` names a revision this server does not speak.
  static func unsupportedProtocolVersion(_ requested: String) -> ResponseError {
    ResponseError(
      code: .init(rawValue: -32022),
      message: "Unsupported protocol version '\(requested)': this server speaks \(MCPProtocolVersion.all.joined(separator: ", "))",
      data: ["requested": .string(requested), "supported": .array(MCPProtocolVersion.all.map(JSON.string))])
  }

  /// A request other than `initialize`, `ping` or `server/discover` before the handshake, and
  /// without the `2026-07-28` envelope.
  static let notInitialized = ResponseError(
    code: .invalidRequest,
    message:
      "Invalid request: the session is not initialized. Send 'initialize' (then 'notifications/initialized') first, or put 'io.modelcontextprotocol/protocolVersion' (2026-07-28) and 'io.modelcontextprotocol/clientCapabilities' in the request's params._meta"
  )
}
