import Foundation
import Testing
import TestSupport
@testable import LoupeCore
@testable import LoupeSession

/// ``TraceStateIndex`` (what `loupe state` and `loupe replay` read) rebuilds the same state as
/// the rule applied event by event (``StateRebuilder``) and as ``SessionModel``, at every
/// `seq`, asked in any order (so checkpoints are made and reused out of order).
@Suite struct TraceStateIndexTests {
  /// A random session of two root stores: `A#1` with scoped stores at `items[id: k]` (inserted,
  /// changed, removed), snapshotted at its creation and then now and then; `B#1` without any
  /// snapshot (a store from before snapshots: approximate). Well over
  /// ``StateRebuilder/checkpointSpacing`` changes, so rebuilds go through checkpoints.
  /// With `destroying`, a removed item's store ends with `store.destroyed`.
  static func randomSession(seed: UInt64, count: Int = 1_500, destroying: Bool = false) -> [Event] {
    var random = SplitMix64(seed: seed)
    var events: [Event] = []
    func add(_ payload: Event.Payload) {
      events.append(Event(seq: events.count + 1, time: Double(events.count), payload: payload))
    }
    var truth: JSON = ["n": 0, "items": []]
    var ids: [Int] = []
    var nextID = 1
    var alive: Set<String> = []
    add(.storeCreated(StoreCreated(store: "A#1", type: "A", parent: nil, identity: "A#1")))
    add(.stateSnapshot(StateSnapshot(store: "A#1", cause: nil, state: truth)))
    add(.storeCreated(StoreCreated(store: "B#1", type: "B", parent: nil, identity: "B#1")))
    while events.count < count {
      let action = events.count + 1
      add(.actionReceived(ActionReceived(store: "A#1", action: "A.Action.x", value: .null, origin: .send)))
      var change: Change
      var store = "A#1"
      let roll = Int.random(in: 0..<10, using: &random)
      switch roll {
      case 0, 1:
        let id = nextID
        nextID += 1
        change = Change(path: "items[id: \(id)]", op: .insert, new: ["id": .int(id), "v": 0], index: ids.count)
        ids.append(id)
      case 2 where !ids.isEmpty:
        let id = ids.remove(at: Int.random(in: 0..<ids.count, using: &random))
        let old = StateRebuilder.value(in: truth, at: try! StatePath(parsing: "items[id: \(id)]"))
        change = Change(path: "items[id: \(id)]", op: .remove, old: old)
        if destroying, alive.remove("A#1/items[id: \(id)]") != nil {
          add(.storeDestroyed(StoreDestroyed(store: "A#1/items[id: \(id)]", identity: "A#1/items[id: \(id)]")))
        }
      case 3...5 where !ids.isEmpty:
        let id = ids[Int.random(in: 0..<ids.count, using: &random)]
        store = "A#1/items[id: \(id)]"
        let old = StateRebuilder.value(in: truth, at: try! StatePath(parsing: "items[id: \(id)].v"))!
        change = Change(path: "v", op: .replace, old: old, new: .int(old.intValue! + 1))
      case 6:
        add(.actionReceived(ActionReceived(store: "B#1", action: "B.Action.y", value: .null, origin: .send)))
        let n = Int.random(in: 0..<100, using: &random)
        add(.stateChanged(StateChanged(store: "B#1", cause: events.count, changes: [Change(path: "k\(n % 3)", op: .replace, old: 0, new: .int(n))], summary: "B#1: _k changed.")))
        continue
      default:
        let old = truth["n"]!
        change = Change(path: "n", op: .replace, old: old, new: .int(old.intValue! + 1))
      }
      add(.stateChanged(StateChanged(store: store, cause: action, changes: [change], summary: "\(store): changed.")))
      var absolute = change
      if let scope = StateRebuilder.scopePath(of: store), !scope.isRoot {
        absolute.path = StatePath(scope.components + (try! StatePath(parsing: change.path)).components).description
      }
      try! absolute.apply(to: &truth)
      if store != "A#1", alive.insert(store).inserted {
        add(.storeCreated(StoreCreated(store: store, type: "Item", parent: "A#1", identity: store)))
      }
      if Int.random(in: 0..<60, using: &random) == 0 {
        add(.stateSnapshot(StateSnapshot(store: "A#1", cause: action, state: truth)))
      }
    }
    return events
  }

  static func write(_ events: [Event], in scratch: ScratchDirectory) -> String {
    scratch.file("random.loupe", TraceSamples.traceBytes(events))
  }

  @Test(arguments: [1, 2, 3] as [UInt64]) func agreesWithTheRuleAtEverySeq(seed: UInt64) throws {
    let events = Self.randomSession(seed: seed)
    let scratch = ScratchDirectory()
    let path = Self.write(events, in: scratch)
    let states = try TraceStateIndex(tracePath: path)
    let model = try SessionModel(tracePath: path)
    // Expected: the rule applied event by event.
    var rebuilder = StateRebuilder()
    var expected: [Int: (a: RebuiltState?, b: RebuiltState?)] = [:]
    for event in events {
      rebuilder.apply(event)
      expected[event.seq] = (rebuilder.state(of: "A#1"), rebuilder.state(of: "B#1"))
    }
    var random = SplitMix64(seed: seed &+ 100)
    var order = events.map(\.seq)
    order.shuffle(using: &random)
    for seq in order {
      #expect(states.state(of: "A#1", atSeq: seq) == expected[seq]!.a, "A#1 at #\(seq)")
      #expect(states.state(of: "B#1", atSeq: seq) == expected[seq]!.b, "B#1 at #\(seq)")
      #expect(model.state(of: "A#1", atSeq: seq) == expected[seq]!.a, "model: A#1 at #\(seq)")
    }
    // The rebuilt A#1 is exact (it has snapshots), B#1 approximate (it has none).
    #expect(states.state(of: "A#1", atSeq: events.count)?.approximate == false)
    #expect(states.state(of: "B#1", atSeq: events.count)?.approximate == true)
  }

  @Test func scopedStoresAndLives() throws {
    let events = Self.randomSession(seed: 7, count: 400)
    let scratch = ScratchDirectory()
    let states = try TraceStateIndex(tracePath: Self.write(events, in: scratch))
    #expect(states.events == events.count)
    #expect(states.firstSeq == 1)
    #expect(states.lastSeq == events.count)
    #expect(states.isComplete)
    #expect(Array(states.stores.prefix(2)) == ["A#1", "B#1"])
    let last = events.count
    let whole = try #require(states.state(of: "A#1", atSeq: last))
    for store in states.stores where store.hasPrefix("A#1/") {
      // A scoped store's state is the value at its path in the root's state, or nothing once removed.
      let scope = try #require(StateRebuilder.scopePath(of: store))
      #expect(states.state(of: store, atSeq: last) == whole.at(scope))
    }
    #expect(states.isAlive("A#1", atSeq: 1))
    #expect(!states.isAlive("B#1", atSeq: 2))
    #expect(states.isAlive("B#1", atSeq: 3))
    #expect(states.snapshotSeq(of: "A#1/items[id: 1]", atOrBeforeSeq: 2) == 2)
    #expect(states.snapshotSeq(of: "A#1", atOrBeforeSeq: 1) == nil)
    #expect(states.snapshotSeq(of: "B#1", atOrBeforeSeq: last) == nil)
    #expect(states.lives(of: "A#1") == [TraceStateIndex.Life(created: 1, destroyed: nil)])
  }

  @Test func stopsAfterThrough() throws {
    let events = Self.randomSession(seed: 9, count: 300)
    let scratch = ScratchDirectory()
    let path = Self.write(events, in: scratch)
    let early = try TraceStateIndex(tracePath: path, through: 120)
    let full = try TraceStateIndex(tracePath: path)
    #expect(!early.isComplete)
    #expect(early.lastSeq == 121)
    for seq in [1, 2, 50, 119, 120] {
      #expect(early.state(of: "A#1", atSeq: seq) == full.state(of: "A#1", atSeq: seq))
    }
  }

  @Test func beforeAnyStateNothingIsKnown() throws {
    let events = Self.randomSession(seed: 11, count: 50)
    let scratch = ScratchDirectory()
    let states = try TraceStateIndex(tracePath: Self.write(events, in: scratch))
    #expect(states.state(of: "A#1", atSeq: 1) == nil)
    #expect(states.state(of: "A#1", atSeq: 2) == RebuiltState(value: ["n": 0, "items": []], approximate: false))
    #expect(states.state(of: "Nope#1", atSeq: 50) == nil)
    #expect(!states.hasState(of: "Nope#1"))
  }

  /// Lines written by another writer (members in another order, escapes) are decoded in full;
  /// a malformed line is counted and skipped; a last line cut short is the trace's damaged end.
  @Test func linesNotInLoupesOwnShapeStillCount() throws {
    let events = Self.randomSession(seed: 13, count: 200)
    var lines = events.map(\.jsonText)
    // Reorder the members of every fifth state event: `kind` first, `seq` last.
    for index in lines.indices where index % 5 == 0 && events[index].kind.hasPrefix("state.") {
      var object = events[index].json.objectValue!
      let seq = object["seq"]!
      object.members.removeAll { $0.key == "seq" }
      object.members.sort { $0.key == "kind" && $1.key != "kind" }
      object.append("seq", seq)
      lines[index] = JSON.object(object).jsonText
    }
    let text = TraceSamples.header.jsonText + "\n" + lines.joined(separator: "\n") + "\n{\"seq\":oops}\n{\"seq\":999,\"time\":1,\"ki"
    let scratch = ScratchDirectory()
    let reordered = try TraceStateIndex(tracePath: scratch.file("reordered.loupe", text: text))
    let plain = try TraceStateIndex(tracePath: Self.write(events, in: scratch))
    #expect(reordered.events == events.count)
    #expect(reordered.lastSeq == events.count)
    for seq in stride(from: 1, through: events.count, by: 7) {
      #expect(reordered.state(of: "A#1", atSeq: seq) == plain.state(of: "A#1", atSeq: seq), "#\(seq)")
    }
    #expect(reordered.reader.malformedLineCount == 1)
    #expect(reordered.reader.truncation?.line == events.count + 3)
  }

  @Test func eventLinePrefix() {
    func parse(_ text: String) -> String? {
      let bytes = Array(text.utf8)
      return bytes.withUnsafeBufferPointer { line in
        EventLinePrefix.parse(line).map { prefix in
          let kind = String(decoding: UnsafeBufferPointer(rebasing: line[prefix.kind]), as: UTF8.self)
          let store = prefix.store.map { String(decoding: UnsafeBufferPointer(rebasing: line[$0]), as: UTF8.self) }
          return "\(prefix.seq) \(kind) \(store ?? "-")"
        }
      }
    }
    #expect(parse(#"{"seq":42,"time":3.5,"kind":"state.changed","store":"App#1/pages[id: 2]","cause":41}"#) == "42 state.changed App#1/pages[id: 2]")
    #expect(parse(#"{"seq":7,"time":1e-3,"kind":"mark","label":"x"}"#) == "7 mark -")
    #expect(parse(#"{"seq":7,"time":1,"kind":"state.changed","store":"A\u0023 1"}"#) == "7 state.changed -")  // escaped: decode it
    #expect(parse(#"{"kind":"mark","seq":7,"time":1}"#) == nil)
    #expect(parse(#"{"seq":,"time":1,"kind":"mark"}"#) == nil)
    #expect(parse(#"{"seq":7,"time":1,"kind":"ma"#) == nil)
    #expect(parse(#"{ "seq":7,"time":1,"kind":"mark"}"#) == nil)
  }
}
