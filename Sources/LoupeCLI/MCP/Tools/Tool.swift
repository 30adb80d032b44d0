import LoupeCore

/// One MCP tool of `loupe mcp` (CONTRACT §12): its published description and schemas, and
/// what it does. Each tool is a type in its own file; ``ToolBox/all`` lists them.
protocol LoupeTool: Sendable {
  static var spec: ToolSpec { get }
  /// Runs the tool on arguments already checked against ``ToolSpec/inputSchema``.
  static func run(_ arguments: ToolArguments, in box: ToolBox) async throws(ToolFailure) -> ToolResult
}

/// What `tools/list` says about a tool.
struct ToolSpec: Sendable {
  var name: String
  var title: String
  var description: String
  var inputSchema: JSON
  /// The shape of the result's `structuredContent` (successful results only).
  var outputSchema: JSON?
  /// The tool only reads (MCP's `readOnlyHint`); `loupe_open`, `loupe_mark`, `loupe_save` and
  /// `loupe_close` change something.
  var readOnly: Bool
  /// The tool may overwrite or delete what is there (MCP's `destructiveHint`): the control
  /// tools, which act on the program (an action can delete, a state replaces).
  var destructive = false
  /// Calling it again with the same arguments changes nothing more (MCP's `idempotentHint`),
  /// published for the tools that change the program.
  var idempotent: Bool? = nil

  var json: JSON {
    var object: JSONObject = [
      "name": .string(name), "title": .string(title), "description": .string(description), "inputSchema": inputSchema,
    ]
    if let outputSchema { object.append("outputSchema", outputSchema) }
    var annotations: JSONObject = ["title": .string(title), "readOnlyHint": .bool(readOnly), "destructiveHint": .bool(destructive)]
    if let idempotent { annotations.append("idempotentHint", .bool(idempotent)) }
    annotations.append("openWorldHint", false)
    object.append("annotations", .object(annotations))
    return .object(object)
  }
}

/// A tool's answer: text a model reads first, and the same facts as `structuredContent`.
struct ToolResult: Sendable {
  var text: String
  var structured: JSONObject
  var isError = false

  var json: JSON {
    var object: JSONObject = ["content": [["type": "text", "text": .string(text)]]]
    if !isError { object.append("structuredContent", .object(structured)) }
    object.append("isError", .bool(isError))
    return .object(object)
  }
}

/// Why a tool could not do what it was asked: a stable code and a sentence that says what to do
/// instead. Sent as a result with `isError: true` (the model reads it and corrects itself).
struct ToolFailure: Error, Sendable, Equatable {
  /// `invalid-arguments`, `no-such-session`, `launch-failed`, `not-a-trace`, `no-such-event`,
  /// `no-such-store`, `no-such-path`, `not-live`, `io-error`, `timeout`, `protocol-error`;
  /// for the control tools `control-not-allowed` (`-32004`) and `refused` (`-32602`).
  var code: String
  var message: String

  init(_ code: String, _ message: String) {
    self.code = code
    self.message = message
  }

  static func invalidArguments(_ message: String) -> ToolFailure { ToolFailure("invalid-arguments", message) }

  var result: ToolResult {
    ToolResult(text: "Error (\(code)): \(message)", structured: ["error": ["code": .string(code), "message": .string(message)]], isError: true)
  }
}

/// A tool's arguments, checked against its input schema before the tool runs.
struct ToolArguments: Sendable {
  var object: JSONObject

  func string(_ name: String) -> String? { object[name]?.stringValue }
  func int(_ name: String) -> Int? { object[name]?.intValue }
  func bool(_ name: String) -> Bool? { object[name]?.boolValue }
  func strings(_ name: String) -> [String]? { object[name]?.arrayValue?.compactMap(\.stringValue) }

  /// A required string (the schema has already made sure it is there).
  func required(_ name: String) throws(ToolFailure) -> String {
    guard let value = string(name) else { throw .invalidArguments("'\(name)' is required") }
    return value
  }
}
