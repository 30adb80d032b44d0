import Foundation
import LoupeCore
import Testing

@testable import LoupeCLI

@Suite struct ToolSchemaTests {
  @Test func everyToolOfTheContractIsListedWithSchemas() {
    #expect(
      ToolBox.all.map { $0.spec.name } == [
        "loupe_open", "loupe_stores", "loupe_timeline", "loupe_state", "loupe_why", "loupe_doctor", "loupe_stats", "loupe_effects",
        "loupe_mark", "loupe_send", "loupe_set_state", "loupe_save", "loupe_close",
      ])
    for tool in ToolBox.all {
      let spec = tool.spec
      #expect(spec.inputSchema["type"] == "object", "\(spec.name)")
      #expect(spec.inputSchema["additionalProperties"] == false, "\(spec.name)")
      #expect(spec.outputSchema?["type"] == "object", "\(spec.name)")
    }
  }

  func violation(_ arguments: JSON) -> String? {
    JSONSchema.violation(of: TimelineTool.spec.inputSchema, by: arguments, at: "")
  }

  @Test func argumentsAreCheckedAgainstTheSchemaWithMessagesThatSayWhatToDo() {
    #expect(violation(["session": "s1", "limit": 10, "kinds": ["effect.*"]]) == nil)
    #expect(violation(["limit": 10]) == "'session' is required")
    #expect(violation(["session": "s1", "limit": "ten"]) == "'limit' must be an integer, not a string")
    #expect(violation(["session": "s1", "limit": 0]) == "'limit' must be at least 1, not 0")
    #expect(violation(["session": "s1", "limit": 501]) == "'limit' must be at most 500, not 501")
    #expect(violation(["session": "s1", "kinds": ["a", 3]]) == "'kinds[1]' must be a string, not a number")
    #expect(violation(["session": "s1", "limt": 3])?.hasPrefix("unknown argument 'limt'; the arguments are 'session', 'kinds'") == true)
    #expect(JSONSchema.violation(of: EffectsTool.spec.inputSchema, by: ["session": "s1", "status": "done"], at: "") == #"'status' must be one of "running", "ended", "all", not "done""#)
    #expect(JSONSchema.violation(of: OpenTool.spec.inputSchema, by: ["program": "x", "env": ["A": 1]], at: "") == "'env.A' must be a string, not a number")
  }
}

@Suite struct MCPSchemaDocumentTests {
  /// `protocol/mcp/tools.json` is exactly what `tools/list` answers (one tool per line);
  /// `LOUPE_UPDATE_GOLDEN=1` rewrites it.
  @Test func theProtocolPageListsTheToolsAsTheServerDoes() throws {
    let url = Fixtures.directory.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("protocol/mcp/tools.json")
    let actual = "[\n" + ToolBox.all.map { $0.spec.json.jsonText }.joined(separator: ",\n") + "\n]\n"
    if ProcessInfo.processInfo.environment["LOUPE_UPDATE_GOLDEN"] == "1" {
      try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try actual.write(to: url, atomically: true, encoding: .utf8)
      return
    }
    let expected = try String(contentsOf: url, encoding: .utf8)
    #expect(actual == expected, "protocol/mcp/tools.json is out of date: run the tests with LOUPE_UPDATE_GOLDEN=1")
  }
}
