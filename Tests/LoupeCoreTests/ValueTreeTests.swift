import Testing
import LoupeCore

/// ``ValueTree``: what `loupe state` prints — compact where a value fits, spread where not,
/// enum cases and tuples as Swift when the shape says so.
@Suite struct ValueTreeTests {
  static let state: JSON = [
    "query": "pay", "mode": ["loading": ["progress": 0.5]], "point": [1, 2],
    "rows": [["id": 1, "title": "Buy milk", "isDone": false], ["id": 2, "title": "Pay rent", "isDone": true]],
  ]
  static let shape = ValueShape(enums: ["mode"], tuples: ["mode.loading", "point"])

  @Test func withAndWithoutAShape() {
    #expect(
      ValueTree.render(Self.state, shape: Self.shape, width: 60, expandingRoot: true) == """
        {
          query: "pay"
          mode: .loading(progress: 0.5)
          point: (1, 2)
          rows: [
            [0]: {id: 1, title: "Buy milk", isDone: false}
            [1]: {id: 2, title: "Pay rent", isDone: true}
          ]
        }
        """)
    #expect(
      ValueTree.render(Self.state, width: 60) == """
        {
          query: "pay"
          mode: {loading: {progress: 0.5}}
          point: [1, 2]
          rows: [
            [0]: {id: 1, title: "Buy milk", isDone: false}
            [1]: {id: 2, title: "Pay rent", isDone: true}
          ]
        }
        """)
    // Fits: one line, unless the root is asked to open.
    #expect(ValueTree.render(["n": 1]) == "{n: 1}")
    #expect(ValueTree.render(["n": 1], expandingRoot: true) == "{\n  n: 1\n}")
    #expect(ValueTree.render(["loading": ["progress": 0.5]], shape: ValueShape(enums: [""], tuples: ["loading"]), expandingRoot: true) == ".loading(progress: 0.5)")
  }

  @Test func aCaseOrTupleTooWideIsSpread() {
    let mode: JSON = ["loading": ["progress": 0.5, "file": "a-rather-long-file-name.txt"]]
    #expect(
      ValueTree.render(mode, shape: ValueShape(enums: [""], tuples: ["loading"]), width: 30, cuttingLongValues: false) == """
        .loading(
          progress: 0.5
          file: "a-rather-long-file-name.txt"
        )
        """)
    #expect(
      ValueTree.render([1, "a-rather-long-file-name.txt"], shape: ValueShape(tuples: [""]), width: 20, cuttingLongValues: false) == """
        (
          1
          "a-rather-long-file-name.txt"
        )
        """)
  }

  @Test func longValuesAreCutForABudgetOnly() {
    let long = JSON.string(String(repeating: "x", count: 50))
    #expect(ValueTree.render(["s": long], width: 30) == "{\n  s: \"xxxxxxxxxxxxxxxxxxxxxxx…\n}")
    #expect(ValueTree.render(["s": long], width: 30, cuttingLongValues: false) == "{\n  s: \(long.jsonText)\n}")
  }

  @Test func aLongArrayIsNotWrittenOutToMeasureIt() {
    let rows = JSON.array((1...10_000).map { .int($0) })
    let text = ValueTree.render(["rows": rows], width: 30)
    #expect(text.hasPrefix("{\n  rows: [\n    [0]: 1\n    [1]: 2\n"))
    #expect(text.hasSuffix("    [9999]: 10000\n  ]\n}"))
  }
}
