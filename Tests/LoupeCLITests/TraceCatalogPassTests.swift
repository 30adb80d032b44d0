import Foundation
import LoupeCore
import Testing
@testable import LoupeCLI
@testable import LoupeSession
import LoupeSession

/// `replay`'s catalog reads a large trace as two halves on two threads: its answers must be
/// exactly those of one reader going through, whatever the trace and wherever it splits.
@Suite struct TraceCatalogPassTests {
  /// Random traces: stores created, changing identity and destroyed across the whole file
  /// (so both halves hold some), marks between; some end with a cut-short line.
  @Test func theSplitPassAnswersAsTheWholePassDoes() throws {
    let scratch = TemporaryDirectory()
    var random = SystemRandomNumberGenerator()
    for round in 0..<40 {
      let path = scratch.file("t\(round).loupe")
      let writer = try TraceWriter(path: path, header: TraceHeader(program: "P", pid: 1, startedAt: "2026-11-24T09:00:00.000Z"))
      var events: [Event] = []
      var live: [String] = []
      let count = Int.random(in: 1...400, using: &random)
      for seq in 1...count {
        let payload: Event.Payload
        switch Int.random(in: 0..<6, using: &random) {
        case 0:
          let store = "S#\(seq)"
          live.append(store)
          payload = .storeCreated(StoreCreated(store: store, type: "S", parent: live.randomElement(using: &random), identity: "i\(seq)"))
        case 1 where !live.isEmpty:
          let store = live.remove(at: Int.random(in: 0..<live.count, using: &random))
          payload = .storeDestroyed(StoreDestroyed(store: store, identity: "gone"))
        case 2 where !live.isEmpty:
          payload = .identityChanged(IdentityChanged(store: live.randomElement(using: &random)!, identity: "n\(seq)", previous: nil, reason: .replaced))
        default:
          payload = .mark(Mark(label: String(repeating: "m", count: Int.random(in: 0...300, using: &random))))
        }
        events.append(Event(seq: seq, time: Double(seq) / 8, payload: payload))
      }
      try writer.append(events)
      try writer.close()
      if round % 4 == 3 {  // a last line cut short
        let handle = try #require(FileHandle(forWritingAtPath: path))
        handle.seekToEndOfFile()
        handle.write(Data(#"{"seq":999999,"time":1,"kind":"ma"#.utf8))
        try handle.close()
      }
      let whole = TraceCatalog.pass(path, minimumSplitBytes: .max)
      let split = TraceCatalog.pass(path, minimumSplitBytes: 0)
      #expect(split == whole, "round \(round), \(count) events")
      if count >= 10 {  // two halves with events each: the split itself answered, not the fallback
        #expect(TraceCatalog.splitPass(path, minimumSplitBytes: 0) == whole, "round \(round), \(count) events")
      }
      #expect(whole.events == count)
      #expect(whole.lastSeq == count)
    }
  }

  @Test func aMalformedLineInEitherHalfIsLeftToTheWholePass() throws {
    let scratch = TemporaryDirectory()
    for damagedHalf in [0, 1] {
      let path = scratch.file("d\(damagedHalf).loupe")
      let writer = try TraceWriter(path: path, header: TraceHeader(program: "P", pid: 1, startedAt: "2026-11-24T09:00:00.000Z"))
      try writer.append((1...100).map { Event(seq: $0, time: 0, payload: .mark(Mark(label: "m\($0)"))) })
      try writer.close()
      var text = try String(contentsOfFile: path, encoding: .utf8).components(separatedBy: "\n")
      text[damagedHalf == 0 ? 10 : 90] = "{not json"
      try text.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
      let whole = TraceCatalog.pass(path, minimumSplitBytes: .max)
      #expect(TraceCatalog.pass(path, minimumSplitBytes: 0) == whole)
      #expect(whole.events == 99)
      #expect(whole.identity == nil)  // damage: nothing may be trusted
    }
  }
}
