import Testing
import TestSupport
@testable import LoupeCore

@Suite struct GlobTests {
  @Test(arguments: [
    ("effect.*", "effect.started", true),
    ("effect.*", "state.changed", false),
    ("*", "", true),
    ("a?c", "abc", true),
    ("a?c", "ac", false),
    ("AppFeature#1/pages*", "AppFeature#1/pages[id: 2]", true),
    ("*[id: 2]*", "AppFeature#1/pages[id: 2].count", true),
    ("*Ticked", "PageFeature.Action.timerTicked", true),
    ("*.count", "pages[id: 2].count", true),
    ("*.count", "pages[id: 2].counter", false),
    ("a*b*c", "aXbYbZc", true),
    ("a*b*c", "aXbYbZ", false),
    (#"a\*"#, "a*", true),
    (#"a\*"#, "ab", false),
    ("é?", "éü", true),
    ("exact", "exact", true),
    ("exact", "exactly", false),
  ])
  func matching(pattern: String, text: String, expected: Bool) {
    #expect(Glob(pattern).matches(text) == expected)
  }
}

@Suite struct EventFilterTests {
  let events: [Event] = [
    Event(seq: 1, time: 0, payload: .sessionStarted(SessionStarted(pid: 1, program: "p", startedAt: "t"))),
    Event(seq: 2, time: 1, payload: .actionReceived(ActionReceived(store: "PageFeature#1", action: "PageFeature.Action.timerTicked", value: .null, origin: .effect, effect: 1))),
    Event(seq: 3, time: 2, payload: .stateChanged(StateChanged(store: "PageFeature#1", cause: 2, changes: [Change(path: "count", op: .replace, old: 0, new: 1)], summary: "PageFeature#1: _count changed."))),
    Event(seq: 4, time: 3, payload: .effectStarted(EffectStarted(store: "PageFeature#2", effect: 2, cause: 2, cancelID: "timer"))),
    Event(seq: 5, time: 4, payload: .mark(Mark(label: "swipe"))),
    Event(seq: 6, time: 5, payload: .dropped(Dropped(count: 3))),
  ]

  func seqs(_ filter: EventFilter) -> [Int] { events.filter(filter.matches).map(\.seq) }

  @Test func fields() {
    #expect(seqs(.all) == [1, 2, 3, 4, 5, 6])
    #expect(seqs(EventFilter(kinds: [Glob("effect.*")])) == [4, 6])
    #expect(seqs(EventFilter(kinds: [Glob("mark"), Glob("state.*")])) == [3, 5, 6])
    #expect(seqs(EventFilter(stores: [Glob("PageFeature#1")])) == [1, 2, 3, 5, 6])
    #expect(seqs(EventFilter(actions: [Glob("*Ticked")])) == [2, 6])
    #expect(seqs(EventFilter(paths: [Glob("count")])) == [3, 6])
    #expect(seqs(EventFilter(paths: [Glob("other")])) == [6])
    #expect(seqs(EventFilter(kinds: [Glob("action.*")], stores: [Glob("*#2")])) == [6])
  }

  @Test func aPathMatchesFromTheStoreAndFromItsRootStore() {
    func changed(_ store: String, _ path: String) -> Event {
      Event(seq: 1, time: 0, payload: .stateChanged(StateChanged(
        store: store, cause: 1, changes: [Change(path: path, op: .replace, old: 0, new: 1)], summary: "")))
    }
    let page = changed("AppFeature#1/pages[id: 2]", "count")
    #expect(EventFilter(paths: [Glob("count")]).matches(page))
    #expect(EventFilter(paths: [Glob("pages*.count")]).matches(page))
    #expect(EventFilter(paths: [Glob("pages[id: 2].count")]).matches(page))
    #expect(!EventFilter(paths: [Glob("pages[id: 1].count")]).matches(page))
    let detail = changed("AppFeature#1/pages[id: 2]/detail", "title")
    #expect(EventFilter(paths: [Glob("pages[id: 2].detail.title")]).matches(detail))
    #expect(EventFilter(paths: [Glob("*.detail.*")]).matches(detail))
    // A root store's paths are already from the root.
    #expect(!EventFilter(paths: [Glob("pages*.count")]).matches(changed("PageFeature#1", "count")))
  }

  @Test(arguments: [
    ("AppFeature#1", "count", nil),
    ("AppFeature#1/pages[id: 2]", "count", "pages[id: 2].count"),
    ("AppFeature#1/pages[id: 2]", "", "pages[id: 2]"),
    ("AppFeature#1/pages[id: 2]", "rows[3]", "pages[id: 2].rows[3]"),
    ("AppFeature#1/pages[id: 2]/detail", "title", "pages[id: 2].detail.title"),
    ("GameFeature#1/resultList", "results[id: 1]", "resultList.results[id: 1]"),
  ] as [(String, String, String?)])
  func scopePaths(store: String, path: String, fromRoot: String?) {
    #expect(ScopePath.fromRoot(path, store: store) == fromRoot)
  }

  @Test func decidesByKind() {
    #expect(EventFilter(kinds: [Glob("effect.*")]).decidesByKind("effect.started") == true)
    #expect(EventFilter(kinds: [Glob("effect.*")]).decidesByKind("mark") == false)
    #expect(EventFilter(kinds: [Glob("effect.*")], stores: [Glob("x")]).decidesByKind("effect.started") == nil)
    #expect(EventFilter(stores: [Glob("x")]).decidesByKind("dropped") == true)
  }

  @Test func jsonForm() throws {
    let filter = try EventFilter(json: ["kinds": ["effect.*"], "stores": nil, "future": 1])
    #expect(filter == EventFilter(kinds: [Glob("effect.*")]))
    #expect(filter.json.jsonText == #"{"kinds":["effect.*"]}"#)
    #expect(try EventFilter(json: nil) == .all)
    #expect(try EventFilter(json: .null) == .all)
    #expect(throws: EventDecodingError("filter.kinds must be an array of strings")) {
      try EventFilter(json: ["kinds": "effect.*"])
    }
    #expect(throws: EventDecodingError("filter must be an object, not array")) { try EventFilter(json: []) }
  }
}

@Suite struct StatePathTests {
  @Test func formatting() {
    #expect(StatePath.root.description == "")
    #expect(StatePath([.field("count")]).description == "count")
    #expect(StatePath([.field("pages"), .id(2), .field("count")]).description == "pages[id: 2].count")
    #expect(StatePath([.field("results"), .index(3)]).description == "results[3]")
    #expect(StatePath([.field("settings"), .key("theme")]).description == #"settings["theme"]"#)
    #expect(StatePath([.field("todos"), .id("a\"b")]).description == #"todos[id: "a\"b"]"#)
    #expect(StatePath([.index(0), .field("x")]).description == "[0].x")
    #expect(StatePath([.field("rows"), .id(.int(Int.min)), .index(Int.max)]).description == "rows[id: -9223372036854775808][9223372036854775807]")
    #expect(StatePath([.field("é"), .id(-0), .field(""), .field("b")]).description == "é[id: 0]..b")
  }

  /// The text written in one piece (fields, positions, integer ids) is the text appended
  /// component by component, on every mix of components.
  @Test func oneWrittenTextIsTheAppendedText() {
    var generator = SplitMix64(seed: 7)
    let pool: [StatePath.Component] = [
      .field("rows"), .field("isDone"), .field("ü"), .index(0), .index(12_345), .id(.int(-7)), .id(.int(Int.max)),
      .id(.string("a")), .key("k"), .id(.double(1.5)),
    ]
    for _ in 0..<2_000 {
      let count = Int(generator.next() % 6)
      let components = (0..<count).map { _ in pool[Int(generator.next() % UInt64(pool.count))] }
      var appended = ""
      for component in components { StatePath.append(component, to: &appended) }
      #expect(StatePath(components).description == appended, "\(components)")
    }
  }

  @Test(arguments: [
    "count", "pages[id: 2].count", "results[3]", #"settings["theme"]"#, #"todos[id: "a]b"].title"#,
    "[0].x", #"m["a.b"]["c"][2]"#, "", "a.b.c",
  ])
  func parsingRoundTrips(text: String) throws {
    #expect(try StatePath(parsing: text).description == text)
  }

  @Test(arguments: [".a", "a[", "a[x]", "a..b", "a[id: nope]", "a[-1]", "a]b[0]x"])
  func parsingErrors(text: String) {
    #expect(throws: StatePath.ParseError.self) { try StatePath(parsing: text) }
  }
}

@Suite struct IdentifiedArrayTests {
  struct Todo: Identifiable, Equatable { var id: Int; var title: String }

  @Test func basics() {
    var todos: IdentifiedArrayOf<Todo> = [Todo(id: 1, title: "a"), Todo(id: 2, title: "b"), Todo(id: 1, title: "dup")]
    #expect(todos.ids == [1, 2])
    #expect(todos[id: 1]?.title == "a")
    todos[id: 2]?.title = "B"
    #expect(todos[1].title == "B")
    todos[id: 3] = Todo(id: 3, title: "c")
    #expect(todos.ids == [1, 2, 3])
    let appended = todos.append(Todo(id: 3, title: "x"))
    #expect(!appended)
    todos.insert(Todo(id: 0, title: "z"), at: 0)
    #expect(todos.ids == [0, 1, 2, 3])
    #expect(todos.remove(id: 1)?.title == "a")
    todos[id: 2] = nil
    #expect(todos.ids == [0, 3])
    todos.move(fromOffsets: [0], toOffset: 2)
    #expect(todos.ids == [3, 0])
    todos.removeAll { $0.id == 3 }
    #expect(todos.elements == [Todo(id: 0, title: "z")])
    let mirror = Mirror(reflecting: todos)
    #expect(mirror.displayStyle == .collection && mirror.children.count == 1)
  }
}

/// A filter with many wildcard patterns remembers each text's verdict: the same verdicts as
/// checking every pattern, whatever the order and past its memory's capacity.
@Suite struct GlobSetVerdictTests {
  @Test func rememberedVerdictsEqualCheckedOnes() {
    let globs = (0..<1_000).map { Glob("Kind\($0).*") } + [Glob("state.*"), Glob("*.finished")]
    let set = GlobSet(globs)
    let texts = ["state.changed", "effect.finished", "mark", "Kind7.x", "Kind70", "Kind999.", "kind7.x", "state."]
    for round in 0..<3 {
      for text in texts {
        #expect(set.matches(text) == globs.contains { $0.matches(text) }, "\(text), round \(round)")
      }
    }
    // Past the capacity the memory starts over, and answers stay right.
    let few = [Glob("a*"), Glob("*b"), Glob("c?"), Glob("*d*"), Glob("text-1*")]
    let small = GlobSet(few)
    for index in 0..<(GlobVerdicts.capacity + 10) { _ = small.matches("text-\(index)") }
    for text in ["ab", "xb", "cd", "c", "text-12", "text-2", "adb"] {
      #expect(small.matches(text) == few.contains { $0.matches(text) }, "\(text) after the reset")
    }
  }

  @Test func aCompiledFilterWithManyPatternsAgreesWithTheFilter() {
    let filter = EventFilter(kinds: (0..<500).map { Glob("x\($0)*") } + [Glob("mark")], stores: (0..<10).map { Glob("S\($0)#*") })
    let compiled = CompiledEventFilter(filter)
    let events = [
      Event(seq: 1, time: 1, payload: .mark(Mark(label: "m"))),
      Event(seq: 2, time: 2, payload: .storeCreated(StoreCreated(store: "S3#1", type: "S", parent: nil, identity: "i"))),
      Event(seq: 3, time: 3, payload: .storeCreated(StoreCreated(store: "T#1", type: "T", parent: nil, identity: "i"))),
    ]
    for _ in 0..<2 {
      #expect(events.map(compiled.matches) == events.map(filter.matches))
    }
  }
}
