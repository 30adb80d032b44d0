import Foundation
import Testing
import TestSupport
@testable import LoupeCore
@testable import LoupeSession

/// A large trace is decoded on two threads of their own while the model indexes the batches
/// before (``DecodedBatches``): the same model, and the same damage, as decoding on the
/// caller's thread (issue 33 item 18). Checkpoints packed on a thread of their own
/// (``CheckpointPacker``): `StateCheckpointTests`.
@Suite struct DecodingAheadTests {
  /// Many batches, a malformed line inside the third and one between two batches, and a last
  /// line cut short; no snapshots.
  static func damagedTrace(in scratch: ScratchDirectory) -> (path: String, events: [Event]) {
    // No snapshots: a state is rebuilt from the start, leaving checkpoints on the way.
    let events = TraceStateIndexTests.randomSession(seed: 29, count: DecodedBatches.batchSize * 5 + 17)
      .filter { $0.kind != StateSnapshot.kind }
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
    // States rebuilt from it (its checkpoints packed on a thread of their own) are the rule's.
    var rebuilder = StateRebuilder()
    var expected: [Int: RebuiltState?] = [:]
    for event in events {
      rebuilder.apply(event)
      expected[event.seq] = rebuilder.state(of: "A#1")
    }
    for seq in [events.count, 1, events.count / 2, events.count - 1, 700] {
      #expect(ahead.state(of: "A#1", atSeq: seq) == expected[seq]!, "A#1 at #\(seq)")
    }
    #expect(ahead.stateIndex.checkpointCount > 0)
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
}
