import Foundation
import Testing
import TestSupport
@testable import LoupeCore
@testable import LoupeSession

/// Checkpoints of rebuilt states (issue 33 item 18): packed exactly, held within a byte
/// budget however many states are asked for, and never changing an answer.
@Suite struct StateCheckpointTests {
  @Test func packingKeepsEveryValueExactly() {
    var random = SplitMix64(seed: 11)
    let specials: [JSON] = [
      .double(.nan), .double(-.nan), .double(-0.0), .double(0.0), .double(.infinity), .double(-.infinity),
      .double(.leastNonzeroMagnitude), .double(.greatestFiniteMagnitude), .double(1), .int(1),
      .int(.min), .int(.max), .int(0), .int(-1), .string(""), .string("é"), .string("e\u{301}"),
      .string("👩‍👩‍👧 \u{0} \"\\"), .array([]), .object(JSONObject()), .null, .bool(true), .bool(false),
      .object(JSONObject([.init("", .null), .init("é", 1), .init("e\u{301}", 2)])),
    ]
    var values = specials + specials.map { .array([$0, $0]) }
    for _ in 0..<300 { values.append(Self.tree(&random, depth: 0)) }
    for value in values {
      for (approximate, shape) in [(false, nil), (true, ValueShape(enums: ["phase"], tuples: ["phase.seeking"]))] as [(Bool, ValueShape?)] {
        let state = RebuiltState(value: value, approximate: approximate, shape: shape)
        let unpacked = PackedState(state).state
        #expect(Self.identical(unpacked.value, value), "\(value)")
        #expect(unpacked.approximate == approximate && unpacked.shape == shape)
      }
    }
    // Packed, an identified element costs its contents, not a tree of buffers.
    let rows = JSON.array((0..<1_000).map { ["id": .int($0), "done": false] })
    #expect(PackedState(RebuiltState(value: rows, approximate: false)).bytes.count < 20 * 1_000)
  }

  /// With a budget far below what the session's checkpoints would take, the answers at every
  /// `seq`, asked in any order, are still the rule's, and the checkpoints never exceed it.
  /// `fromFile`: the model reads a trace, and packs its checkpoints on a thread of its own
  /// (``CheckpointPacker``), which leaves nothing in flight once it has answered.
  @Test(arguments: [(1, 1_500, false), (2, 6_000, false), (3, 400, false), (4, 0, false), (1, 1_500, true), (2, 6_000, true), (4, 0, true)] as [(UInt64, Int, Bool)])
  func aSmallBudgetBoundsTheCheckpointsAndChangesNoAnswer(seed: UInt64, budget: Int, fromFile: Bool) throws {
    let events = TraceStateIndexTests.randomSession(seed: seed, count: 4_000)
    let scratch = ScratchDirectory()
    let model: SessionModel
    if fromFile {
      let text = TraceSamples.header.jsonText + "\n" + events.map(\.jsonText).joined(separator: "\n") + "\n"
      model = try SessionModel(tracePath: scratch.file("states.loupe", text: text))
      #expect(model.stateIndex.packer != nil)
      model.stateIndex.checkpointBudget = budget
    } else {
      model = SessionModel()
      model.stateIndex = StateIndex(checkpointBudget: budget)
      for event in events { model.append(event) }
    }
    var rebuilder = StateRebuilder()
    var expected: [Int: (a: RebuiltState?, b: RebuiltState?)] = [:]
    for event in events {
      rebuilder.apply(event)
      expected[event.seq] = (rebuilder.state(of: "A#1"), rebuilder.state(of: "B#1"))
    }
    var random = SplitMix64(seed: seed &+ 7)
    var largest = 0
    var made = 0
    for seq in events.map(\.seq).shuffled(using: &random).prefix(1_200) {
      #expect(model.state(of: "A#1", atSeq: seq) == expected[seq]!.a, "A#1 at #\(seq)")
      #expect(model.state(of: "B#1", atSeq: seq) == expected[seq]!.b, "B#1 at #\(seq)")
      let index = model.stateIndex
      let counted = index.roots.values.reduce(0) { $0 + $1.checkpoints.reduce(0) { $0 + $1.state.bytes.count } }
      #expect(index.checkpointBytes == counted)
      #expect(index.checkpointBytes <= budget)
      #expect(index.packer?.take(waiting: false).isEmpty ?? true)  // nothing left in flight
      largest = max(largest, index.checkpointBytes)
      made = max(made, index.checkpointCount)
    }
    if budget >= 1_500 {
      // The budget was reached (so thinning ran), and checkpoints were kept all along.
      #expect(largest > budget / 2 && made > 0, "largest \(largest), count \(made)")
    } else {
      // A state larger than the whole budget is not kept at all.
      #expect(made == 0, "largest \(largest), count \(made)")
    }
  }

  /// Without a snapshot, a root's whole life is one run of changes from nothing: checkpoints
  /// every spacing's changes keep a later question from starting over.
  @Test func aLongRunWithoutSnapshotsIsCheckpointedEverySpacing() {
    let model = SessionModel()
    for n in 1...(StateRebuilder.checkpointSpacing * 40) {
      model.append(
        Event(
          seq: n, time: Double(n),
          payload: .stateChanged(
            StateChanged(
              store: "B#1", cause: n, changes: [Change(path: "rows[id: \(n % 50)]", op: .replace, new: ["id": .int(n % 50), "n": .int(n)])],
              summary: ""))))
    }
    let last = model.state(of: "B#1", atSeq: StateRebuilder.checkpointSpacing * 40)
    #expect(last?.approximate == true)
    #expect(last?.value["rows"]?.arrayValue?.count == 50)
    let root = model.stateIndex.roots["B#1"]!
    #expect(root.checkpoints.count == 40)
    #expect(root.checkpoints.allSatisfy { $0.applied % root.spacing == 0 })
    // Going back asks for no more than a spacing's changes after a checkpoint.
    #expect(model.state(of: "B#1", atSeq: 300)?.value["rows"]?.arrayValue?.count == 50)
  }

  // MARK: - Helpers

  static func tree(_ r: inout SplitMix64, depth: Int) -> JSON {
    switch depth > 3 ? r.next() % 5 : r.next() % 7 {
    case 0: return .null
    case 1: return .int(Int(bitPattern: UInt(truncatingIfNeeded: r.next())) >> Int(r.next() % 64))
    case 2: return .double(Double(bitPattern: r.next()))
    case 3: return .string(String(decoding: (0..<Int(r.next() % 6)).map { _ in UInt8(r.next() % 256) }, as: UTF8.self))
    case 4: return .bool(r.next() % 2 == 0)
    case 5: return .array((0..<Int(r.next() % 5)).map { _ in tree(&r, depth: depth + 1) })
    default:
      return .object(JSONObject((0..<Int(r.next() % 5)).map { k in .init("k\(k)", tree(&r, depth: depth + 1)) }))
    }
  }

  /// Equal bit for bit: doubles by their bit pattern (so `nan` equals itself, `-0.0` is not
  /// `0.0`), `1` not `1.0`, strings by their UTF-8 bytes.
  static func identical(_ a: JSON, _ b: JSON) -> Bool {
    switch (a, b) {
    case (.null, .null): true
    case (.bool(let x), .bool(let y)): x == y
    case (.int(let x), .int(let y)): x == y
    case (.double(let x), .double(let y)): x.bitPattern == y.bitPattern
    case (.string(let x), .string(let y)): x.utf8.elementsEqual(y.utf8)
    case (.array(let x), .array(let y)): x.count == y.count && zip(x, y).allSatisfy { identical($0, $1) }
    case (.object(let x), .object(let y)):
      x.count == y.count
        && zip(x.members, y.members).allSatisfy { $0.key.utf8.elementsEqual($1.key.utf8) && identical($0.value, $1.value) }
    default: false
    }
  }
}
