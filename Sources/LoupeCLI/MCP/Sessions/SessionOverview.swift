import LoupeCore
import LoupeSession

/// The head of answers about a session: what program, how many events so far, and how it is
/// doing. Read from the session model.
struct SessionOverview {
  var program: String
  var pid: Int
  var events: Int
  var lastSeq: Int?
  var stores: Int
  /// Stores the session has seen, alive or not.
  var storesSeen: Int
  /// A live session's state (`running`, `ended (exited with status 0)`, …); `nil` for a trace.
  var status: String?

  static let schemaProperties: [(String, JSON)] = [
    ("program", JSONSchema.string("The program's name.")),
    ("pid", JSONSchema.integer("The program's process id.")),
    ("events", JSONSchema.integer("Events in the session so far.")),
    ("lastSeq", JSONSchema.nullable("integer", "The seq of the newest event (null before the first).")),
    ("stores", JSONSchema.integer("Stores alive at the newest event.")),
    ("storesSeen", JSONSchema.integer("Stores the session has seen, alive or not.")),
    ("status", JSONSchema.nullable("string", "A live program's state: running, attached, closed or ended (…); null for a trace.")),
  ]

  init(_ session: MCPSession) throws(ToolFailure) {
    status = session.liveStatus
    (program, pid, events, lastSeq, stores, storesSeen) = try session.model.read { model in
      let header = model.header
      let stores = model.count > 0 ? model.stores(at: model.count - 1).count : 0
      return (
        header?.program ?? session.process?.name ?? session.source.name, header?.pid ?? session.process?.pid ?? 0, model.count,
        model.lastSeq, stores, model.allStores.count
      )
    }
  }

  var json: JSONObject {
    [
      "program": .string(program), "pid": .int(pid), "events": .int(events), "lastSeq": lastSeq.map(JSON.int) ?? .null,
      "stores": .int(stores), "storesSeen": .int(storesSeen), "status": status.map(JSON.string) ?? .null,
    ]
  }

  func text(_ budget: AnswerBudget) -> String {
    var line = "\(program.isEmpty ? "(unnamed program)" : program) (pid \(pid)): \(Formatting.plural(events, "event"))"
    if let lastSeq { line += " (newest #\(lastSeq))" }
    line += ", \(Formatting.plural(stores, "store")) alive\(lastSeq.map { " at #\($0)" } ?? "")"
    if storesSeen > stores { line += " of \(Formatting.count(storesSeen)) seen" }
    if let status { line += "; program \(status)" }
    return line + "\n"
  }
}
