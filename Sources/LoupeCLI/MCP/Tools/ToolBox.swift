import LoupeCore

/// The tools of `loupe mcp` and what they share: the open sessions and the answer budget.
final class ToolBox: Sendable {
  static let all: [any LoupeTool.Type] = [
    OpenTool.self, StoresTool.self, TimelineTool.self, StateTool.self, WhyTool.self, DoctorTool.self,
    StatsTool.self, EffectsTool.self, MarkTool.self, SendTool.self, SetStateTool.self, SaveTool.self, CloseTool.self,
  ]

  let sessions: SessionRegistry
  let budget: AnswerBudget
  let log: @Sendable (String) -> Void

  init(sessions: SessionRegistry, budget: AnswerBudget = AnswerBudget(), log: @escaping @Sendable (String) -> Void) {
    self.sessions = sessions
    self.budget = budget
    self.log = log
  }

  var specs: [ToolSpec] { Self.all.map { $0.spec } }

  func tool(named name: String) -> (any LoupeTool.Type)? {
    Self.all.first { $0.spec.name == name }
  }

  /// Checks the arguments against the tool's schema, runs it, and keeps its text within the
  /// budget. Never throws: every failure is an `isError` result.
  func run(_ tool: any LoupeTool.Type, arguments: JSONObject) async -> ToolResult {
    let spec = tool.spec
    if let problem = JSONSchema.violation(of: spec.inputSchema, by: .object(arguments), at: "") {
      return ToolFailure.invalidArguments("\(spec.name): \(problem).").result
    }
    do throws(ToolFailure) {
      var result = try await tool.run(ToolArguments(object: arguments), in: self)
      result.text = budget.fit(result.text)
      return result
    } catch {
      log("loupe mcp: \(spec.name): \(error.code): \(error.message)")
      return error.result
    }
  }
}
