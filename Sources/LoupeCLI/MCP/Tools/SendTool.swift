import LoupeCore
import LoupeRPC

/// `loupe_send`: sends an action to a store of a live program (CONTRACT §16).
enum SendTool: LoupeTool {
  static let spec = ToolSpec(
    name: "loupe_send",
    title: "Send an action to the program",
    description: """
      Sends an action to a store of a live session's program, as if the program had sent it: its reducer runs, \
      its effects start. The program must allow it (started with LOUPE_CONTROL=1; loupe_open 'env' can set it), \
      else the answer is control-not-allowed. 'action' is written as Loupe shows actions (the 'value' of an \
      action.received event): a case without payload as its name ("incrementTapped"), a case with one as an \
      object ({"queryChanged": "pay"}), so a recorded action can be sent again as it is. The store's Action must \
      be Decodable; one that does not decode is refused naming the type and the part. The program reports the \
      action with origin 'tool' and the client 'loupe mcp' to every client; loupe_why on the returned seq shows \
      what it did.
      """,
    inputSchema: JSONSchema.object(
      [
        SessionArgument.schema,
        ("store", JSONSchema.string("The store id, e.g. PageFeature#1 or AppFeature#1/pages[id: 2] (see loupe_stores).")),
        ("action", JSONSchema.any("The action in Loupe's rendered form: \"timerTicked\", {\"selected\": true}, …")),
      ], required: ["session", "store", "action"]),
    outputSchema: JSONSchema.object(
      [
        ("store", JSONSchema.string("The store the action was sent to.")),
        ("seq", JSONSchema.nullable("integer", "The seq of the action.received it caused (null when the program emitted none).")),
      ], required: ["store", "seq"]),
    readOnly: false, destructive: true, idempotent: false)

  static func run(_ arguments: ToolArguments, in box: ToolBox) async throws(ToolFailure) -> ToolResult {
    let (session, client) = try await ControlRequest.liveSession(arguments, in: box, verb: "send an action to")
    let store = try arguments.required("store")
    guard let action = arguments.object["action"] else { throw .invalidArguments("'action' is required") }
    let result = try await ControlRequest.send(SendRequest(store: store, action: action), to: client, session: session)
    await ControlRequest.waitForEvent(result.seq, in: session)
    var text = "Sent \(ControlRequest.preview(action)) to \(store)"
    if let seq = result.seq {
      text += " as #\(seq) (action.received, origin tool, client loupe mcp).\n"
      text += "Next: loupe_why {\"session\": \"\(session.id)\", \"seq\": \(seq)} for what it did.\n"
    } else {
      text += " (the program emitted no event for it).\n"
    }
    return ToolResult(text: text, structured: ["store": .string(store), "seq": result.seq.map(JSON.int) ?? .null])
  }
}
