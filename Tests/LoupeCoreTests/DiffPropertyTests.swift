import Foundation
import Testing
import TestSupport
@testable import LoupeCore

/// Replaying `diff(a, b)` on `render(a)` must give `render(b)` exactly, for generated pairs.
@Suite struct DiffPropertyTests {
  @Test(arguments: [
    RenderOptions.default,
    RenderOptions(redactedPaths: [Glob("*title*"), Glob("scores[\"k1\"]")]),
    RenderOptions(maxDepth: 3, maxStringLength: 2),
  ])
  func replayingTheDiffRebuildsTheNewRendering(options: RenderOptions) throws {
    var rng = SplitMix64(seed: 0x10_0BE)
    var summaries = ChangeSummary.LineCache()
    for round in 0..<400 {
      let a = Root.random(&rng)
      let b = round % 5 == 0 ? Root.random(&rng) : a.mutated(&rng)
      let old = ValueRenderer.render(a, options: options)
      let new = ValueRenderer.render(b, options: options)
      let changes = StateDiff.diff(a, b, options: options)
      let replayed = try changes.apply(to: old)
      // Compared as the wire writes them: `JSON`'s `==` calls 0.0 and -0.0, "é" and "e\u{301}" equal.
      #expect(replayed.isWireIdentical(to: new), "round \(round):\n\(ChangeText.text(changes))\n\(DiffText.diff(replayed, new) ?? "")")
      if !replayed.isWireIdentical(to: new) { return }
      // The store's variant: the same changes, each path also as components, and the same
      // summary line from those as from the text.
      let (withPaths, paths) = StateDiff.diffWithPaths(a, b, options: options)
      #expect(withPaths == changes, "round \(round)")
      #expect(paths.map(\.description) == changes.map(\.path), "round \(round)")
      // The variant for a store with no children: the same changes, each path's first component.
      let (withFirsts, firsts) = StateDiff.diffWithFirstComponents(a, b, options: options)
      #expect(withFirsts == changes, "round \(round)")
      #expect(firsts == paths.map { $0.components.first }, "round \(round)")
      #expect(
        ChangeSummary.line(store: "R#1", paths: paths, newIdentity: round % 7 == 0)
          == ChangeSummary.line(store: "R#1", changes: changes, newIdentity: round % 7 == 0), "round \(round)")
      // A runtime's cached line is the line of this round, whatever the last round was.
      let store = round % 3 == 0 ? "R#1" : "R#2"
      #expect(
        ChangeSummary.line(store: store, firstComponents: firsts, newIdentity: round % 7 == 0, cache: &summaries)
          == ChangeSummary.line(store: store, changes: changes, newIdentity: round % 7 == 0), "round \(round)")
      #expect(StateDiff.diff(a, a, options: options).isEmpty, "round \(round)")
      #expect(try JSONDiff.diff(old, new).apply(to: old).isWireIdentical(to: new), "round \(round)")
      // Nothing is reported where nothing shows, except that a redacted value changed.
      let visible = changes.filter { $0.old != .string(RenderMarker.redacted) || $0.new != .string(RenderMarker.redacted) }
      #expect(visible.isEmpty == old.isWireIdentical(to: new), "round \(round)")
    }
  }

  @Test func childDiffsReplayOnTheRootRendering() throws {
    var rng = SplitMix64(seed: 7)
    for round in 0..<100 {
      let a = Root.random(&rng)
      var b = a
      b.nested = a.mutated(&rng).nested
      let base: StatePath = "nested"
      let changes = StateDiff.diff(a.nested, b.nested, at: base)
      #expect(changes.allSatisfy { $0.path.hasPrefix("nested") }, "round \(round)")
      #expect(try changes.apply(to: ValueRenderer.render(a)) == ValueRenderer.render(b), "round \(round)")
    }
  }
}

// MARK: - Generated states

fileprivate extension RandomNumberGenerator {
  mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &self) }
  mutating func chance(_ percent: Int) -> Bool { int(0...99) < percent }
  mutating func word() -> String { ["a", "b", "c", "milk", "eggs", "k1", "k2", "long title", "\u{E9}", "e\u{301}"][int(0...9)] }
  /// The floating-point values whose `==` and rendering disagree, and a plain one.
  mutating func special() -> Double { [0.0, -0.0, .nan, .infinity, -.infinity, 1.5][int(0...5)] }
  mutating func array<T>(_ range: ClosedRange<Int>, _ make: (inout Self) -> T) -> [T] {
    (0..<int(range)).map { _ in make(&self) }
  }
}

private struct Item: Equatable {
  var name: String
  var qty: Int
  static func random(_ r: inout SplitMix64) -> Item { Item(name: r.word(), qty: r.int(0...3)) }
}

private struct Todo: Equatable, Identifiable {
  var id: Int
  var title: String
  var done: Bool
  var tags: [String]
  static func random(_ r: inout SplitMix64, id: Int) -> Todo {
    Todo(id: id, title: r.word(), done: r.chance(50), tags: r.array(0...3) { $0.word() })
  }
}

/// Not `Equatable`: exercises the reflection paths.
private struct LooseTodo: Identifiable {
  var id: String
  var note: String?
  var score: Double
  static func random(_ r: inout SplitMix64, id: Int) -> LooseTodo {
    LooseTodo(id: "t\(id)", note: r.chance(50) ? r.word() : nil, score: Double(r.int(0...4)) / 2)
  }
}

private enum Phase: Equatable {
  case idle
  case loading(progress: Int)
  case loaded([Int])
  case failed(String, code: Int)
  static func random(_ r: inout SplitMix64) -> Phase {
    switch r.int(0...3) {
    case 0: .idle
    case 1: .loading(progress: r.int(0...2))
    case 2: .loaded(r.array(0...4) { $0.int(0...3) })
    default: .failed(r.word(), code: r.int(0...2))
    }
  }
}

/// Not `Equatable`.
private enum LoosePhase {
  case a
  case b(Item)
  case c(x: Int?, y: [String: Int])
  static func random(_ r: inout SplitMix64) -> LoosePhase {
    switch r.int(0...2) {
    case 0: .a
    case 1: .b(.random(&r))
    default: .c(x: r.chance(50) ? r.int(0...2) : nil, y: Dictionary(r.array(0...3) { ($0.word(), $0.int(0...2)) }, uniquingKeysWith: { a, _ in a }))
    }
  }
}

private enum Tap { case tapped }
private struct Nothing {}
private enum Wrapper { case inner(Tap) }

/// Payloads that take no bytes (laid out as cases without payloads, shown with them).
private enum ZeroPayload {
  case button(Tap)
  case empty(Nothing)
  case void(Void)
  case wrapped(Wrapper)
  case plain
  static func random(_ r: inout SplitMix64) -> ZeroPayload {
    [.button(.tapped), .empty(Nothing()), .void(()), .wrapped(.inner(.tapped)), .plain][r.int(0...4)]
  }
}

/// An empty payload beside real ones.
private enum MixedZero: Equatable {
  case count(Int)
  case button(Tap)
  case idle
  static func random(_ r: inout SplitMix64) -> MixedZero {
    switch r.int(0...2) {
    case 0: .count(r.int(0...2))
    case 1: .button(.tapped)
    default: .idle
    }
  }
}

private struct Child: Equatable {
  var label: String
  var values: [Int]
  var flag: Bool?
  /// `Equatable`, holding a number whose `==` disagrees with its rendering (0.0 and -0.0).
  var level = 0.0
  static func random(_ r: inout SplitMix64) -> Child {
    Child(label: r.word(), values: r.array(0...5) { $0.int(0...4) }, flag: r.chance(30) ? nil : r.chance(50), level: r.special())
  }
}

/// Not `Equatable`, so the root is walked field by field.
private struct Root {
  var count: Int
  var title: String
  var child: Child?
  var nested: Child
  var items: [Item]
  var numbers: [Int]
  var todos: IdentifiedArrayOf<Todo>
  var plainTodos: [Todo]
  var looseTodos: [LooseTodo]
  var scores: [String: Int]
  var byID: [Int: Item]
  var phase: Phase
  var loosePhase: LoosePhase
  var tags: Set<String>
  var maybeList: [Int?]
  var matrix: [[Int]]
  var optionalDict: [String: Int?]
  var pair: (Int, String?)
  var labelled: (a: Int?, b: [Int])
  var json: JSON?
  var looseItems: [LooseTodo?]
  var zero: ZeroPayload
  var zeros: [ZeroPayload]
  var mixedZero: MixedZero?

  static func random(_ r: inout SplitMix64) -> Root {
    Root(
      count: r.int(0...3), title: r.word(), child: r.chance(40) ? nil : .random(&r), nested: .random(&r),
      items: r.array(0...6) { Item.random(&$0) }, numbers: r.array(0...8) { $0.int(0...5) },
      todos: IdentifiedArray(uniqueElements: uniqueIDs(&r).map { Todo.random(&r, id: $0) }),
      plainTodos: uniqueIDs(&r).map { Todo.random(&r, id: $0) },
      looseTodos: uniqueIDs(&r).map { LooseTodo.random(&r, id: $0) },
      scores: Dictionary(r.array(0...4) { ($0.word(), $0.int(0...3)) }, uniquingKeysWith: { a, _ in a }),
      byID: Dictionary(r.array(0...4) { ($0.int(0...12), Item.random(&$0)) }, uniquingKeysWith: { a, _ in a }),
      phase: .random(&r), loosePhase: .random(&r), tags: Set(r.array(0...4) { $0.word() }),
      maybeList: r.array(0...5) { $0.chance(40) ? nil : $0.int(0...3) },
      matrix: r.array(0...3) { r in r.array(0...3) { $0.int(0...2) } },
      optionalDict: Dictionary(r.array(0...3) { ($0.word(), $0.chance(50) ? nil : $0.int(0...2)) }, uniquingKeysWith: { a, _ in a }),
      pair: (r.int(0...2), r.chance(50) ? nil : r.word()), labelled: (r.chance(50) ? nil : r.int(0...2), r.array(0...3) { $0.int(0...3) }),
      json: r.chance(30) ? nil : randomJSON(&r, depth: 0),
      looseItems: r.array(0...3) { $0.chance(30) ? nil : LooseTodo.random(&$0, id: $0.int(0...3)) },
      zero: .random(&r), zeros: r.array(0...4) { ZeroPayload.random(&$0) },
      mixedZero: r.chance(30) ? nil : .random(&r)
    )
  }

  /// A few random edits, the way reducers change state.
  func mutated(_ r: inout SplitMix64) -> Root {
    var s = self
    for _ in 0..<r.int(1...4) {
      switch r.int(0...23) {
      case 0: s.count += 1
      case 1: s.title = r.word()
      case 2: s.child = r.chance(50) ? nil : .random(&r)
      case 3: if s.child != nil { s.child!.values.append(r.int(0...4)) }
      case 4:
        if r.chance(50) { s.nested.flag = r.chance(50) ? nil : !(s.nested.flag ?? false) } else { s.nested.level = r.special() }
      case 5: mutate(&s.items, &r, make: { Item.random(&$0) })
      case 6: mutate(&s.numbers, &r, make: { $0.int(0...5) })
      case 7:
        if !s.todos.isEmpty, r.chance(50) {
          let id = s.todos.ids[r.int(0...(s.todos.count - 1))]
          s.todos[id: id]?.title = r.word()
        } else if !s.todos.isEmpty, r.chance(50) {
          s.todos.remove(at: r.int(0...(s.todos.count - 1)))
        } else {
          s.todos.insert(Todo.random(&r, id: 100 + r.int(0...50)), at: r.int(0...s.todos.count))
        }
      case 8:
        if s.todos.count > 1 { s.todos.move(fromOffsets: [r.int(0...(s.todos.count - 1))], toOffset: r.int(0...s.todos.count)) }
      case 9:
        if !s.plainTodos.isEmpty, r.chance(50) {
          s.plainTodos[r.int(0...(s.plainTodos.count - 1))].done.toggle()
        } else {
          s.plainTodos.shuffle(using: &r)
        }
      case 10:
        if !s.looseTodos.isEmpty, r.chance(50) {
          s.looseTodos[r.int(0...(s.looseTodos.count - 1))].note = r.chance(50) ? nil : r.word()
        } else if !s.looseTodos.isEmpty {
          s.looseTodos.remove(at: r.int(0...(s.looseTodos.count - 1)))
        }
      case 11: s.scores[r.word()] = r.chance(30) ? nil : r.int(0...3)
      case 12: s.byID[r.int(0...12)] = r.chance(30) ? nil : .random(&r)
      case 13: s.phase = .random(&r)
      case 14: s.loosePhase = .random(&r)
      case 15: if s.tags.contains("a") { s.tags.remove("a") } else { s.tags.insert(r.word()) }
      case 16: mutate(&s.maybeList, &r, make: { $0.chance(40) ? nil : $0.int(0...3) })
      case 17: if !s.matrix.isEmpty { mutate(&s.matrix[r.int(0...(s.matrix.count - 1))], &r, make: { $0.int(0...2) }) } else { s.matrix.append([1]) }
      case 18: s.optionalDict[r.word()] = r.chance(50) ? .some(nil) : .some(r.int(0...2))
      case 19: s.pair.1 = r.chance(50) ? nil : r.word(); s.labelled.a = r.chance(50) ? nil : r.int(0...3)
      case 20: s.zero = .random(&r)
      case 21: mutate(&s.zeros, &r, make: { ZeroPayload.random(&$0) })
      case 22: s.mixedZero = r.chance(20) ? nil : .random(&r)
      default: s.json = r.chance(20) ? nil : randomJSON(&r, depth: 0)
      }
    }
    return s
  }
}

private func uniqueIDs(_ r: inout SplitMix64) -> [Int] {
  var ids = Array(Set(r.array(0...6) { $0.int(0...9) }))
  ids.sort()
  ids.shuffle(using: &r)
  return ids
}

private func mutate<T>(_ array: inout [T], _ r: inout SplitMix64, make: (inout SplitMix64) -> T) {
  switch r.int(0...3) {
  case 0: array.insert(make(&r), at: r.int(0...array.count))
  case 1: if !array.isEmpty { array.remove(at: r.int(0...(array.count - 1))) }
  case 2: if !array.isEmpty { array[r.int(0...(array.count - 1))] = make(&r) }
  default: array.shuffle(using: &r)
  }
}

private func randomJSON(_ r: inout SplitMix64, depth: Int) -> JSON {
  switch depth > 2 ? r.int(0...3) : r.int(0...5) {
  case 0: return .null
  case 1: return .int(r.int(0...3))
  case 2: return .string(r.word())
  case 3: return .bool(r.chance(50))
  case 4: return .array(r.array(0...3) { randomJSON(&$0, depth: depth + 1) })
  default:
    var object = JSONObject()
    for key in Set(r.array(0...3) { $0.word() }).sorted() { object.append(key, randomJSON(&r, depth: depth + 1)) }
    return .object(object)
  }
}
