import LoupeCore
import LoupeSession

/// `loupe_stores`: the stores alive at a moment, as a tree.
enum StoresTool: LoupeTool {
  static let spec = ToolSpec(
    name: "loupe_stores",
    title: "List the stores",
    description: """
      The stores alive right after event 'at' (default: the newest event), parents before their children: \
      each store's id (the name the other tools take as 'store'), its feature type, its parent and its \
      identity. At most 40 are listed; the answer says how many more there are.
      """,
    inputSchema: JSONSchema.object(
      [SessionArgument.schema, ("at", JSONSchema.integer("A seq: the stores alive right after that event (default: the newest).", minimum: 0))],
      required: ["session"]),
    outputSchema: JSONSchema.object(
      [
        (
          "stores",
          JSONSchema.array(
            JSONSchema.object(
              [
                ("id", JSONSchema.string("The store id, e.g. AppFeature#1/pages[id: 2].")),
                ("type", JSONSchema.string("The feature's type.")),
                ("parent", JSONSchema.nullable("string", "The parent store's id; null for a root store.")),
                ("identity", JSONSchema.string("The identity behind the id now.")),
              ], required: ["id", "type", "parent", "identity"]))
        ),
        ("total", JSONSchema.integer("Stores alive in all.")),
        ("at", JSONSchema.integer("The seq the list is for (right after that event).")),
      ], required: ["stores", "total", "at"]),
    readOnly: true)

  static func run(_ arguments: ToolArguments, in box: ToolBox) async throws(ToolFailure) -> ToolResult {
    let session = try await SessionArgument.session(arguments, in: box)
    let (stores, at) = try session.model.read { model throws(ToolFailure) in
      let position = try model.position(at: arguments.int("at"), session: session.id)
      return (model.stores(at: position), model.seq(at: position))
    }
    let shown = stores.prefix(box.budget.listLimit)
    var text = "\(Formatting.plural(stores.count, "store")) alive in session \(session.id) right after #\(at):\n"
    for store in shown {
      let depth = store.id.split(separator: "/").count - 1
      var line = String(repeating: "  ", count: depth) + store.id + "  (\(store.type)"
      if store.identity != store.id { line += ", identity \(store.identity)" }
      text += box.budget.line(line + ")") + "\n"
    }
    if stores.count > shown.count {
      text += "… \(Formatting.count(stores.count - shown.count)) more stores not listed: loupe_timeline with kinds [\"store.created\"] and stores [GLOB] finds them.\n"
    }
    let rows: [JSON] = shown.map {
      ["id": .string($0.id), "type": .string($0.type), "parent": $0.parent.map(JSON.string) ?? .null, "identity": .string($0.identity)]
    }
    return ToolResult(text: text, structured: ["stores": .array(rows), "total": .int(stores.count), "at": .int(at)])
  }
}
