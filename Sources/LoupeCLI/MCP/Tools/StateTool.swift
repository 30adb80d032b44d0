import LoupeCore

/// `loupe_state`: a store's state (or the value at a path in it) right after an event.
enum StateTool: LoupeTool {
  static let spec = ToolSpec(
    name: "loupe_state",
    title: "Read a store's state",
    description: """
      The state of 'store' (an id from loupe_stores) right after event 'at' (default: the newest), or only \
      the value at 'path' in it (e.g. "count", "pages[id: 2].title", "rows[3]", "settings[\\"theme\\"]"). \
      Large values are summarised: at most 20 members or elements per level and 4 levels deep; the answer \
      lists what it left out with the path to ask for next.
      """,
    inputSchema: JSONSchema.object(
      [
        SessionArgument.schema,
        ("store", JSONSchema.string("The store id, e.g. AppFeature#1/pages[id: 2].")),
        ("path", JSONSchema.string("A state path inside the store (default: the whole state).")),
        ("at", JSONSchema.integer("A seq: the state right after that event (default: the newest).", minimum: 0)),
      ], required: ["session", "store"]),
    outputSchema: JSONSchema.object(
      [
        ("store", JSONSchema.string("The store.")),
        ("path", JSONSchema.string("The path asked for (\"\" for the whole state).")),
        ("at", JSONSchema.integer("The seq the value is for.")),
        ("value", JSONSchema.any("The value, summarised to the budget (see 'elided').")),
        ("complete", JSONSchema.boolean("Whether the summary left nothing out.")),
        ("approximate", JSONSchema.boolean("Whether the state was rebuilt without a full snapshot (only what changes wrote is known), CONTRACT §10.")),
        (
          "elided",
          JSONSchema.array(
            JSONSchema.object(
              [("path", JSONSchema.string("Where something was left out.")), ("omitted", JSONSchema.string("What."))],
              required: ["path", "omitted"]), description: "What the summary left out; ask for these paths.")
        ),
      ], required: ["store", "path", "at", "value", "complete", "approximate", "elided"]),
    readOnly: true)

  static func run(_ arguments: ToolArguments, in box: ToolBox) async throws(ToolFailure) -> ToolResult {
    let session = try await SessionArgument.session(arguments, in: box)
    let store = try arguments.required("store")
    let pathText = arguments.string("path") ?? ""
    let path: StatePath
    do {
      path = try StatePath(parsing: pathText)
    } catch {
      throw .invalidArguments("'path': \(error.message). Paths look like count, pages[id: 2].title, rows[3], settings[\"theme\"].")
    }
    let (value, approximate, at, shape) = try session.model.read { model throws(ToolFailure) in
      let position = try model.position(at: arguments.int("at"), session: session.id)
      let at = model.seq(at: position)
      let alive = model.stores(at: position)
      guard alive.contains(where: { $0.id == store }) else {
        let names = alive.prefix(10).map(\.id).joined(separator: ", ")
        throw ToolFailure(
          "no-such-store",
          "No store '\(store)' is alive right after #\(at). Alive then: \(names.isEmpty ? "none" : names)\(alive.count > 10 ? ", …" : "") (see loupe_stores).")
      }
      guard let state = model.state(of: store, at: position) else {
        throw ToolFailure(
          "not-recorded",
          "Nothing of \(store)'s state is known right after #\(at): the trace has no state snapshot of it (CONTRACT §10) and no change wrote to it yet.")
      }
      guard let found = state.at(path) else {
        throw ToolFailure(
          "no-such-path",
          "\(store) has no value at '\(path)' right after #\(at)\(state.approximate ? " (as far as this trace tells: it holds changes, not a snapshot of this store)" : ""). Ask for a shorter path; its members are listed in loupe_state without 'path'.")
      }
      return (found.value, found.approximate, at, found.shape)
    }
    let (summary, elided) = box.budget.summarize(value, at: path)
    let subject = path.isRoot ? "State of \(store)" : "\(store) \(path)"
    var text = "\(subject) right after #\(at):\n"
    if approximate {
      text += "(Approximate: rebuilt from changes without a full snapshot, so only the parts that changes wrote are known.)\n"
    }
    text += ValueTree.render(summary, shape: shape) + "\n"
    if !elided.isEmpty {
      text += "Left out (ask loupe_state with one of these paths):\n"
      for elision in elided.prefix(box.budget.listLimit) {
        text += box.budget.line("- \(elision.path.isEmpty ? "(the whole state)" : elision.path): \(elision.what)") + "\n"
      }
    }
    return ToolResult(
      text: text,
      structured: [
        "store": .string(store), "path": .string(path.description), "at": .int(at), "value": summary, "complete": .bool(elided.isEmpty),
        "approximate": .bool(approximate),
        "elided": .array(elided.prefix(box.budget.listLimit).map(\.json)),
      ])
  }
}
