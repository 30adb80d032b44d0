import LoupeCore
import LoupeRPC

/// `loupe_set_state`: replaces a live root store's state (CONTRACT §16).
enum SetStateTool: LoupeTool {
  static let spec = ToolSpec(
    name: "loupe_set_state",
    title: "Replace a store's state in the program",
    description: """
      Replaces the whole state of a root store in a live session's program (no reducer runs, no effect starts; \
      scoped stores and derived values follow). The program must allow it (started with LOUPE_CONTROL=1; \
      loupe_open 'env' can set it), else the answer is control-not-allowed. 'state' is written as Loupe shows \
      states: what loupe_state answers without 'path' (a recording's state at any seq can be loaded as it is). \
      The store's State must be Decodable; one that does not decode is refused naming the type and the part. \
      Redacted paths keep the program's values. A scoped store is refused: set its root's state. The program \
      marks it as 'setState STORE by loupe mcp' (the returned seq) and its state.changed events have origin \
      'tool' and that mark as their cause.
      """,
    inputSchema: JSONSchema.object(
      [
        SessionArgument.schema,
        ("store", JSONSchema.string("A root store id, e.g. PageFeature#1 (see loupe_stores).")),
        ("state", JSONSchema.any("The whole state in Loupe's rendered form, e.g. {\"id\": 1, \"count\": 7, \"isSelected\": true}.")),
      ], required: ["session", "store", "state"]),
    outputSchema: JSONSchema.object(
      [
        ("store", JSONSchema.string("The store whose state was replaced.")),
        ("seq", JSONSchema.nullable("integer", "The seq of the mark that names the change, the cause of its state.changed events (null when the program emitted none).")),
      ], required: ["store", "seq"]),
    readOnly: false, destructive: true, idempotent: true)

  static func run(_ arguments: ToolArguments, in box: ToolBox) async throws(ToolFailure) -> ToolResult {
    let (session, client) = try await ControlRequest.liveSession(arguments, in: box, verb: "set the state of")
    let store = try arguments.required("store")
    guard let state = arguments.object["state"] else { throw .invalidArguments("'state' is required") }
    let result = try await ControlRequest.send(SetStateRequest(store: store, state: state), to: client, session: session)
    await ControlRequest.waitForEvent(result.seq, in: session)
    var text = "Set the state of \(store)"
    if let seq = result.seq {
      text += ": mark #\(seq) \"setState \(store) by loupe mcp\"; the state.changed events that follow have origin tool and cause #\(seq).\n"
      text += "Next: loupe_state {\"session\": \"\(session.id)\", \"store\": \"\(store)\"} for the state now.\n"
    } else {
      text += " (the program emitted no event for it).\n"
    }
    return ToolResult(text: text, structured: ["store": .string(store), "seq": result.seq.map(JSON.int) ?? .null])
  }
}
