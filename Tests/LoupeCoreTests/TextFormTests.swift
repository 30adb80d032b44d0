import Testing
@testable import LoupeCore

@Suite struct ValueTextTests {
  @Test func compactForm() {
    #expect(ValueText.compact(nil) == "nil")
    #expect(ValueText.compact(["id": 3, "title": "Milk", "tags": ["a", "b"], "odd key": .double(1.5), "done": false]) == #"{id: 3, title: "Milk", tags: ["a", "b"], "odd key": 1.5, done: false}"#)
    #expect(ValueText.compact([[], [:]]) == "[[], {}]")
    #expect(ValueText.compact("line\nbreak") == #""line\nbreak""#)
    #expect(ValueText.compact([1, 2, 3, 4, 5, 6, 7, 8], maxLength: 10) == "[1, 2, 3,…")
  }
}

@Suite struct ChangeTextTests {
  @Test func oneLinePerValue() {
    let changes = [
      Change(path: "count", op: .replace, old: 1, new: 2),
      Change(path: "todos[id: 3]", op: .insert, new: ["id": 3, "title": "Milk"], index: 2),
      Change(path: "todos[id: 1]", op: .remove, old: ["id": 1, "title": "Eggs"]),
      Change(path: "results[4]", op: .insert, new: "x"),
      Change(path: "settings[\"theme\"]", op: .insert, new: "dark", index: 0),
      Change(path: "", op: .replace, old: "idle", new: ["playing": 1]),
      Change(path: "child", op: .remove, old: ["a": 1]),
    ]
    #expect(ChangeText.text(changes) == """
        − count: 1
        + count: 2
        + todos[id: 3] (at 2): {id: 3, title: "Milk"}
        − todos[id: 1]: {id: 1, title: "Eggs"}
        + results[4]: "x"
        + settings["theme"]: "dark"
        − @self: "idle"
        + @self: {playing: 1}
        − child: {a: 1}
      """)
  }

  @Test func longValuesAreCutAndIndentIsChosen() {
    let change = Change(path: "log", op: .insert, new: .string(String(repeating: "a", count: 50)))
    #expect(ChangeText.lines([change], indent: "", maxValueLength: 12) == [#"+ log: "aaaaaaaaaa…"#])
  }
}

@Suite struct DiffTextTests {
  @Test func equalValuesHaveNoDiff() {
    #expect(DiffText.diff(["a": 1], ["a": 1]) == nil)
  }

  @Test func scalars() {
    #expect(DiffText.diff(1, 2) == "− 1\n+ 2")
    #expect(DiffText.diff("idle", ["playing": ["speed": 1]]) == "− \"idle\"\n+ {playing: {speed: 1}}")
  }

  @Test func structsShowChangedFieldsAndCollapseTheRest() {
    let old: JSON = ["count": 1, "title": "a", "isPlaying": false, "volume": 3, "settings": ["theme": "dark", "size": 12]]
    let new: JSON = ["count": 1, "title": "a", "isPlaying": true, "volume": 3, "settings": ["theme": "light", "size": 12]]
    #expect(DiffText.diff(old, new) == """
        {
          … (2 unchanged)
      −   isPlaying: false
      +   isPlaying: true
          volume: 3
          settings: {
      −     theme: "dark"
      +     theme: "light"
            size: 12
          }
        }
      """)
  }

  @Test func arraysAlignWithInsertsAndRemovals() {
    let old: JSON = ["todos": [["id": 1, "done": false], ["id": 2, "done": false], ["id": 3, "done": false]], "n": 0]
    let new: JSON = ["todos": [["id": 2, "done": true], ["id": 3, "done": false], ["id": 4, "done": false]], "n": 0]
    #expect(DiffText.diff(old, new) == """
        {
          todos: [
      −     [0]: {id: 1, done: false}
            [0]: {
              id: 2
      −       done: false
      +       done: true
            }
            [1]: {…}
      +     [2]: {id: 4, done: false}
          ]
          n: 0
        }
      """)
    #expect(DiffText.diff(.array(Array(1...10).map(JSON.int)), .array([1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 12])) == """
        [
          … (9 unchanged)
      −   [9]: 10
      +   [9]: 11
      +   [10]: 12
        ]
      """)
  }

  @Test func dictionaryKeysAppearAndVanish() {
    #expect(DiffText.diff(["a": 1, "b": 2, "c": 3], ["a": 1, "c": 3, "d b": 4]) == """
        {
          a: 1
      −   b: 2
          c: 3
      +   "d b": 4
        }
      """)
  }

  @Test func longValuesSpreadOverLines() {
    let todo: JSON = ["id": 1, "title": .string(String(repeating: "x", count: 40)), "tags": ["a", "b"], "done": false]
    #expect(DiffText.diff(["todos": []], ["todos": [todo]]) == """
        {
      −   todos: []
      +   todos: [
      +     {
      +       id: 1
      +       title: "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
      +       tags: ["a", "b"]
      +       done: false
      +     }
      +   ]
        }
      """)
  }
}

@Suite struct ChangeSummaryTests {
  @Test func fieldsInOrderOfFirstAppearance() {
    let changes = [
      Change(path: "count", op: .replace, old: 1, new: 2),
      Change(path: "todos[id: 1].done", op: .replace, old: false, new: true),
      Change(path: "count", op: .replace, old: 2, new: 3),
      Change(path: "todos[id: 2]", op: .remove, old: nil),
    ]
    #expect(ChangeSummary.line(store: "PageFeature#2", changes: changes) == "PageFeature#2: _count, _todos changed.")
  }

  @Test func aCachedSummaryLineIsTheLineOfTheChangesGiven() {
    var cache = ChangeSummary.LineCache()
    // The first components of `count`, `count`; of `todos[id: 1].title`; and of the root.
    let count: [StatePath.Component?] = [.field("count"), .field("count")]
    let todos: [StatePath.Component?] = [.field("todos")]
    #expect(ChangeSummary.line(store: "P#2", firstComponents: count, cache: &cache) == "P#2: _count changed.")
    #expect(ChangeSummary.line(store: "P#2", firstComponents: count, cache: &cache) == "P#2: _count changed.")
    #expect(ChangeSummary.line(store: "P#2", firstComponents: count, newIdentity: true, cache: &cache) == "P#2: @self, @identity, _count changed.")
    #expect(ChangeSummary.line(store: "P#3", firstComponents: count, cache: &cache) == "P#3: _count changed.")
    #expect(ChangeSummary.line(store: "P#3", firstComponents: todos, cache: &cache) == "P#3: _todos changed.")
    #expect(ChangeSummary.line(store: "P#3", firstComponents: todos + [nil], cache: &cache) == "P#3: @self, _todos changed.")
    #expect(ChangeSummary.line(store: "P#3", firstComponents: todos, cache: &cache) == "P#3: _todos changed.")
  }

  @Test func selfAndIdentity() {
    let field = [Change(path: "isPlaying", op: .replace, old: false, new: true)]
    #expect(ChangeSummary.line(store: "PageFeature#2", changes: field, newIdentity: true) == "PageFeature#2: @self, @identity, _isPlaying changed.")
    let root = [Change(path: "", op: .replace, old: "idle", new: "playing")]
    #expect(ChangeSummary.line(store: "S#1", changes: root) == "S#1: @self changed.")
    #expect(ChangeSummary.line(store: "S#1", changes: [Change(path: "[3]", op: .remove, old: 1)]) == "S#1: @self changed.")
    #expect(ChangeSummary.line(store: "S#1", changes: [], newIdentity: true) == "S#1: @self, @identity changed.")
    #expect(ChangeSummary.line(store: "S#1", changes: []) == "S#1: unchanged.")
  }

  @Test func fromPathsAsFromText() {
    // More top-level fields than the linear search handles (it switches to a set), repeated.
    let paths = (0..<40).map { StatePath([.field("f\($0 % 20)"), .index($0)]) } + ["", "[2]"]
    let changes = paths.map { Change(path: $0.description, op: .remove, old: 1) }
    let line = ChangeSummary.line(store: "S#1", changes: changes, newIdentity: true)
    #expect(line == "S#1: @self, @identity, " + (0..<20).map { "_f\($0)" }.joined(separator: ", ") + " changed.")
    #expect(ChangeSummary.line(store: "S#1", paths: paths, newIdentity: true) == line)
    #expect(ChangeSummary.line(store: "S#1", paths: ["count"]) == "S#1: _count changed.")
    #expect(ChangeSummary.line(store: "Ünïcode#1", paths: ["é"]) == "Ünïcode#1: _é changed.")
    #expect(ChangeSummary.line(store: "S#1", paths: []) == "S#1: unchanged.")
  }
}

@Suite struct DiffTextIdentifiedTests {
  @Test func movedElementsShowAsRemovedAndInserted() {
    let old: JSON = [["id": 1, "t": "a"], ["id": 2, "t": "b"], ["id": 3, "t": "c"]]
    let new: JSON = [["id": 2, "t": "b"], ["id": 3, "t": "C"], ["id": 1, "t": "a"]]
    #expect(DiffText.diff(old, new) == """
        [
      −   [0]: {id: 1, t: "a"}
          [0]: {…}
          [1]: {
            id: 3
      −     t: "c"
      +     t: "C"
          }
      +   [2]: {id: 1, t: "a"}
        ]
      """)
  }

  @Test func nestedArraysAndTypeChanges() {
    #expect(DiffText.diff(["m": [[1, 2], [3]]], ["m": [[1, 2], [3, 4]]]) == """
        {
          m: [
            [0]: […]
            [1]: [
              [0]: 3
      +       [1]: 4
            ]
          ]
        }
      """)
    #expect(DiffText.diff(["a": [1]], ["a": "x"]) == """
        {
      −   a: [1]
      +   a: "x"
        }
      """)
  }
}

@Suite struct RenderOptionsTests {
  @Test func redactionGlobsComeFromTheEnvironment() {
    let options = RenderOptions.fromEnvironment(["LOUPE_REDACT": " *password* , token,, "])
    #expect(options.redactedPaths.map(\.pattern) == ["*password*", "token"])
    #expect(RenderOptions.fromEnvironment([:]).redactedPaths.isEmpty)
    #expect(options.maxCollectionCount == RenderOptions.default.maxCollectionCount)
  }
}
