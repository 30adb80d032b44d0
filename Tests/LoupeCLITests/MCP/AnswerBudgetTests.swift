import LoupeCore
import Testing

@testable import LoupeCLI

@Suite struct AnswerBudgetTests {
  let budget = AnswerBudget()

  @Test func aTenThousandElementArrayIsSummarisedWithThePathToAskForMore() {
    let rows: JSON = .array((1...10_000).map { ["id": .int($0), "title": .string("Row \($0)")] })
    let state: JSON = ["rows": rows, "count": 10_000]
    let (value, elided) = budget.summarize(state, at: .root)
    #expect(value["rows"]?.arrayValue?.count == 20)
    #expect(value["count"] == 10_000)
    #expect(elided == [.init(path: "rows", what: "9,980 more elements of 10,000 (the next is rows[id: 21])")])
    #expect(value.jsonText.count < 1_000)
  }

  @Test func deepValuesAndLongStringsAreCut() {
    let deep: JSON = ["a": ["b": ["c": ["d": ["e": 1]]]], "text": .string(String(repeating: "é", count: 300))]
    let (value, elided) = budget.summarize(deep, at: "settings")
    #expect(value["a"]?["b"]?["c"]?["d"] == .object(JSONObject()))
    #expect(value["text"]?.stringValue?.count == 201)
    #expect(elided.map(\.path) == ["settings.a.b.c.d", "settings.text"])
    #expect(elided[0].what == "an object of 1 member")
  }

  @Test func textIsCutAtALineBreakAndSaysSo() {
    let text = (1...2_000).map { "line \($0)" }.joined(separator: "\n")
    let fitted = budget.fit(text)
    #expect(fitted.count <= budget.maximumCharacters)
    #expect(fitted.hasPrefix("line 1\nline 2\n"))
    #expect(fitted.hasSuffix("more were left out: ask for less (a smaller limit, a narrower filter or path)]\n"))
    #expect(budget.fit("short") == "short")
  }
}
