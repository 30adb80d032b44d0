import Foundation
import Testing
@testable import LoupeCore
@testable import LoupeSession

/// A kinds-only filter decides on the kind's bytes (``EventFilter/kindsAdmit(_:)``) exactly as
/// ``EventFilter/decide(kind:store:action:in:)`` does on the kind as a string.
@Suite struct KindsOnlyFilterTests {
  @Test func bytesAndStringsAgree() {
    let patterns = [
      [], ["effect.*"], ["*"], ["state.changed"], ["*.changed", "mark"], ["effect.?tarted"], ["é*"], ["dropped"],
      ["action.received", "effect.*", "store.*"], ["[a-z]*"], ["*e*e*"],
    ]
    let kinds = [
      "effect.started", "effect.finished", "state.changed", "mark", "dropped", "action.received", "store.created", "",
      "effect.", "effect", "éffect.x", "e", "warning", "derived.recomputed", "x.changed", "effect.Started", "🙂.changed",
    ]
    for pattern in patterns {
      let filter = EventFilter(kinds: pattern.map { Glob($0) })
      #expect(filter.kindsOnly)
      for kind in kinds {
        let bytes = Array(kind.utf8)
        let fromBytes = bytes.withUnsafeBufferPointer { filter.kindsAdmit($0) }
        let fromString = bytes.withUnsafeBufferPointer { filter.decide(kind: kind, store: .absent, action: .absent, in: $0) }
        #expect(fromString == fromBytes, "\(pattern) \(kind)")
      }
    }
    #expect(!EventFilter(kinds: [Glob("a")], stores: [Glob("s")]).kindsOnly)
    #expect(!EventFilter(actions: [Glob("a")]).kindsOnly)
    #expect(!EventFilter(paths: [Glob("p")]).kindsOnly)
  }

  /// A line whose kind is not valid UTF-8 but whose bytes match the glob is checked in full
  /// and reported as malformed (the strict check refuses it), not dropped unseen: the bytes
  /// admit it, so it reaches the check. Before the filter decided on bytes, the kind's string
  /// (with U+FFFD) did not match and the line was dropped without a word.
  @Test func aKindOfInvalidUTF8ThatMatchesAsBytesIsReportedMalformed() throws {
    let scratch = ScratchDirectory()
    var bytes = TraceSamples.traceBytes(Array(TraceSamples.events.prefix(3)))
    bytes += Array(#"{"seq":4,"time":1,"kind":"effect."#.utf8) + [0xFF] + Array(#""}"#.utf8) + [0x0A]
    bytes += Array((TraceSamples.events[5].jsonText + "\n").utf8)
    let reader = try TraceReader(path: scratch.file("bad-kind.loupe", bytes))
    var kept: [Int] = []
    while let item = try reader.next(filter: EventFilter(kinds: [Glob("effect.*")]), decode: false) { kept.append(item.seq) }
    #expect(kept == [6])  // the effect.started after it
    #expect(reader.malformedLineCount == 1)
    #expect(reader.malformedLines.first?.line == 5)  // the header is line 1
  }
}
