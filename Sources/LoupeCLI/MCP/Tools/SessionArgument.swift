import LoupeCore
import LoupeSession

/// The `session` argument every tool but `loupe_open` takes, and reading its trace.
enum SessionArgument {
  static let schema: (String, JSON) = ("session", JSONSchema.string("The session id loupe_open returned, e.g. \"s1\"."))

  static func session(_ arguments: ToolArguments, in box: ToolBox) async throws(ToolFailure) -> MCPSession {
    try await box.sessions.session(try arguments.required("session"))
  }

  /// Fails for a live session whose program has sent no event yet.
  static func requireEvents(_ session: MCPSession) throws(ToolFailure) {
    if session.isLive, (session.recording?.eventCount ?? 0) == 0 {
      throw ToolFailure(
        "no-events", "Session \(session.id) has no events yet (the program has not created a store). Ask again in a moment.")
    }
  }

  /// The header of the session's trace (a live session's recording): read from the file's
  /// start, without its events.
  static func header(_ session: MCPSession) throws(ToolFailure) -> TraceHeader {
    do {
      return try TraceReader(path: session.tracePath).header
    } catch {
      throw ToolFailure("io-error", error.description)
    }
  }

  /// A reader of the session's events so far.
  static func reader(_ session: MCPSession) throws(ToolFailure) -> TraceReader {
    try requireEvents(session)
    do {
      return try TraceInput.open(session.tracePath)
    } catch {
      throw ToolFailure("io-error", error.message)
    }
  }
}
