import Testing
@testable import LoupeCore
@testable import LoupeSession

/// Inputs the fuzzers (`fuzz/`) found mishandled, each kept as a seed in `fuzz/Corpus/` too.
@Suite struct TraceFuzzRegressionTests {
  /// `fuzz-trace`: a line naming `kind` twice was filtered by its last `kind` on the fast
  /// path but decoded with its first, so `loupe show --store …` kept a line that reading and
  /// then filtering drops. Repeated or escaped keys now send the line to the decoder.
  @Test func aRepeatedOrEscapedKeyIsDecidedByTheDecoder() throws {
    let header = #"{"format":"loupe-trace","version":1,"program":"P","pid":1,"startedAt":"2026-11-22T09:00:00.000Z"}"#
    let lines = [
      #"{"seq":1,"time":0,"kind":"stane.changed","store":"C#1","kind":"session.started"}"#,
      #"{"seq":2,"time":0,"kind":"mark","label":"a","ki\u006ed":"store.created"}"#,
      #"{"seq":3,"time":0,"store":"C#1","kind":"mark","label":"b","store":"App#1"}"#,
    ]
    for line in lines {
      #expect(Array(line.utf8).withUnsafeBufferPointer { EventLineScanner.scan($0) }?.kind == .other, "\(line)")
    }
    let scratch = ScratchDirectory()
    let path = scratch.file("dup.loupe", text: ([header] + lines).joined(separator: "\n") + "\n")
    let filter = EventFilter(stores: [Glob("App#1*")])
    let all = try TraceReader(path: path).readAll()
    #expect(all.map(\.kind) == ["stane.changed", "mark", "mark"])  // first member wins, as in JSONObject
    #expect(try TraceReader(path: path).readAll(filter: filter) == all.filter(filter.matches))
    let fast = try TraceReader(path: path)
    var kinds: [String] = []
    while let item = try fast.next(filter: filter, decode: false) { kinds.append(item.kind) }
    #expect(kinds == all.filter(filter.matches).map(\.kind))
  }
}
