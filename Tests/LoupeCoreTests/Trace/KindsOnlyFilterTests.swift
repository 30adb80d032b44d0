import Testing
@testable import LoupeCore

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
      let filter = EventFilter(kinds: pattern.map(Glob.init))
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
}
