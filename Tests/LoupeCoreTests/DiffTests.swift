import Foundation
import Testing
@testable import LoupeCore

/// The changes as one line each, `op path: old → new @index` (∅ for an absent value), after
/// checking that they replay exactly.
private func diff<T>(_ old: T, _ new: T, options: RenderOptions = .default, sourceLocation: SourceLocation = #_sourceLocation) -> [String] {
  let changes = StateDiff.diff(old, new, options: options)
  let replayed = try? changes.apply(to: ValueRenderer.render(old, options: options))
  #expect(replayed == ValueRenderer.render(new, options: options), "replay", sourceLocation: sourceLocation)
  return changes.map(describe)
}

func describe(_ change: Change) -> String {
  "\(change.op.rawValue) \(change.path): \(change.old?.jsonText ?? "∅") → \(change.new?.jsonText ?? "∅")"
    + (change.index.map { " @\($0)" } ?? "")
}

private struct Todo: Equatable, Identifiable { var id: Int; var title: String; var done = false }
private struct Tag: Identifiable { var name: String; var id: String { name } }  // id not stored
private struct Settings: Equatable { var theme = "dark"; var fontSize = 12 }
private struct State {
  var count = 0
  var settings = Settings()
  var child: Settings? = nil
  var mode: Mode = .idle
}
private enum Mode: Equatable {
  case idle
  case playing(speed: Int, loop: Bool)
  case paused(Int)
}
private final class Model {
  var name: String
  init(_ name: String) { self.name = name }
}
private struct AlwaysEqual: Equatable {
  var value: Int
  static func == (_: Self, _: Self) -> Bool { true }
}
private struct Secret: LoupeRedacted, Equatable { var value: String }
private struct Celsius: CustomLoupeRepresentable { var value: Double; var customLoupeValue: Any { "\(value)°C" } }
private protocol Shape {}
private struct Circle: Shape { var radius = 1 }
private struct Square: Shape { var side = 1 }

@Suite struct StateDiffTests {
  /// A store with no child stores keeps only each change's first path component: from the
  /// walk, from a diff of renderings at the root or below it, and for a diff over its budget.
  @Test func firstComponentsAreThoseOfThePaths() {
    struct Holder { var tags: Set<Int>; var count: Int }
    let cases: [(old: Any, new: Any, options: RenderOptions)] = [
      (Holder(tags: [1], count: 1), Holder(tags: [1, 2], count: 2), .default),
      (Set([1, 2]), Set([2, 3]), .default),
      (Holder(tags: [1], count: 1), Holder(tags: [1, 2, 3, 4], count: 2), RenderOptions(maxNodes: 3)),
    ]
    for (old, new, options) in cases {
      let (changes, paths) = StateDiff.diffWithPaths(old, new, options: options)
      let (sameChanges, firsts) = StateDiff.diffWithFirstComponents(old, new, options: options)
      #expect(!changes.isEmpty)
      #expect(sameChanges == changes)
      #expect(firsts == paths.map { $0.components.first }, "\(changes.map(\.path))")
    }
  }

  @Test func structsDiffFieldByField() {
    var new = State()
    new.count = 2
    new.settings.theme = "light"
    #expect(diff(State(), new) == [#"replace count: 0 → 2"#, #"replace settings.theme: "dark" → "light""#])
    #expect(diff(State(), State()) == [])
  }

  @Test func enumsThatSwitchCaseAreOneReplace() {
    #expect(diff(Mode.idle, .paused(1)) == [#"replace : "idle" → {"paused":1}"#])
    #expect(diff(Mode.paused(1), .playing(speed: 1, loop: true)) == [#"replace : {"paused":1} → {"playing":{"speed":1,"loop":true}}"#])
  }

  @Test func enumsInTheSameCaseDiffTheirPayloads() {
    #expect(diff(Mode.paused(1), .paused(2)) == ["replace paused: 1 → 2"])
    #expect(diff(Mode.playing(speed: 1, loop: true), .playing(speed: 1, loop: false)) == ["replace playing.loop: true → false"])
    var old = State()
    old.mode = .playing(speed: 1, loop: true)
    var new = old
    new.mode = .playing(speed: 2, loop: true)
    #expect(diff(old, new) == ["replace mode.playing.speed: 1 → 2"])
  }

  @Test func optionalsThatAppearOrVanishAreInsertsAndRemoves() {
    var new = State()
    new.child = Settings()
    #expect(diff(State(), new) == [#"insert child: ∅ → {"theme":"dark","fontSize":12}"#])
    #expect(diff(new, State()) == [#"remove child: {"theme":"dark","fontSize":12} → ∅"#])
    #expect(diff(Int?.none, 3) == ["insert : ∅ → 3"])
    #expect(diff(Int?.some(3), nil) == ["remove : 3 → ∅"])
    var changed = new
    changed.child?.fontSize = 14
    #expect(diff(new, changed) == ["replace child.fontSize: 12 → 14"])
  }

  @Test func optionalsInsideCollectionsAreReplacedWithNull() {
    #expect(diff([1, nil, 3] as [Int?], [1, 2, 3]) == ["replace [1]: null → 2"])
    #expect(diff(["a": 1] as [String: Int?], ["a": nil]) == [#"replace ["a"]: 1 → null"#])
  }

  @Test func dictionariesDiffByKey() {
    #expect(diff(["a": 1, "b": 2, "c": 3], ["a": 1, "b": 20, "d": 4]) == [
      #"remove ["c"]: 3 → ∅"#, #"replace ["b"]: 2 → 20"#, #"insert ["d"]: ∅ → 4 @2"#,
    ])
    #expect(diff([2: "b"], [1: "a", 2: "b", 10: "j"]) == [#"insert ["1"]: ∅ → "a" @0"#, #"insert ["10"]: ∅ → "j" @2"#])
    #expect(diff(["k": Settings()], ["k": Settings(theme: "x")]) == [#"replace ["k"].theme: "dark" → "x""#])
  }

  @Test func positionalArraysDiffWithInsertsAndRemovals() {
    #expect(diff([1, 2, 3], [1, 2, 3, 4]) == ["insert [3]: ∅ → 4"])
    #expect(diff([1, 2, 3], [0, 1, 2, 3]) == ["insert [0]: ∅ → 0"])
    #expect(diff([1, 2, 3], [1, 3]) == ["remove [1]: 2 → ∅"])
    #expect(diff([1, 2, 3], [1, 5, 3]) == ["replace [1]: 2 → 5"])
    #expect(diff([1, 2, 3, 4, 5], [2, 3, 9, 5, 6]) == ["remove [0]: 1 → ∅", "replace [2]: 4 → 9", "insert [4]: ∅ → 6"])
    #expect(diff([Settings(), Settings()], [Settings(), Settings(fontSize: 9)]) == ["replace [1].fontSize: 12 → 9"])
    #expect(diff([[1, 2], [3]], [[1, 2], [3, 4]]) == ["insert [1][1]: ∅ → 4"])
  }

  @Test func identifiedArraysMatchElementsByID() {
    let old: IdentifiedArrayOf<Todo> = [Todo(id: 1, title: "a"), Todo(id: 2, title: "b"), Todo(id: 3, title: "c")]
    var new = old
    new[id: 2]?.done = true
    #expect(diff(old, new) == ["replace [id: 2].done: false → true"])

    new = old
    new.remove(id: 1)
    new.insert(Todo(id: 4, title: "d"), at: 1)
    #expect(diff(old, new) == [
      #"remove [id: 1]: {"id":1,"title":"a","done":false} → ∅"#,
      #"insert [id: 4]: ∅ → {"id":4,"title":"d","done":false} @1"#,
    ])

    // Moved: a remove and an insert at the new position.
    new = old
    new.move(fromOffsets: [0], toOffset: 3)
    new[id: 3]?.title = "C"
    #expect(diff(old, new) == [
      #"remove [id: 1]: {"id":1,"title":"a","done":false} → ∅"#,
      #"replace [id: 3].title: "c" → "C""#,
      #"insert [id: 1]: ∅ → {"id":1,"title":"a","done":false} @2"#,
    ])
  }

  @Test func plainArraysOfIdentifiableElementsMatchByIDToo() {
    let old = [Todo(id: 1, title: "a"), Todo(id: 2, title: "b")]
    // Either element could count as moved; the one that moves is inserted with its new value.
    #expect(diff(old, [Todo(id: 2, title: "B"), Todo(id: 1, title: "a")]) == [
      #"remove [id: 2]: {"id":2,"title":"b","done":false} → ∅"#,
      #"insert [id: 2]: ∅ → {"id":2,"title":"B","done":false} @0"#,
    ])
    #expect(diff(old, [Todo(id: 1, title: "a"), Todo(id: 3, title: "c"), Todo(id: 2, title: "b", done: true)]) == [
      #"insert [id: 3]: ∅ → {"id":3,"title":"c","done":false} @1"#,
      "replace [id: 2].done: false → true",
    ])
    // Duplicate ids: positional.
    #expect(diff([Todo(id: 1, title: "a"), Todo(id: 1, title: "b")], [Todo(id: 1, title: "a"), Todo(id: 1, title: "c")]) == [
      #"replace [1].title: "b" → "c""#
    ])
    // An id that is not a stored `id` field cannot be found in the rendering: positional.
    #expect(diff([Tag(name: "a"), Tag(name: "b")], [Tag(name: "b")]) == [#"remove [0]: {"name":"a"} → ∅"#])
  }

  @Test func setsDiffAsTheirSortedRenderings() {
    #expect(diff(Set([1, 2, 3]), Set([1, 3, 4])) == ["remove [1]: 2 → ∅", "insert [2]: ∅ → 4"])
    #expect(diff(Set([1, 2]), Set([2, 1])) == [])
  }

  @Test func tuplesDiffByPositionOrLabel() {
    #expect(diff((1, "a"), (1, "b")) == [#"replace [1]: "a" → "b""#])
    #expect(diff((x: 1, y: 2), (x: 1, y: 3)) == ["replace y: 2 → 3"])
  }

  @Test func classesDiffFieldsUnlessTheSameInstance() {
    let model = Model("a")
    #expect(diff(model, model) == [])
    #expect(diff(Model("a"), Model("b")) == [#"replace name: "a" → "b""#])
  }

  @Test func equatableTypesAreTrusted() {
    // `==` says equal, so nothing is reported even though the renderings differ.
    #expect(StateDiff.diff(AlwaysEqual(value: 1), AlwaysEqual(value: 2)).isEmpty)
  }

  @Test func existentialsThatChangeTypeAreReplaced() {
    #expect(diff(Circle() as any Shape, Square() as any Shape) == [#"replace : {"radius":1} → {"side":1}"#])
    #expect(diff(1 as Any, "1" as Any) == [#"replace : 1 → "1""#])
  }

  @Test func redactedValuesReportAChangeWithoutShowingIt() {
    #expect(diff(Secret(value: "a"), Secret(value: "b")) == [#"replace : "<redacted>" → "<redacted>""#])
    #expect(diff(Secret(value: "a"), Secret(value: "a")) == [])
    let options = RenderOptions(redactedPaths: [Glob("settings.*")])
    var new = State()
    new.settings.theme = "light"
    new.count = 1
    #expect(diff(State(), new, options: options) == ["replace count: 0 → 1", #"replace settings.theme: "<redacted>" → "<redacted>""#])
  }

  @Test func customRepresentationsDiffTheirStandIns() {
    #expect(diff(Celsius(value: 1), Celsius(value: 2)) == [#"replace : "1.0°C" → "2.0°C""#])
  }

  @Test func jsonInsideAStateDiffsAsJSON() {
    #expect(diff(["a": [1, 2]] as JSON, ["a": [1, 2, 3]]) == ["insert a[2]: ∅ → 3"])
  }

  @Test func childDiffsCarryTheBasePath() {
    let changes = StateDiff.diff(Settings(), Settings(theme: "x"), at: "pages[id: 2]")
    #expect(changes.map(describe) == [#"replace pages[id: 2].theme: "dark" → "x""#])
    #expect(changes.map { describe($0.relative(to: "pages[id: 2]")) } == [#"replace theme: "dark" → "x""#])
    let redacted = StateDiff.diff(Settings(), Settings(theme: "x"), at: "login", options: RenderOptions(redactedPaths: [Glob("login.theme")]))
    #expect(redacted.map(describe) == [#"replace login.theme: "<redacted>" → "<redacted>""#])
  }

  @Test func depthCapStopsTheWalk() {
    let options = RenderOptions(maxDepth: 1)
    // A change hidden below the cap is still reported (marked `truncated`, see LostChangeTests).
    #expect(diff(["a": ["b": 1]], ["a": ["b": 2]], options: options) == [#"replace ["a"]: {"b":"… (max depth)"} → {"b":"… (max depth)"}"#])
    // Below the cap only the markers show: a new member is a new marker.
    #expect(diff(["a": ["b": 1]], ["a": ["b": 1, "c": 2]], options: options) == [#"insert ["a"]["c"]: ∅ → "… (max depth)" @1"#])
  }
}
