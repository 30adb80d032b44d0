import LoupeCore
import LoupeSession

/// The `session` argument every tool but `loupe_open` takes, and reading its trace.
enum SessionArgument {
  static let schema: (String, JSON) = ("session", JSONSchema.string("The session id loupe_open returned, e.g. \"s1\"."))

  static func session(_ arguments: ToolArguments, in box: ToolBox) async throws(ToolFailure) -> MCPSession {
    try await box.sessions.session(try arguments.required("session"))
  }

  /// A reader of the session's events so far.
  static func reader(_ session: MCPSession) throws(ToolFailure) -> TraceReader {
    if session.isLive, (session.recording?.eventCount ?? 0) == 0 {
      throw ToolFailure(
        "no-events", "Session \(session.id) has no events yet (the program has not created a store). Ask again in a moment.")
    }
    do {
      return try TraceInput.open(session.tracePath)
    } catch {
      throw ToolFailure("io-error", error.message)
    }
  }
}
