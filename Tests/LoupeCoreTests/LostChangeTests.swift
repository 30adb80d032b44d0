import Foundation
import Testing
@testable import LoupeCore

/// No change is lost without saying so: where a cap hides a change, it is still reported,
/// marked `truncated`; collections Loupe knows only by their mirror diff as collections;
/// strings and numbers compare by what the wire shows.
@Suite struct LostChangeTests {
  private func lines(_ changes: [Change]) -> [String] {
    changes.map { describe($0) + ($0.truncated ? " (truncated)" : "") }
  }

  private func diff<T>(_ old: T, _ new: T, options: RenderOptions = .default) -> [String] {
    lines(StateDiff.diff(old, new, options: options))
  }

  /// Changes that are not truncated must replay exactly on the capped renderings.
  private func expectExactReplay<T>(_ old: T, _ new: T, options: RenderOptions, sourceLocation: SourceLocation = #_sourceLocation) {
    let changes = StateDiff.diff(old, new, options: options)
    #expect(!changes.contains { $0.truncated }, sourceLocation: sourceLocation)
    let replayed = try? changes.apply(to: ValueRenderer.render(old, options: options))
    #expect(replayed == ValueRenderer.render(new, options: options), sourceLocation: sourceLocation)
  }

  // MARK: Depth

  @Test func aChangeBelowTheDepthCapIsReportedTruncated() {
    let options = RenderOptions(maxDepth: 1)
    #expect(diff(["a": ["b": 1]], ["a": ["b": 2]], options: options)
      == [#"replace ["a"]: {"b":"… (max depth)"} → {"b":"… (max depth)"} (truncated)"#])
    // A visible difference at the cap is diffed as rendered, marked: more may hide below.
    #expect(diff(["a": ["b": 1]], ["a": ["b": 2, "c": 2]], options: options)
      == [#"insert ["a"]["c"]: ∅ → "… (max depth)" @1 (truncated)"#])
    #expect(diff(["a": ["b": 1]], ["a": ["b": 1]], options: options) == [])
    // A scalar at the cap shows whole: exact.
    expectExactReplay(["a": 1], ["a": 2], options: options)
  }

  @Test func deepStructsReportTheirDeepChanges() {
    var old = Deep.chain(40)
    var new = old
    new.set(leaf: 7)
    let changes = StateDiff.diff(old, new)
    #expect(changes.count == 1)
    #expect(changes.first?.truncated == true)
    #expect(changes.first.map { try! StatePath(parsing: $0.path).components.count } == 32)
    old.set(leaf: 7)
    #expect(StateDiff.diff(old, new).isEmpty)
  }

  // MARK: Collections past the cap

  @Test func plainArraysPastTheCapReportTruncatedChanges() {
    let options = RenderOptions(maxCollectionCount: 10)
    let rows = (0..<20).map { Row(title: "t\($0)") }
    var changed = rows
    changed[15].title = "x"
    #expect(diff(rows, changed, options: options) == [#"replace [15].title: "t15" → "x" (truncated)"#])
    changed = rows
    changed[3].title = "x"
    expectExactReplay(rows, changed, options: options)
    changed = rows
    changed.remove(at: 2)
    #expect(diff(rows, changed, options: options) == [#"remove [2]: {"title":"t2"} → ∅ (truncated)"#])
  }

  @Test func identifiedArraysPastTheCapReportTruncatedChanges() {
    let options = RenderOptions(maxCollectionCount: 10)
    let todos = IdentifiedArrayOf<Todo>(uniqueElements: (0..<20).map { Todo(id: $0, title: "t\($0)") })
    var changed = todos
    changed[id: 15]?.title = "x"
    changed[id: 2]?.title = "y"
    #expect(diff(todos, changed, options: options) == [
      #"replace [id: 2].title: "t2" → "y""#, #"replace [id: 15].title: "t15" → "x" (truncated)"#,
    ])
    changed = todos
    changed.remove(id: 4)
    #expect(diff(todos, changed, options: options) == [#"remove [id: 4]: {"id":4,"title":"t4"} → ∅ (truncated)"#])
    // Plain arrays of identifiable elements too.
    var plain = todos.elements
    plain[12].title = "z"
    #expect(diff(todos.elements, plain, options: options) == [#"replace [id: 12].title: "t12" → "z" (truncated)"#])
  }

  @Test func dictionariesPastTheCapMarkEveryChange() {
    let options = RenderOptions(maxCollectionCount: 3)
    let old = Dictionary(uniqueKeysWithValues: (0..<5).map { ("k\($0)", $0) })
    var new = old
    new["k4"] = 40
    #expect(diff(old, new, options: options) == [#"replace ["k4"]: 4 → 40 (truncated)"#])
    expectExactReplay(["a": 1], ["a": 2], options: options)
  }

  @Test func setsAndStringsPastTheCapSayTheyChanged() {
    let options = RenderOptions(maxCollectionCount: 2, maxStringLength: 3)
    #expect(diff(Set([1, 2, 3, 4]), Set([1, 2, 3, 5]), options: options) == [#"replace : [1,2,"… 2 more"] → [1,2,"… 2 more"] (truncated)"#])
    #expect(diff("abcdef", "abcdeg", options: options) == [#"replace : "abc… (3 more characters)" → "abc… (3 more characters)" (truncated)"#])
    #expect(diff("abcdef", "abxdef", options: options) == [#"replace : "abc… (3 more characters)" → "abx… (3 more characters)""#])
    let data = Data(repeating: 1, count: 10)
    var other = data
    other[9] = 2
    #expect(diff(data, other, options: options).map { $0.hasSuffix("(truncated)") } == [true])
  }

  // MARK: Collections known by their mirror

  @Test func foreignIdentifiedArraysDiffByIDPastTheCap() {
    let rows = ForeignIdentifiedArray(elements: (0..<10_000).map { Todo(id: $0, title: "t\($0)") })
    var changed = rows
    changed.elements[5_000].title = "x"
    #expect(diff(rows, changed) == [#"replace [id: 5000].title: "t5000" → "x" (truncated)"#])
    changed = rows
    changed.elements.insert(Todo(id: -1, title: "new"), at: 1)
    #expect(diff(rows, changed) == [#"insert [id: -1]: ∅ → {"id":-1,"title":"new"} @1 (truncated)"#])
    let small = ForeignIdentifiedArray(elements: (0..<3).map { Todo(id: $0, title: "t\($0)") })
    var moved = small
    moved.elements.swapAt(0, 2)
    expectExactReplay(small, moved, options: .default)
  }

  @Test func dequesAndOrderedDictionariesDiffByShape() {
    let deque = FakeDeque((0..<5).map { Todo(id: $0, title: "t\($0)") })
    let changed = FakeDeque(deque.storage.elements.map { $0.id == 3 ? Todo(id: 3, title: "x") : $0 })
    #expect(diff(deque, changed) == [#"replace [id: 3].title: "t3" → "x""#])
    #expect(diff(FakeDeque([1, 2, 3]), FakeDeque([1, 3])) == ["remove [1]: 2 → ∅"])

    let ordered = FakeOrderedDictionary(pairs: [("b", 1), ("a", 2)])
    #expect(diff(ordered, FakeOrderedDictionary(pairs: [("b", 1), ("a", 3)])) == [#"replace ["a"]: 2 → 3"#])
    #expect(diff(ordered, FakeOrderedDictionary(pairs: [("b", 1)])) == [#"remove ["a"]: 2 → ∅"#])
    expectExactReplay(ordered, FakeOrderedDictionary(pairs: [("c", 5), ("b", 1), ("a", 2)]), options: .default)
  }

  // MARK: Redacted values

  @Test func nonEquatableRedactedValuesThatChangeAreReported() {
    #expect(diff(Token(value: "a"), Token(value: "b")) == [#"replace : "<redacted>" → "<redacted>""#])
    #expect(diff(Token(value: "a"), Token(value: "a")) == [])
    #expect(diff(Holder(token: Token(value: "a")), Holder(token: Token(value: "b"))) == [#"replace token: "<redacted>" → "<redacted>""#])
  }

  // MARK: What the wire shows

  @Test func stringsAndNumbersInCollectionsCompareAsRendered() {
    #expect(diff(["é"], ["e\u{301}"]) == ["replace [0]: \"é\" → \"e\u{301}\""])
    #expect(diff(["k": "é"], ["k": "e\u{301}"]) == ["replace [\"k\"]: \"é\" → \"e\u{301}\""])
    #expect(diff([0.0], [-0.0]) == ["replace [0]: 0.0 → -0.0"])
    #expect(diff(["x": 0.0], ["x": -0.0]) == [#"replace ["x"]: 0.0 → -0.0"#])
    #expect(diff([["é"]], [["e\u{301}"]]) == ["replace [0][0]: \"é\" → \"e\u{301}\""])
    #expect(diff([Optional(0.0)], [Optional(-0.0)]) == ["replace [0]: 0.0 → -0.0"])
    #expect(diff([Double.nan], [Double.nan]) == [])
  }

  // MARK: The wire form

  @Test func truncatedTravelsOnTheWireOnlyWhenSet() throws {
    let changes = [
      Change(path: "a", op: .replace, old: 1, new: 2, truncated: true),
      Change(path: "b", op: .replace, old: 1, new: 2),
    ]
    let event = Event(seq: 1, time: 0, payload: .stateChanged(StateChanged(store: "S#1", cause: 1, changes: changes, summary: "S#1: _a, _b changed.")))
    let text = event.jsonText
    #expect(text.contains(#""truncated":true"#))
    #expect(text.components(separatedBy: "truncated").count == 2)
    let decoded = try Event(json: JSONParser.parse(text))
    #expect(decoded == event)
  }
}

// MARK: - Fixtures

private struct Row: Equatable { var title: String }
private struct Todo: Equatable, Identifiable { var id: Int; var title: String }

/// A chain of nested structs `depth` levels deep ending in an `Int`.
private indirect enum Deep: Equatable {
  case leaf(Int)
  case node(next: Deep)
  static func chain(_ depth: Int) -> Deep { depth == 0 ? .leaf(0) : .node(next: chain(depth - 1)) }
  mutating func set(leaf value: Int) {
    switch self {
    case .leaf: self = .leaf(value)
    case .node(var next):
      next.set(leaf: value)
      self = .node(next: next)
    }
  }
}

/// swift-identified-collections' `IdentifiedArray` as the diff sees it: a struct that
/// reflects as a collection of its elements.
private struct ForeignIdentifiedArray<Element: Identifiable>: CustomReflectable {
  var elements: [Element]
  var customMirror: Mirror { Mirror(self, unlabeledChildren: elements, displayStyle: .collection) }
}

/// swift-collections' `Deque`: storage in a class, reflecting as a collection.
private struct FakeDeque<Element>: CustomReflectable {
  final class Storage { let elements: [Element]; init(_ elements: [Element]) { self.elements = elements } }
  var storage: Storage
  init(_ elements: [Element]) { storage = Storage(elements) }
  var customMirror: Mirror { Mirror(self, unlabeledChildren: storage.elements, displayStyle: .collection) }
}

/// swift-collections' `OrderedDictionary`: reflects as a dictionary of `(key, value)` pairs.
private struct FakeOrderedDictionary: CustomReflectable {
  var pairs: [(String, Int)]
  var customMirror: Mirror {
    Mirror(self, unlabeledChildren: pairs.map { (key: $0.0, value: $0.1) }, displayStyle: .dictionary)
  }
}

private struct Token: LoupeRedacted { var value: String }
private struct Holder { var token: Token }

extension LostChangeTests {
  @Test func theTextFormSaysAChangeWasTruncated() {
    let changes = StateDiff.diff(["a": ["b": 1]], ["a": ["b": 2]], options: RenderOptions(maxDepth: 1))
    #expect(ChangeText.text(changes) == """
        − ["a"]: {b: "… (max depth)"}
        + ["a"]: {b: "… (max depth)"} (truncated)
      """)
  }
}
