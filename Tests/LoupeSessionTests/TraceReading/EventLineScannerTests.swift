import Testing
import TestSupport
@testable import LoupeCore
@testable import LoupeSession

@Suite struct EventLineScannerTests {
  func scan(_ text: String) -> EventLineScanner.Fields? {
    Array(text.utf8).withUnsafeBufferPointer { EventLineScanner.scan($0) }
  }

  func member(_ text: String, _ member: KeyPath<EventLineScanner.Fields, EventLineScanner.Member>) -> String? {
    let bytes = Array(text.utf8)
    guard let fields = bytes.withUnsafeBufferPointer({ EventLineScanner.scan($0) }) else { return nil }
    switch fields[keyPath: member] {
    case .plain(let range): return String(decoding: bytes[range], as: UTF8.self)
    case .other: return "<other>"
    case .absent: return "<absent>"
    }
  }

  @Test func findsTopLevelMembersOnly() {
    let line = #"{"seq":3,"time":1.5,"kind":"action.received","store":"A#1/pages[id: 2]","action":"P.Action.tick","value":{"kind":"nested","store":"no"},"origin":"send"}"#
    #expect(member(line, \.kind) == "action.received")
    #expect(member(line, \.store) == "A#1/pages[id: 2]")
    #expect(member(line, \.action) == "P.Action.tick")
    #expect(scan(line)?.seq == 3)
    #expect(scan(line)?.hasTime == true)
  }

  @Test func escapedOrNonStringMembersNeedDecoding() {
    #expect(member(#"{"kind":"a\"b"}"#, \.kind) == "<other>")
    #expect(member(#"{"kind":"mark","store":null}"#, \.store) == "<other>")
    #expect(member(#"{"kind":"mark"}"#, \.store) == "<absent>")
    #expect(scan(#"{"seq":"1","time":null}"#)?.seq == nil)
    #expect(scan(#"{"seq":1.5,"time":1}"#)?.seq == nil)  // not an integer: decode to find out
    #expect(scan(#"{"seq":-7,"time":1}"#)?.seq == -7)
    #expect(scan(#"{"seq":"1","time":null}"#)?.hasTime == false)
  }

  @Test func agreesWithTheParserOnValidity() {
    let cases = [
      #"{}"#, #" { } "#, #"{"a":[1,2,{"b":null}],"c":true,"d":false,"e":-0.5e+3}"#, #"{"a":"\u00e9\n\t\\\/"}"#,
      #"{"a":"é🙂"}"#, #"[]"#, #""x""#, #"1"#, #"{"a":1,}"#, #"{"a":01}"#, #"{"a":1.}"#, #"{"a":.5}"#,
      #"{"a":-}"#, #"{"a":1e}"#, #"{"a":tru}"#, #"{"a":nul}"#, #"{"a" 1}"#, #"{a:1}"#, #"{"a":1"#,
      #"{"a":"x"#, #"{"a":"\x"}"#, #"{"a":"\u12g4"}"#, "{\"a\":\"\u{01}\"}", #"{"a":[1 2]}"#, #"{"a":1}x"#,
      #"{"a":1}{"b":2}"#, #"{"a":{"b":{"c":[[]]}}}"#, #"{"a":[,1]}"#, #"{"a":1e5,"b":0,"c":-0}"#,
    ]
    for text in cases {
      let parsed = try? JSONParser.parse(text)
      let isObject = parsed?.objectValue != nil
      #expect((scan(text) != nil) == isObject, "\(text)")
    }
  }

  @Test func rejectsInvalidUTF8() {
    let bad: [[UInt8]] = [[0xC3], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82], [0xFF]]
    for sequence in bad {
      let bytes = Array(#"{"a":""#.utf8) + sequence + Array(#""}"#.utf8)
      #expect(bytes.withUnsafeBufferPointer { EventLineScanner.scan($0) } == nil, "\(sequence)")
      #expect((try? JSONParser.parse(bytes)) == nil)
    }
  }

  @Test func deepNestingIsRefusedLikeTheParser() {
    let deep = "{\"a\":" + String(repeating: "[", count: 600) + String(repeating: "]", count: 600) + "}"
    #expect(scan(deep) == nil)
    #expect((try? JSONParser.parse(deep)) == nil)
  }

  /// Random single-byte damage to real event lines: the scanner accepts exactly what the
  /// parser accepts as an object.
  @Test func randomDamageAgreesWithTheParser() {
    var random = SplitMix64(seed: 42)
    let alphabet = Array(#"{}[]",:\ 0123456789-+.eEtrufalsn"#.utf8) + [0x00, 0x0A, 0xC3, 0xA9, 0xFF]
    for event in TraceSamples.events {
      let line = Array(event.jsonText.utf8)
      for _ in 0..<300 {
        var damaged = line
        let position = Int.random(in: 0..<damaged.count, using: &random)
        switch Int.random(in: 0..<3, using: &random) {
        case 0: damaged[position] = alphabet.randomElement(using: &random)!
        case 1: damaged.remove(at: position)
        default: damaged.insert(alphabet.randomElement(using: &random)!, at: position)
        }
        let parsed = (try? JSONParser.parse(damaged))?.objectValue != nil
        let scanned = damaged.withUnsafeBufferPointer { EventLineScanner.scan($0) } != nil
        #expect(parsed == scanned, "\(String(decoding: damaged, as: UTF8.self))")
      }
    }
  }
}

/// The reader's fast path (deciding by members without decoding) agrees with
/// ``EventFilter/matches(_:)`` on decoded events.
@Suite struct FastFilterTests {
  static let filters: [EventFilter] = [
    .all,
    EventFilter(kinds: [Glob("effect.*")]),
    EventFilter(kinds: [Glob("mark"), Glob("state.*")]),
    EventFilter(stores: [Glob("AppFeature#1")]),
    EventFilter(stores: [Glob("*pages*")]),
    EventFilter(actions: [Glob("*add*")]),
    EventFilter(paths: [Glob("pages*")]),
    EventFilter(paths: [Glob("nothing")]),
    EventFilter(kinds: [Glob("effect.*")], stores: [Glob("*[id: 2]")]),
    EventFilter(kinds: [Glob("action.*")], actions: [Glob("*Tapped")]),
    EventFilter(kinds: [Glob("future.*")], stores: [Glob("AppFeature*")]),
  ]

  @Test(arguments: filters)
  func fastPathAgreesWithMatches(filter: EventFilter) throws {
    let dir = ScratchDirectory()
    let path = dir.file("t.loupe", TraceSamples.traceBytes())
    let expected = TraceSamples.events.filter(filter.matches).map(\.seq)
    for decode in [false, true] {
      let reader = try TraceReader(path: path)
      var seqs: [Int] = []
      while let item = try reader.next(filter: filter, decode: decode) {
        let event = try item.event ?? Event(jsonText: item.bytes)
        #expect(event.kind == item.kind)
        #expect(event.seq == item.seq)
        #expect(String(decoding: item.bytes, as: UTF8.self) == event.jsonText)
        seqs.append(event.seq)
      }
      #expect(seqs == expected, "decode: \(decode)")
    }
  }
}
