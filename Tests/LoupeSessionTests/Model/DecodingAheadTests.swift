import Foundation
import Testing
import TestSupport
@testable import LoupeCore
@testable import LoupeSession

/// A large trace is decoded on a thread of its own while the model indexes the batches before
/// (``DecodedBatches``), and checkpoints are packed on another while a state is rebuilt
/// (``CheckpointPacker``): the same model and the same answers as doing both on one thread
/// (issue 33 item 18).
@Suite struct DecodingAheadTests {
  /// Many batches, a malformed line inside the third and one between two batches, and a last
  /// line cut short.
  static func damagedTrace(in scratch: ScratchDirectory) -> (path: String, events: [Event]) {
    let events = TraceStateIndexTests.randomSession(seed: 29, count: DecodedBatches.batchSize * 5 + 17)
    var lines = events.map(\.jsonText)
    lines.insert(#"{"seq":oops}"#, at: DecodedBatches.batchSize * 2 + 5)
    lines.insert("not json at all", at: DecodedBatches.batchSize * 4)
    let text = TraceSamples.header.jsonText + "\n" + lines.joined(separator: "\n") + "\n{\"seq\":99999,\"time\":1,\"ki"
    return (scratch.file("damaged.loupe", text: text), events)
  }

  @Test func decodingAheadIndexesWhatOneThreadIndexes() throws {
    let scratch = ScratchDirectory()
    let (path, events) = Self.damagedTrace(in: scratch)
    let ahead = try SessionModel(tracePath: path, decodingAheadFrom: 0)
    let inline = try SessionModel(tracePath: path, decodingAheadFrom: .max)
    #expect(ahead.count == events.count)
    #expect(inline.count == events.count)
    for index in 0..<events.count {
      #expect(ahead.seq(at: index) == events[index].seq)
      #expect(ahead.kindName(at: index) == inline.kindName(at: index))
      #expect(ahead.store(at: index) == inline.store(at: index))
      #expect(ahead.cause(of: index) == inline.cause(of: index))
    }
    #expect(ahead.event(at: events.count - 1) == events.last)
    #expect(ahead.header == inline.header)
    #expect(ahead.damage.malformedLines == 2)
    #expect(inline.damage.malformedLines == 2)
    #expect(ahead.damage.truncation == inline.damage.truncation)
    #expect(ahead.damage.truncation?.line == events.count + 4)
    #expect(ahead.effects == inline.effects)
    #expect(ahead.allStores == inline.allStores)
  }

  /// Malformed lines in batches decoded by either thread, more of them than a reader
  /// describes: the same count, the same first ones in line order, as one thread reads them.
  @Test(arguments: [false, true])
  func damageFoundOnBothThreadsIsTheReadersInLineOrder(endsCut: Bool) throws {
    let scratch = ScratchDirectory()
    let events = TraceStateIndexTests.randomSession(seed: 41, count: DecodedBatches.batchSize * 6)
    var lines = events.map(\.jsonText)
    var random = SplitMix64(seed: 43)
    for _ in 0..<(TraceReader.malformedLinesKept + 60) {
      let place = Int(random.next() % UInt64(lines.count))
      lines.insert(random.next() % 2 == 0 ? #"{"seq":1,"time":0,"kind":"mark"}"# : "[1,", at: place)
    }
    var text = TraceSamples.header.jsonText + "\n" + lines.joined(separator: "\n") + "\n"
    if endsCut { text += #"{"seq":1,"ti"# }
    let path = scratch.file("many.loupe", text: text)
    let ahead = try SessionModel(tracePath: path, decodingAheadFrom: 0)
    let reader = try TraceReader(path: path)
    while try reader.next() != nil {}
    #expect(ahead.count == events.count)
    #expect(ahead.damage.malformedLines == reader.malformedLineCount)
    #expect(ahead.damage.truncation == reader.truncation)
    #expect((ahead.damage.truncation != nil) == endsCut)
    // The lines the model's reader describes, in order (the model keeps only counts).
    let again = try TraceReader(path: path)
    let batches = DecodedBatches(again)
    while try batches.next() != nil {}
    #expect(again.malformedLines == reader.malformedLines)
    #expect(again.malformedLines.count == TraceReader.malformedLinesKept)
  }

  @Test func aTraceOfAHeaderAloneHasNoEvents() throws {
    let scratch = ScratchDirectory()
    let path = scratch.file("empty.loupe", text: TraceSamples.header.jsonText + "\n")
    let model = try SessionModel(tracePath: path, decodingAheadFrom: 0)
    #expect(model.count == 0)
    #expect(model.damage.malformedLines == 0)
    #expect(model.damage.truncation == nil)
  }

  /// States asked in any order from a file-backed model (checkpoints packed on their own
  /// thread) are the rule's, and its checkpoints keep to the budget.
  @Test(arguments: [0, 3_000, StateRebuilder.checkpointBudget])
  func packingAsideChangesNoAnswer(budget: Int) throws {
    let scratch = ScratchDirectory()
    let events = TraceStateIndexTests.randomSession(seed: 31, count: 3_000)
    let path = scratch.file("states.loupe", text: TraceSamples.header.jsonText + "\n" + events.map(\.jsonText).joined(separator: "\n") + "\n")
    let model = try SessionModel(tracePath: path)
    #expect(model.stateIndex.packer != nil)
    model.stateIndex.checkpointBudget = budget
    var rebuilder = StateRebuilder()
    var expected: [Int: (a: RebuiltState?, b: RebuiltState?)] = [:]
    for event in events {
      rebuilder.apply(event)
      expected[event.seq] = (rebuilder.state(of: "A#1"), rebuilder.state(of: "B#1"))
    }
    var random = SplitMix64(seed: 37)
    var made = 0
    for seq in events.map(\.seq).shuffled(using: &random).prefix(600) + [events.count, 1, events.count / 2] {
      #expect(model.state(of: "A#1", atSeq: seq) == expected[seq]!.a, "A#1 at #\(seq)")
      #expect(model.state(of: "B#1", atSeq: seq) == expected[seq]!.b, "B#1 at #\(seq)")
      let index = model.stateIndex
      let counted = index.roots.values.reduce(0) { $0 + $1.checkpoints.reduce(0) { $0 + $1.state.bytes.count } }
      #expect(index.checkpointBytes == counted)
      #expect(index.checkpointBytes <= budget)
      // At rest, nothing is left with the packer.
      #expect(index.packer?.take(waiting: false).isEmpty == true)
      made = max(made, index.checkpointCount)
    }
    #expect(budget == 0 ? made == 0 : made > 0)
  }
}
