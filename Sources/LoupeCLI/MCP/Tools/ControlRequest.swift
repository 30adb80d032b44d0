import LoupeClient
import LoupeCore
import LoupeRPC
import LoupeSession

/// What `loupe_send` and `loupe_set_state` share (CONTRACT §16): the live session they act on,
/// the program's request, and its refusals as tool errors with the program's own words.
///
/// The program sees the action or the new state as coming from the client named `loupe mcp`
/// (the session's `initialize`), with origin `tool`, like every client watching it.
enum ControlRequest {
  /// The live session to act on; a recording refuses: it has no program.
  static func liveSession(_ arguments: ToolArguments, in box: ToolBox, verb: String) async throws(ToolFailure) -> (MCPSession, LoupeClient) {
    let session = try await SessionArgument.session(arguments, in: box)
    guard let client = session.client else {
      throw ToolFailure(
        "not-live",
        "Session \(session.id) is a trace: a recording has no program to \(verb). Open the running program with loupe_open (\"program\" with \"env\": {\"LOUPE_CONTROL\": \"1\"}, or \"socket\"/\"tcp\" of one started with LOUPE_CONTROL=1)."
      )
    }
    return (session, client)
  }

  /// Sends `request`; the program's refusal is a tool error with its message: `-32004` (the
  /// program does not allow control) is `control-not-allowed`, `-32602` (an unknown store, a
  /// value that does not decode into the store's type, `setState` on a scoped store) `refused`.
  static func send<R: RequestType>(_ request: R, to client: LoupeClient, session: MCPSession) async throws(ToolFailure) -> R.Result {
    do {
      return try await client.send(request)
    } catch {
      switch error {
      case .response(let response) where response.code == .controlNotAllowed:
        var message = sentence(response.message)
        if case .launched = session.source {
          message += " Close this session and open the program again with \"env\": {\"LOUPE_CONTROL\": \"1\"}."
        }
        throw ToolFailure("control-not-allowed", message)
      case .response(let response) where response.code == .invalidParams:
        throw ToolFailure("refused", sentence(response.message))
      default:
        throw ToolFailure("protocol-error", "The program did not answer \(R.method): \(error) (program \(session.liveStatus ?? "gone")).")
      }
    }
  }

  /// Waits (at most two seconds) until the event `seq` has reached the session's model, so the
  /// next question about it (`loupe_why`) finds it.
  static func waitForEvent(_ seq: Int?, in session: MCPSession) async {
    guard let seq else { return }
    for _ in 0..<200 {
      let arrived = (try? session.model.read { model throws(ToolFailure) in (model.lastSeq ?? -1) >= seq }) ?? false
      if arrived { return }
      try? await Task.sleep(for: .milliseconds(10))
    }
  }

  /// The program's message as a sentence (with one full stop).
  private static func sentence(_ message: String) -> String {
    message.hasSuffix(".") ? message : message + "."
  }

  /// The value as one line, cut to fit a sentence.
  static func preview(_ value: JSON) -> String {
    Formatting.truncate(value.jsonText, limit: 200)
  }
}
