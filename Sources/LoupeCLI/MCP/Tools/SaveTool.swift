import Foundation
import LoupeCore
import LoupeSession

/// `loupe_save`: writes the session so far as a trace file.
enum SaveTool: LoupeTool {
  static let spec = ToolSpec(
    name: "loupe_save",
    title: "Save the session as a trace",
    description: """
      Writes every event of the session so far to a trace file (.loupe, JSON Lines) that 'loupe show', \
      'loupe doctor', 'loupe replay' and loupe_open read: for a bug report, or to keep a live session before \
      closing it. Replaces a file already at 'path'.
      """,
    inputSchema: JSONSchema.object(
      [SessionArgument.schema, ("path", JSONSchema.string("Where to write the trace, e.g. bug.loupe."))], required: ["session", "path"]),
    outputSchema: JSONSchema.object(
      [
        ("path", JSONSchema.string("The file written.")),
        ("events", JSONSchema.integer("Events written.")),
        ("lastSeq", JSONSchema.nullable("integer", "The newest event written.")),
      ], required: ["path", "events", "lastSeq"]),
    readOnly: false)

  static func run(_ arguments: ToolArguments, in box: ToolBox) async throws(ToolFailure) -> ToolResult {
    let session = try await SessionArgument.session(arguments, in: box)
    let path = try arguments.required("path")
    guard !path.isEmpty else { throw .invalidArguments("'path' is empty.") }
    let target = URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
    let source = URL(fileURLWithPath: session.tracePath).standardizedFileURL.resolvingSymlinksInPath().path
    if target == source { throw .invalidArguments("'\(path)' is the session's own trace; give another path.") }
    let reader = try SessionArgument.reader(session)
    var events = 0
    var lastSeq: Int?
    do throws(TraceError) {
      let writer = try TraceWriter(path: path, header: reader.header)
      var batch: [[UInt8]] = []
      while let item = try reader.next(decode: false) {
        batch.append(Array(item.bytes))
        events += 1
        lastSeq = item.seq
        if batch.count == 4096 {
          try writer.appendLines(batch)
          batch.removeAll(keepingCapacity: true)
        }
      }
      try writer.appendLines(batch)
      try writer.close()
    } catch {
      throw ToolFailure("io-error", error.description)
    }
    let text = "Saved \(Formatting.plural(events, "event"))\(lastSeq.map { " (up to #\($0))" } ?? "") of session \(session.id) to \(path).\n"
    return ToolResult(text: text, structured: ["path": .string(path), "events": .int(events), "lastSeq": lastSeq.map(JSON.int) ?? .null])
  }
}
