import LoupeCore
import LoupeRPC

/// `loupe_mark`: puts a labelled `mark` event into a live program's stream.
enum MarkTool: LoupeTool {
  static let spec = ToolSpec(
    name: "loupe_mark",
    title: "Mark a moment",
    description: """
      Inserts a 'mark' event with a label into a live session (the program numbers it like its own events), \
      e.g. before and after reproducing a bug, so loupe_timeline can show what happened between the marks. \
      Live sessions only: a trace is a finished recording.
      """,
    inputSchema: JSONSchema.object(
      [SessionArgument.schema, ("label", JSONSchema.string("The mark's label, e.g. \"before swipe\"."))], required: ["session", "label"]),
    outputSchema: JSONSchema.object([("seq", JSONSchema.integer("The mark's seq."))], required: ["seq"]),
    readOnly: false)

  static func run(_ arguments: ToolArguments, in box: ToolBox) async throws(ToolFailure) -> ToolResult {
    let session = try await SessionArgument.session(arguments, in: box)
    let label = try arguments.required("label")
    guard let client = session.client else {
      throw ToolFailure("not-live", "Session \(session.id) is a trace: marks go into a live program. Open one with loupe_open {\"program\": …}.")
    }
    let seq: Int
    do {
      seq = try await client.send(MarkRequest(label: label)).seq
    } catch {
      throw ToolFailure("protocol-error", "The program did not take the mark: \(error) (program \(session.liveStatus ?? "gone")).")
    }
    return ToolResult(text: "Marked #\(seq) \"\(label)\" in session \(session.id).\n", structured: ["seq": .int(seq)])
  }
}
