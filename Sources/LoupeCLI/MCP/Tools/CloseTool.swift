import LoupeCore

/// `loupe_close`: ends a session (and the program it launched).
enum CloseTool: LoupeTool {
  static let spec = ToolSpec(
    name: "loupe_close",
    title: "Close a session",
    description: """
      Closes a session. A program that loupe_open launched is ended (SIGTERM, then SIGKILL after 2 seconds); \
      a program attached over its socket keeps running. A live session's recording is deleted: loupe_save it \
      first to keep it. The id is not reused.
      """,
    inputSchema: JSONSchema.object([SessionArgument.schema], required: ["session"]),
    outputSchema: JSONSchema.object(
      [
        ("session", JSONSchema.string("The closed session.")),
        ("program", JSONSchema.nullable("string", "How the launched program ended; null for a trace or a socket.")),
      ], required: ["session", "program"]),
    readOnly: false)

  static func run(_ arguments: ToolArguments, in box: ToolBox) async throws(ToolFailure) -> ToolResult {
    let session = try await box.sessions.close(try arguments.required("session"))
    let ended = session.program?.exitStatus.map { "\($0)" }
    var text = "Closed session \(session.id) (\(session.source.kind) \(session.source.name))."
    switch session.source {
    case .launched: text += " The program \(ended ?? "was ended")."
    case .socket, .tcp: text += " The program keeps running."
    case .trace: break
    }
    return ToolResult(text: text + "\n", structured: ["session": .string(session.id), "program": ended.map(JSON.string) ?? .null])
  }
}
