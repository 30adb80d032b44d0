import LoupeCore

/// The ids `loupe dap` hands out while stopped: stack frames and expandable variables.
/// DAP makes them valid only until the view moves, so every move starts a fresh table.
struct DAPReferences: Sendable {
  /// A stack frame: an event, seen from a thread.
  struct Frame: Sendable {
    var index: Int
    var thread: Int
  }

  /// What a `variablesReference` expands to.
  enum Node: Sendable {
    /// A value; `shape` where its enum cases and tuples are (so its children read as Swift);
    /// `store` and `path` when it is part of a store's state (for data breakpoints and
    /// `evaluateName`).
    case value(JSON, shape: ValueShape? = nil, store: String?, path: StatePath?)
    /// A list of named children computed up front (scopes like `Changes` and `Effects`).
    case list([DAPVariable])
  }

  private(set) var frames: [Frame] = []
  private(set) var nodes: [Node] = []

  mutating func reset() {
    frames = []
    nodes = []
  }

  mutating func add(_ frame: Frame) -> Int {
    frames.append(frame)
    return frames.count
  }

  func frame(_ id: Int) -> Frame? {
    frames.indices.contains(id - 1) ? frames[id - 1] : nil
  }

  /// A reference for `node`; ids start at 1 (0 means "nothing to expand").
  mutating func add(_ node: Node) -> Int {
    nodes.append(node)
    return nodes.count
  }

  func node(_ id: Int) -> Node? {
    nodes.indices.contains(id - 1) ? nodes[id - 1] : nil
  }
}

/// One row of the Variables view.
struct DAPVariable: Sendable {
  var name: String
  var value: String
  var type: String?
  var variablesReference = 0
  var indexedVariables: Int?
  var namedVariables: Int?
  var evaluateName: String?

  var json: JSON {
    var object: JSONObject = ["name": .string(name), "value": .string(value), "variablesReference": .int(variablesReference)]
    if let type { object["type"] = .string(type) }
    if let indexedVariables { object["indexedVariables"] = .int(indexedVariables) }
    if let namedVariables { object["namedVariables"] = .int(namedVariables) }
    if let evaluateName { object["evaluateName"] = .string(evaluateName) }
    return .object(object)
  }
}
