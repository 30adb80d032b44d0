import Testing
import TestSupport
@testable import LoupeCore

/// A rebuild that keeps the ids of the state's identified arrays (``IDDirectory``, issue 33
/// item 18) does exactly what one that searches the arrays each time does, whatever the
/// changes: long runs of inserts, removals and edits by id, and what a foreign trace may do
/// besides (an id inserted twice, elements edited by position, an element's `id` member
/// changed, duplicate ids, ids that are not integers, a member reached by another spelling,
/// changes that fail and are placed).
@Suite struct IDDirectoryTests {
  @Test(arguments: [1, 2, 3, 4, 5, 6] as [UInt64]) func agreesWithSearchingEachTime(seed: UInt64) {
    var random = SplitMix64(seed: seed)
    var applied = 0
    var failed = 0
    for round in 0..<40 {
      let placing = round % 2 == 1
      var plain: JSON = placing ? .object([:]) : Self.state(&random)
      var direct = plain
      var plainApproximate = false
      var directApproximate = false
      var plainShape: ValueShape?
      var directShape: ValueShape?
      let directory = IDDirectory()
      for _ in 0..<300 {
        let change = Self.change(in: plain, &random)
        let event = StateChanged(store: "App#1", cause: 1, changes: [change], summary: "App#1: _items changed.")
        let before = plain
        let wasApproximate = plainApproximate
        StateRebuilder.applyChanges(
          of: event, under: StatePath(), to: &plain, approximate: &plainApproximate, shape: &plainShape, placing: placing)
        StateRebuilder.applyChanges(
          of: event, under: StatePath(), to: &direct, approximate: &directApproximate, shape: &directShape, placing: placing,
          directory: directory)
        if plainApproximate && !wasApproximate || plain == before { failed += 1 } else { applied += 1 }
        #expect(direct == plain, "\(change) on \(before.jsonText)")
        #expect(directApproximate == plainApproximate, "\(change) on \(before.jsonText)")
        if direct != plain { return }
      }
    }
    #expect(applied > 5_000 && failed > 500, "\(applied) applied, \(failed) failed")
  }

  @Test func anInsertOfAnIDAlreadyPresentFailsWhateverPutItThere() throws {
    let directory = IDDirectory()
    var state: JSON = ["rows": [["id": 1], ["id": 2]]]
    func apply(_ path: String, _ op: Change.Op, _ new: JSON? = nil, index: Int? = nil) throws {
      let change = Change(path: path, op: op, new: new, index: index)
      try change.apply(to: &state, at: try StatePath(parsing: path).components[...], directory: directory)
    }
    try apply("rows[id: 3]", .insert, ["id": 3])  // the table is made here
    #expect(throws: ChangeApplicationError.self) { try apply("rows[id: 3]", .insert, ["id": 3]) }
    // Put there by position, by a replace under another id, and by the `id` member.
    try apply("rows[0]", .insert, ["id": 7])
    #expect(throws: ChangeApplicationError.self) { try apply("rows[id: 7]", .insert, ["id": 7]) }
    try apply("rows[id: 2]", .replace, ["id": 8])
    #expect(throws: ChangeApplicationError.self) { try apply("rows[id: 8]", .insert, ["id": 8]) }
    try apply("rows[id: 1].id", .replace, 9)
    #expect(throws: ChangeApplicationError.self) { try apply("rows[id: 9]", .insert, ["id": 9]) }
    try apply("rows", .replace, [["id": 4], ["id": 4]])
    #expect(throws: ChangeApplicationError.self) { try apply("rows[id: 4]", .insert, ["id": 4]) }
    // Removed once of two, still there; removed again, gone.
    try apply("rows[id: 4]", .remove)
    #expect(throws: ChangeApplicationError.self) { try apply("rows[id: 4]", .insert, ["id": 4]) }
    try apply("rows[id: 4]", .remove)
    try apply("rows[id: 4]", .insert, ["id": 4, "v": 1])
    #expect(state == ["rows": [["id": 4, "v": 1]]])
  }

  @Test func anElementFoundByItsIDIsTheFirstHoldingIt() throws {
    let directory = IDDirectory()
    var state: JSON = ["rows": [["id": 1, "v": 0], ["id": 2, "v": 0]]]
    func apply(_ path: String, _ op: Change.Op, _ new: JSON? = nil, index: Int? = nil) throws {
      let change = Change(path: path, op: op, new: new, index: index)
      try change.apply(to: &state, at: try StatePath(parsing: path).components[...], directory: directory)
    }
    try apply("rows[id: 2].v", .replace, 1)
    try apply("rows[id: 5]", .insert, ["id": 2, "v": 7], index: 0)  // a second 2, before the first
    try apply("rows[id: 2].v", .replace, 3)
    #expect(state == ["rows": [["id": 2, "v": 3], ["id": 1, "v": 0], ["id": 2, "v": 1]]])
  }

  @Test func anElementReplacedUnderAnotherIDHidesTheOneItNowComesBefore() throws {
    let directory = IDDirectory()
    var state: JSON = ["items": [["id": 1, "rows": []], ["id": 2, "rows": [["id": 5]]]]]
    func apply(_ path: String, _ op: Change.Op, _ new: JSON? = nil) throws {
      let change = Change(path: path, op: op, new: new)
      try change.apply(to: &state, at: try StatePath(parsing: path).components[...], directory: directory)
    }
    try apply("items[id: 2].rows[id: 5].v", .replace, 1)  // the ids of item 2's rows are read
    try apply("items[id: 1]", .replace, ["id": 2, "rows": [["id": 6]]])  // `[id: 2]` finds this one now
    try apply("items[id: 2].rows[id: 5]", .insert, ["id": 5])
    #expect(state == ["items": [["id": 2, "rows": [["id": 6], ["id": 5]]], ["id": 2, "rows": [["id": 5, "v": 1]]]]])
  }

  @Test func aMemberReplacedUnderAnotherSpellingIsForgotten() throws {
    let directory = IDDirectory()
    var state: JSON = ["e\u{301}": [["id": 1]]]
    func apply(_ path: StatePath, _ op: Change.Op, _ new: JSON? = nil) throws {
      let change = Change(path: path.description, op: op, new: new)
      try change.apply(to: &state, at: path.components[...], directory: directory)
    }
    try apply(StatePath([.key("e\u{301}"), .id(2)]), .insert, ["id": 2])  // its ids are read
    // `.é` sets the member spelled `e\u{301}` (canonically equal), as `object["é"]` does.
    try apply(StatePath([.field("\u{e9}")]), .replace, [["id": 7], ["id": 8]])
    #expect(throws: ChangeApplicationError.self) { try apply(StatePath([.key("e\u{301}"), .id(7)]), .insert, ["id": 7]) }
    try apply(StatePath([.key("e\u{301}"), .id(2)]), .insert, ["id": 2])
    #expect(state == ["e\u{301}": [["id": 7], ["id": 8], ["id": 2]]])
  }

  // MARK: - Random states and changes

  /// `{items: [{id, rows: [{id, v}], tags}], "é": [...], total}`.
  static func state(_ r: inout SplitMix64) -> JSON {
    var items: [JSON] = []
    for id in (1...8).shuffled(using: &r).prefix(Int(r.next() % 6)) {
      items.append(["id": .int(id), "rows": .array(rows(&r)), "tags": [0, 1, 2]])
    }
    return ["items": .array(items), "é": .array(rows(&r)), "total": 0]
  }

  static func rows(_ r: inout SplitMix64) -> [JSON] {
    (1...12).shuffled(using: &r).prefix(Int(r.next() % 10)).map { ["id": .int($0), "v": .int(Int(r.next() % 3))] }
  }

  /// A change at a path that mostly exists in `state`, with ids mostly taken from it, and
  /// every odd thing a foreign trace might send now and then.
  static func change(in state: JSON, _ r: inout SplitMix64) -> Change {
    var components: [StatePath.Component] = []
    var value: JSON? = state
    while r.next() % 5 != 0 {
      switch value {
      case .object(let object)?:
        var keys = object.keys
        if r.next() % 8 == 0 { keys += ["id", "zz", "e\u{301}"] }
        guard let key = keys.randomElement(using: &r) else { break }
        components.append(r.next() % 4 == 0 ? .key(key) : .field(key))
        value = object[key]
      case .array(let array)?:
        if r.next() % 8 == 0 {
          let position = Int(r.next() % UInt64(array.count + 2))
          components.append(.index(position))
          value = position < array.count ? array[position] : nil
        } else {
          let existing = array.randomElement(using: &r)?["id"]
          let id: JSON =
            switch r.next() % 12 {
            case 0: .string("1")
            case 1: .double(1.0)
            case 2, 3: .int(Int(r.next() % 14))
            default: existing ?? .int(Int(r.next() % 14))
            }
          components.append(.id(id))
          value = array.first { $0["id"] == id }
        }
      default:
        break
      }
      if value == nil || r.next() % 3 == 0 { break }
    }
    let op = [Change.Op.replace, .insert, .insert, .remove][Int(r.next() % 4)]
    var change = Change(path: StatePath(components).description, op: op)
    if op != .remove {
      let id: JSON = if case .id(let id)? = components.last, r.next() % 6 != 0 { id } else { .int(Int(r.next() % 14)) }
      switch r.next() % 10 {
      case 0: change.new = .array(rows(&r) + rows(&r))  // duplicates, often
      case 1: change.new = .int(Int(r.next() % 14))
      case 2: change.new = ["v": 1, "id": id]  // the id not first
      case 3: change.new = ["id": .string("1")]
      default: change.new = ["id": id, "v": .int(Int(r.next() % 3)), "rows": .array(rows(&r))]
      }
    }
    if r.next() % 2 == 0 { change.index = Int(r.next() % 12) }
    return change
  }
}
