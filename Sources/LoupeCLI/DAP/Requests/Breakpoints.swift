import Foundation
import LoupeCore

/// `setBreakpoints`, `setFunctionBreakpoints`, `setExceptionBreakpoints`,
/// `dataBreakpointInfo`, `setDataBreakpoints`, and the check of each event against them.
extension DAPSession {
  /// Source breakpoints: verified when the session has an event from that line (a recording),
  /// or always for a live program (its events from that line may come later).
  func setBreakpoints(_ request: DAPRequest) throws(DAPError) {
    let arguments = request.arguments
    guard let source = try arguments.nested("source") else { throw DAPError(.invalidArguments, "'setBreakpoints' needs 'source'.") }
    let file = DAPSourceMatch(path: try source.string("path"), name: try source.string("name"))
    var lines: [Int] = []
    if let objects = try arguments.objects("breakpoints") {
      for object in objects { lines.append(try object.requiredInt("line")) }
    } else if let legacy = arguments.value("lines")?.arrayValue {
      lines = legacy.compactMap(\.intValue)
    }
    var set: [DAPBreakpoints.Line] = []
    var answers: [JSON] = []
    for clientLine in lines {
      let line = clientLine + (linesStartAt1 ? 0 : 1)
      let breakpoint = DAPBreakpoints.Line(id: breakpoints.newID(), file: file, line: line)
      set.append(breakpoint)
      let known = model.indices(atLine: line).contains { index in
        EventDescription.source(model.event(at: index)).map { sources.matches(file, $0) } == true
      }
      var answer: JSONObject = ["id": .int(breakpoint.id), "verified": .bool(known || isLive), "line": .int(clientLine)]
      if !known {
        answer["message"] = .string(
          isLive
            ? "Stops when an action is sent or an effect created at this line."
            : "No action was sent and no effect created at this line in this recording.")
      }
      answers.append(.object(answer))
    }
    breakpoints.lines[file.key] = set
    channel.respond(to: request, body: ["breakpoints": .array(answers)])
  }

  func setFunctionBreakpoints(_ request: DAPRequest) throws(DAPError) {
    var functions: [DAPBreakpoints.Function] = []
    var answers: [JSON] = []
    for object in try request.arguments.objects("breakpoints") ?? [] {
      let name = try object.requiredString("name")
      let function = DAPBreakpoints.Function(id: breakpoints.newID(), glob: Glob(name))
      functions.append(function)
      answers.append(["id": .int(function.id), "verified": true])
    }
    breakpoints.functions = functions
    channel.respond(to: request, body: ["breakpoints": .array(answers)])
  }

  func setExceptionBreakpoints(_ request: DAPRequest) throws(DAPError) {
    let filters = try request.arguments.strings("filters") ?? []
    let known = Set(DAPCapabilities.exceptionFilters.map(\.filter))
    if let unknown = filters.first(where: { !known.contains($0) }) {
      throw DAPError(.invalidArguments, "Unknown exception filter '\(unknown)'; loupe dap has: \(known.sorted().joined(separator: ", ")).")
    }
    breakpoints.exceptionFilters = Set(filters)
    channel.respond(to: request, body: ["breakpoints": .array(filters.map { _ in ["verified": true] })])
  }

  /// A data breakpoint is a store's state path. From the Variables view (a `variablesReference`
  /// under a `State` scope, and a child's `name`), or from an expression (a state path in the
  /// selected frame's store).
  func dataBreakpointInfo(_ request: DAPRequest) throws(DAPError) {
    try requireOpen(request.command)
    let arguments = request.arguments
    let name = try arguments.requiredString("name")
    var target: (store: String, path: StatePath)?
    if let reference = try arguments.int("variablesReference"), reference > 0 {
      if case .value(let value, _, let store?, let path?)? = references.node(reference) {
        switch value {
        case .array(let array):
          if let offset = Int(name.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))), array.indices.contains(offset) {
            target = (store, path.appending(Self.component(for: array[offset], at: offset)))
          }
        default:
          target = (store, path.appending(Self.component(forKey: name)))
        }
      }
    } else if let stop {
      let (store, _) = try storeAndIndex(frameID: try arguments.int("frameId"), stop: stop)
      target = (store, try Self.parsePath(name))
    }
    guard let target else {
      channel.respond(to: request, body: ["dataId": .null, "description": "Only values in a store's State can be watched."])
      return
    }
    let pathText = target.path.components.isEmpty ? "the state" : target.path.description
    channel.respond(
      to: request,
      body: [
        "dataId": .string(Self.dataID(store: target.store, path: target.path)),
        "description": .string("When a change touches \(pathText) of \(target.store)"),
        "accessTypes": ["write"], "canPersist": true,
      ])
  }

  func setDataBreakpoints(_ request: DAPRequest) throws(DAPError) {
    var data: [DAPBreakpoints.Data] = []
    var answers: [JSON] = []
    for object in try request.arguments.objects("breakpoints") ?? [] {
      let dataID = try object.requiredString("dataId")
      guard let (store, path) = Self.parseDataID(dataID) else {
        answers.append(["verified": false, "message": .string("Not a dataId from loupe dap: \(dataID)")])
        continue
      }
      let breakpoint = DAPBreakpoints.Data(id: breakpoints.newID(), store: store, path: path)
      data.append(breakpoint)
      answers.append(["id": .int(breakpoint.id), "verified": true])
    }
    breakpoints.data = data
    channel.respond(to: request, body: ["breakpoints": .array(answers)])
  }

  /// `STORE` + tab + `PATH`: what `dataBreakpointInfo` hands out and `setDataBreakpoints` reads.
  static func dataID(store: String, path: StatePath) -> String { store + "\t" + path.description }

  static func parseDataID(_ id: String) -> (String, StatePath)? {
    guard let tab = id.firstIndex(of: "\t") else { return nil }
    let store = String(id[..<tab])
    guard let path = try? StatePath(parsing: String(id[id.index(after: tab)...])) else { return nil }
    return (store, path)
  }

  /// Whether the event at `index` can hit a breakpoint, from the model's index alone: a
  /// `continue` through a large recording reads only the events that might stop it.
  private func mayHit(at index: Int) -> Bool {
    let kind = model.kind(at: index)
    if !breakpoints.functions.isEmpty, kind == .action { return true }
    if !breakpoints.data.isEmpty, kind == .change { return true }
    if !breakpoints.exceptionFilters.isEmpty, kind != .action, kind != .change, kind != .effectStarted, kind != .snapshot {
      return true
    }
    for list in breakpoints.lines.values {
      for line in list where model.hasSource(at: index, line: line.line) { return true }
    }
    return false
  }

  /// The breakpoints the event at `index` hits (only events the launch `filter` passes).
  func breakpointHit(at index: Int) -> (reason: String, description: String, ids: [Int])? {
    guard !breakpoints.isEmpty, mayHit(at: index) else { return nil }
    let event = model.event(at: index)
    guard filter.matches(event) else { return nil }
    var ids: [Int] = []
    var reason: String?
    var notes: [String] = []
    if let location = EventDescription.source(event) {
      for list in breakpoints.lines.values {
        for line in list where line.line == location.line && sources.matches(line.file, location) {
          ids.append(line.id)
          reason = reason ?? "breakpoint"
          notes.append("line \(location.shortDescription)")
        }
      }
    }
    if case .actionReceived(let e) = event.payload {
      for function in breakpoints.functions where DAPBreakpoints.functionMatches(function.glob, e.action) {
        ids.append(function.id)
        reason = reason ?? "function breakpoint"
        notes.append("action \(function.glob.pattern)")
      }
    }
    if case .stateChanged(let e) = event.payload {
      for watch in breakpoints.data where watch.store == e.store {
        let touched = e.changes.contains { change in
          (try? StatePath(parsing: change.path)).map { DAPBreakpoints.touches($0, watch.path) } == true
        }
        if touched {
          ids.append(watch.id)
          reason = reason ?? "data breakpoint"
          notes.append("\(watch.path.components.isEmpty ? "state" : watch.path.description) changed")
        }
      }
    }
    if !breakpoints.exceptionFilters.isEmpty {
      for code in doctorSignals.codes(at: index, in: model) where breakpoints.exceptionFilters.contains(code) {
        reason = reason ?? "exception"
        notes.append(code)
      }
    }
    guard let reason else { return nil }
    return (reason, "Stopped at #\(event.seq) (\(notes.joined(separator: ", "))): " + EventDescription.summary(event), ids)
  }
}
