import LoupeCore
import LoupeRPC

/// `tools/list` and `tools/call`.
///
/// Which failures are which (MCP 2025-11-25, "Error Handling"): an unknown tool or a
/// `tools/call` whose params are not `{name, arguments?}` is a JSON-RPC `-32602`; arguments
/// that do not fit the tool's input schema, and everything that goes wrong while the tool runs
/// (a program that does not exist, a file that is not a trace, a session that is closed), is a
/// result with `isError: true` whose text says what to do, so the model can correct itself.
enum ToolMethods {
  static let list = "tools/list"
  static let call = "tools/call"

  static func list(tools: ToolBox, era: RequestEra?) -> JSON {
    var object: JSONObject = ["tools": .array(tools.specs.map(\.json))]
    if era?.isModern == true {
      // The list never changes while the server runs.
      object.append("ttlMs", 3_600_000)
      object.append("cacheScope", "public")
    }
    return LifecycleMethods.result(object, era: era)
  }

  static func call(_ params: JSON?, tools: ToolBox, era: RequestEra?) async throws(ResponseError) -> JSON {
    guard let params = params?.objectValue else {
      throw .invalidParams("Invalid params: 'tools/call' needs params {name, arguments}")
    }
    guard let name = params["name"]?.stringValue else {
      throw .invalidParams("Invalid params: 'name' must be a string (the tool's name)")
    }
    guard let tool = tools.tool(named: name) else {
      throw .invalidParams("Unknown tool '\(name)'. The tools are: \(tools.specs.map(\.name).joined(separator: ", "))")
    }
    let arguments: JSONObject
    switch params["arguments"] {
    case nil, .null?: arguments = JSONObject()
    case .object(let object)?: arguments = object
    case let other?: throw .invalidParams("Invalid params: 'arguments' must be an object, not \(other.typeName)")
    }
    let result = await tools.run(tool, arguments: arguments)
    return LifecycleMethods.result(result.json.objectValue ?? JSONObject(), era: era)
  }
}
