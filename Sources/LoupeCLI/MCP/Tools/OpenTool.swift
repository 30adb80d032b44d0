import Foundation
import LoupeCore
import LoupeRPC

/// `loupe_open`: launch a program, attach to a program's socket, or open a trace file.
enum OpenTool: LoupeTool {
  static let spec = ToolSpec(
    name: "loupe_open",
    title: "Open a Loupe session",
    description: """
      Opens a session on a program that uses Loupe's store, and returns its id for the other tools. \
      Give exactly one of: 'program' (launch it with 'args' and 'env'; LOUPE=stdio is set, and its events from \
      the very start are recorded), 'socket' (attach to a program running with LOUPE=unix:PATH), 'tcp' with 'token' (attach to one \
      running with LOUPE=tcp:HOST:PORT, e.g. a device through iproxy), or 'trace' \
      (a .loupe recording). Several sessions may be open at once. A launched program is ended when its \
      session is closed or when the MCP client leaves. Start with loupe_doctor on the new session, then \
      loupe_timeline, loupe_why and loupe_state.
      """,
    inputSchema: JSONSchema.object([
      ("program", JSONSchema.string("A program to launch: a path, or a name looked up in PATH.")),
      ("args", JSONSchema.stringArray("The program's arguments.")),
      ("env", JSONSchema.stringMap("Environment variables to add for the program (LOUPE is set to stdio by loupe).")),
      ("socket", JSONSchema.string("The Unix socket path of a program running with LOUPE=unix:PATH.")),
      ("tcp", JSONSchema.string("HOST:PORT of a program running with LOUPE=tcp:HOST:PORT (loopback: a device through iproxy, a machine through ssh -L).")),
      ("token", JSONSchema.string("The token that program printed as 'loupe: token T' (default: LOUPE_TOKEN of the server's environment).")),
      ("trace", JSONSchema.string("A trace file (.loupe) to open.")),
      ("timeoutSeconds", JSONSchema.integer("How long to wait for a live program to answer (default 15).", minimum: 1, maximum: 300)),
    ]),
    outputSchema: JSONSchema.object(
      [
        ("session", JSONSchema.string("The session id to give the other tools.")),
        ("kind", JSONSchema.string("What was opened.", enum: ["launch", "socket", "tcp", "trace"])),
        ("source", JSONSchema.string("The command, socket path or trace path.")),
      ] + SessionOverview.schemaProperties, required: ["session", "kind", "source", "program", "events"], closed: false),
    readOnly: false)

  static func run(_ arguments: ToolArguments, in box: ToolBox) async throws(ToolFailure) -> ToolResult {
    let given = ["program", "socket", "tcp", "trace"].filter { arguments.object[$0] != nil }
    guard given.count == 1 else {
      throw .invalidArguments(
        given.isEmpty
          ? "loupe_open needs one of 'program' (launch), 'socket' or 'tcp' (attach) or 'trace' (a recording)."
          : "loupe_open takes one of 'program', 'socket', 'tcp' or 'trace', not \(given.map { "'\($0)'" }.joined(separator: " and ")).")
    }
    if given[0] != "program", arguments.object["args"] != nil || arguments.object["env"] != nil {
      throw .invalidArguments("'args' and 'env' go with 'program' (a program to launch).")
    }
    if given[0] != "tcp", arguments.object["token"] != nil {
      throw .invalidArguments("'token' goes with 'tcp' (a program listening with LOUPE=tcp:HOST:PORT).")
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
      } else if let address = arguments.string("tcp") {
        let endpoint: LoopbackEndpoint
        do {
          endpoint = try LoopbackEndpoint(parsing: address)
        } catch {
          throw .invalidArguments("'tcp': \(error)")
        }
        guard let token = arguments.string("token") ?? ProcessInfo.processInfo.environment["LOUPE_TOKEN"], !token.isEmpty else {
          throw .invalidArguments("'tcp' needs 'token': the program printed it as 'loupe: token T' (or set LOUPE_TOKEN for loupe mcp).")
        }
        source = .tcp(endpoint: endpoint, token: token)
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
