import Foundation
import LoupeCore

/// `loupe_open`: launch a program, attach to a program's socket, or open a trace file.
enum OpenTool: LoupeTool {
  static let spec = ToolSpec(
    name: "loupe_open",
    title: "Open a Loupe session",
    description: """
      Opens a session on a program that uses Loupe's store, and returns its id for the other tools. \
      Give exactly one of: 'program' (launch it with 'args' and 'env'; LOUPE=stdio is set, and its events from \
      the very start are recorded), 'socket' (attach to a program running with LOUPE=unix:PATH), or 'trace' \
      (a .loupe recording). Several sessions may be open at once. A launched program is ended when its \
      session is closed or when the MCP client leaves. Start with loupe_doctor on the new session, then \
      loupe_timeline, loupe_why and loupe_state.
      """,
    inputSchema: JSONSchema.object([
      ("program", JSONSchema.string("A program to launch: a path, or a name looked up in PATH.")),
      ("args", JSONSchema.stringArray("The program's arguments.")),
      ("env", JSONSchema.stringMap("Environment variables to add for the program (LOUPE is set to stdio by loupe).")),
      ("socket", JSONSchema.string("The Unix socket path of a program running with LOUPE=unix:PATH.")),
      ("trace", JSONSchema.string("A trace file (.loupe) to open.")),
      ("timeoutSeconds", JSONSchema.integer("How long to wait for a live program to answer (default 15).", minimum: 1, maximum: 300)),
    ]),
    outputSchema: JSONSchema.object(
      [
        ("session", JSONSchema.string("The session id to give the other tools.")),
        ("kind", JSONSchema.string("What was opened.", enum: ["launch", "socket", "trace"])),
        ("source", JSONSchema.string("The command, socket path or trace path.")),
      ] + SessionOverview.schemaProperties, required: ["session", "kind", "source", "program", "events"], closed: false),
    readOnly: false)

  static func run(_ arguments: ToolArguments, in box: ToolBox) async throws(ToolFailure) -> ToolResult {
    let given = ["program", "socket", "trace"].filter { arguments.object[$0] != nil }
    guard given.count == 1 else {
      throw .invalidArguments(
        given.isEmpty
          ? "loupe_open needs one of 'program' (launch), 'socket' (attach) or 'trace' (a recording)."
          : "loupe_open takes one of 'program', 'socket' or 'trace', not \(given.map { "'\($0)'" }.joined(separator: " and ")).")
    }
    if given[0] != "program", arguments.object["args"] != nil || arguments.object["env"] != nil {
      throw .invalidArguments("'args' and 'env' go with 'program' (a program to launch).")
    }
    let id = await box.sessions.reserveID()
    let session: MCPSession
    if let path = arguments.string("trace") {
      session = try openTrace(path, id: id)
    } else {
      let source: MCPSession.Source
      if let program = arguments.string("program") {
        guard !program.isEmpty else { throw .invalidArguments("'program' is empty.") }
        source = .launched(command: [program] + (arguments.strings("args") ?? []))
      } else {
        source = .socket(path: arguments.string("socket")!)
      }
      var environment: [String: String] = [:]
      for member in arguments.object["env"]?.objectValue ?? JSONObject() {
        environment[member.key] = member.value.stringValue
      }
      let timeout = Duration.seconds(arguments.int("timeoutSeconds") ?? 15)
      session = try await LiveConnector.connect(.init(source: source, environment: environment, timeout: timeout), id: id, log: box.log)
    }
    await box.sessions.add(session)
    let overview = try SessionOverview(session)
    var structured: JSONObject = [
      "session": .string(session.id), "kind": .string(session.source.kind), "source": .string(session.source.name),
    ]
    for member in overview.json { structured.append(member.key, member.value) }
    var text = "Opened session \(session.id): \(session.source.kind) \(session.source.name)\n"
    text += overview.text(box.budget)
    text += "\nNext: loupe_doctor {\"session\": \"\(session.id)\"} for known pitfalls, loupe_timeline for the events, loupe_stores for the stores.\n"
    return ToolResult(text: text, structured: structured)
  }

  private static func openTrace(_ path: String, id: String) throws(ToolFailure) -> MCPSession {
    do {
      _ = try TraceInput.open(path)
    } catch {
      let code = FileManager.default.fileExists(atPath: path) ? "not-a-trace" : "io-error"
      throw ToolFailure(code, error.message + (path.hasPrefix("/") ? "" : " (relative paths start at \(FileManager.default.currentDirectoryPath))"))
    }
    return MCPSession(id: id, source: .trace(path: path), tracePath: path, model: try SharedModel.indexing(path))
  }
}
