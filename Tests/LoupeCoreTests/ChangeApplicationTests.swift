import Testing
@testable import LoupeCore

@Suite struct ChangeApplicationTests {
  private let state: JSON = [
    "count": 1, "child": nil, "settings": ["a": 1, "c": 3],
    "list": [1, 2, 3], "todos": [["id": 1, "t": "a"], ["id": 2, "t": "b"]],
  ]

  private func apply(_ change: Change) throws -> String {
    try change.apply(to: state).jsonText
  }

  @Test func root() throws {
    #expect(try Change(path: "", op: .replace, old: 1, new: 2).apply(to: 1) == 2)
    #expect(try Change(path: "", op: .insert, new: 2).apply(to: nil) == 2)
    #expect(try Change(path: "", op: .remove, old: 2).apply(to: 2) == nil)
  }

  @Test func fields() throws {
    #expect(try apply(Change(path: "count", op: .replace, old: 1, new: 5)).hasPrefix(#"{"count":5,"#))
    #expect(try apply(Change(path: "child", op: .insert, new: ["x": 1])).contains(#""child":{"x":1}"#))
    #expect(try apply(Change(path: "count", op: .remove, old: 1)).hasPrefix(#"{"count":null,"#))
    #expect(try apply(Change(path: "extra", op: .replace, new: 1)).hasSuffix(#","extra":1}"#))
  }

  @Test func keys() throws {
    #expect(try apply(Change(path: #"settings["b"]"#, op: .insert, new: 2, index: 1)).contains(#""settings":{"a":1,"b":2,"c":3}"#))
    #expect(try apply(Change(path: #"settings["z"]"#, op: .insert, new: 2)).contains(#""settings":{"a":1,"c":3,"z":2}"#))
    #expect(try apply(Change(path: #"settings["a"]"#, op: .remove, old: 1)).contains(#""settings":{"c":3}"#))
    #expect(try apply(Change(path: #"settings["c"]"#, op: .replace, old: 3, new: 4)).contains(#""settings":{"a":1,"c":4}"#))
  }

  @Test func indices() throws {
    #expect(try apply(Change(path: "list[1]", op: .replace, old: 2, new: 9)).contains(#""list":[1,9,3]"#))
    #expect(try apply(Change(path: "list[3]", op: .insert, new: 4)).contains(#""list":[1,2,3,4]"#))
    #expect(try apply(Change(path: "list[0]", op: .remove, old: 1)).contains(#""list":[2,3]"#))
  }

  @Test func ids() throws {
    #expect(try apply(Change(path: "todos[id: 2].t", op: .replace, old: "b", new: "B")).contains(#"{"id":2,"t":"B"}"#))
    #expect(try apply(Change(path: "todos[id: 3]", op: .insert, new: ["id": 3], index: 1)).contains(#""todos":[{"id":1,"t":"a"},{"id":3},{"id":2,"t":"b"}]"#))
    #expect(try apply(Change(path: "todos[id: 1]", op: .remove)).contains(#""todos":[{"id":2,"t":"b"}]"#))
  }

  @Test func changesThatDoNotFitThrowClearErrors() {
    func message(_ change: Change) -> String {
      do {
        _ = try change.apply(to: state)
        return "applied"
      } catch {
        return error.description
      }
    }
    #expect(message(Change(path: "list[7]", op: .replace, new: 1)) == "Cannot apply change at 'list[7]': index 7 out of range (count 3)")
    #expect(message(Change(path: "todos[id: 9].t", op: .replace, new: 1)) == "Cannot apply change at 'todos[id: 9].t': no element with id 9 on the way")
    #expect(message(Change(path: "todos[id: 1]", op: .insert, new: ["id": 1])) == "Cannot apply change at 'todos[id: 1]': an element with id 1 is already present")
    #expect(message(Change(path: "count.x", op: .replace, new: 1)) == "Cannot apply change at 'count.x': x does not fit a number")
    #expect(message(Change(path: "missing.x", op: .replace, new: 1)) == #"Cannot apply change at 'missing.x': no member "missing" on the way"#)
    #expect(message(Change(path: "count", op: .replace)) == "Cannot apply change at 'count': a replace needs 'new'")
    #expect(message(Change(path: "a[", op: .replace, new: 1)).hasPrefix("Cannot apply change at 'a[': Invalid path"))
  }
}

@Suite struct JSONDiffTests {
  private func diff(_ old: JSON, _ new: JSON) -> [String] {
    let changes = JSONDiff.diff(old, new)
    #expect((try? changes.apply(to: old)) == new)
    return changes.map(describe)
  }

  @Test func objectsWithTheSameKeysDiffMemberByMember() {
    #expect(diff(["a": 1, "odd key": 2], ["a": 2, "odd key": 3]) == ["replace a: 1 → 2", #"replace ["odd key"]: 2 → 3"#])
  }

  @Test func objectsWithDifferentKeysDiffByKey() {
    #expect(diff(["a": 1, "b": 2], ["a": 1, "c": 3, "b": 4]) == [#"insert ["c"]: ∅ → 3 @1"#, #"replace ["b"]: 2 → 4"#])
    #expect(diff(["a": 1, "b": 2], ["b": 2]) == [#"remove ["a"]: 1 → ∅"#])
    // Common keys that changed order cannot be replayed member by member.
    #expect(diff(["a": 1, "b": 2], ["b": 2, "a": 1]) == [#"replace : {"a":1,"b":2} → {"b":2,"a":1}"#])
  }

  @Test func nullMembersAppearAndVanish() {
    #expect(diff(["a": nil], ["a": 1]) == ["insert a: ∅ → 1"])
    #expect(diff(["a": 1], ["a": nil]) == ["remove a: 1 → ∅"])
    #expect(diff([nil], [1]) == ["replace [0]: null → 1"])
  }

  @Test func arraysAlignPositionally() {
    #expect(diff([1, 2, 3], [2, 3, 4]) == ["remove [0]: 1 → ∅", "insert [2]: ∅ → 4"])
    #expect(diff([["x": 1]], [["x": 2]]) == ["replace [0].x: 1 → 2"])
    #expect(diff([], [1, 2]) == ["insert [0]: ∅ → 1", "insert [1]: ∅ → 2"])
  }

  @Test func basePathPrefixesEveryPath() {
    #expect(JSONDiff.diff(1, 2, at: "a[0]").map(describe) == ["replace a[0]: 1 → 2"])
  }
}

@Suite struct JSONDiffReplacementTests {
  @Test func objectsSharingNoKeyAreReplaced() {
    #expect(JSONDiff.diff(["a": 1], ["b": 1]).map(describe) == [#"replace : {"a":1} → {"b":1}"#])
    #expect(JSONDiff.diff([:], ["b": 1]).map(describe) == [#"insert ["b"]: ∅ → 1 @0"#])
  }
}
