import Foundation
import Testing
import TestSupport
@testable import LoupeCore
@testable import LoupeSession

/// The index pass reads the commonest lines without decoding them (``EventIndexSkim``): what
/// it reads is what the decoder decodes, and it reads nothing the decoder rejects. Lines as
/// Loupe writes them, then each mutated many ways (types changed, members dropped, repeated,
/// escaped, spelled in other scripts, shapes and origins added, bytes flipped, cut short).
@Suite struct EventIndexSkimTests {
  /// What the index keeps of an entry, as text.
  static func facts(_ entry: IndexedEvent) -> String {
    var text = "\(entry.seq) \(entry.kind) \(entry.store ?? "-") \(entry.referencedSeq.map(String.init) ?? "-")"
    switch entry.details {
    case .action(let origin, let effect, let source): text += " action \(origin) \(effect.map(String.init) ?? "-") \(String(describing: source))"
    case .change: text += " change"  // whether beside by store: ``besideByStore(_:)``
    case .derived(let source): text += " derived \(String(describing: source))"
    case .event(let decoded):
      switch decoded.event.payload {
      case .actionReceived(let e): text += " action \(e.origin) \(e.effect.map(String.init) ?? "-") \(String(describing: e.source))"
      case .stateChanged: text += " change"
      case .derivedRecomputed(let e): text += " derived \(String(describing: e.source))"
      default: text += " other"
      }
    }
    return text
  }

  static func lines(seed: UInt64, count: Int) -> [String] {
    var random = SplitMix64(seed: seed)
    func pick<T>(_ items: [T]) -> T { items[Int.random(in: 0..<items.count, using: &random)] }
    let stores = ["App#1", "App#1/items[id: 3]", "App#1/pages[id: \"é\"]", "Tab#2/x[id: 1]/y"]
    let sources: [CodeLocation?] = [nil, CodeLocation(file: "App/Feature.swift", line: 12), CodeLocation(file: "F.swift", line: 7, path: "/src/F.swift")]
    var lines: [String] = []
    for seq in 1...count {
      let payload: Event.Payload
      switch Int.random(in: 0..<3, using: &random) {
      case 0:
        let origin = pick(ActionReceived.Origin.allCases)
        payload = .actionReceived(
          ActionReceived(
            store: pick(stores), action: "Feature.Action.tap", value: pick([.null, ["n": 1], "s"]), origin: origin,
            effect: origin == .effect ? Int.random(in: 1..<50, using: &random) : nil, source: pick(sources),
            client: origin == .tool ? "mcp" : nil))
      case 1:
        let changes = (0..<Int.random(in: 0...3, using: &random)).map { _ in
          Change(
            path: pick(["count", "rows[id: 2]", "a.b"]), op: pick(Change.Op.allCases), old: pick([nil, .int(1)]),
            new: pick([nil, ["id": 2, "v": [1, 2]], "x"]), index: pick([nil, 0, 3]), truncated: pick([false, true]))
        }
        payload = .stateChanged(StateChanged(store: pick(stores), cause: max(1, seq - 1), changes: changes, summary: "S: _count changed."))
      default:
        payload = .derivedRecomputed(
          DerivedRecomputed(
            store: pick(stores), derived: "total", cause: pick([nil, max(1, seq - 2)]), outputChanged: pick([false, true]),
            durationNs: Int.random(in: 0..<100_000, using: &random), source: pick(sources)))
      }
      lines.append(Event(seq: seq, time: Double(seq) / 8, payload: payload).jsonText)
    }
    return lines
  }

  /// Edits that keep a line JSON but may make it another event, or no event.
  static let edits: [(String, String)] = [
    (#""cause":"#, #""cause":"1","x":"#), (#""cause":"#, #""cause":1.5,"x":"#), (#""cause":"#, #""cause":1e2,"x":"#),
    (#""cause":"#, #""cause":null,"x":"#), (#""store":"#, #""store":7,"x":"#), (#""store":""#, #""store":"\u0041"#),
    (#""origin":""#, #""origin":"sEnd","x":""#), (#""origin":""#, #""orig\u0069n":"send","origin":""#),
    (#""op":""#, #""op":"move","x":""#), (#""op":""#, #""op":"\u0072eplace","x":""#), (#""path":"#, #""path":1,"x":"#),
    (#""path":"#, #""path":"p","path":"#), (#""index":"#, #""index":"0","x":"#), (#""index":"#, #""index":0.0,"x":"#),
    (#""truncated":"#, #""truncated":1,"x":"#), (#""changes":["#, #""changes":[1,"#), (#""changes":["#, #""changes":[{"path":"p"},"#),
    (#""changes":["#, #""changes":[{"op":"insert","path":"p","newShape":{"enums":["a"]}},"#), (#""summary":"#, #""summary":null,"x":"#),
    (#""effect":"#, #""effect":"2","x":"#), (#""source":{"#, #""source":{"line":"1","#), (#""source":{"#, #""source":{"file":1,"#),
    (#""outputChanged":"#, #""outputChanged":null,"x":"#), (#""durationNs":"#, #""durationNs":-1.5,"x":"#),
    (#""durationNs":"#, #""durationNs":12345678901234567,"x":"#), (#""derived":"#, #""derived":[],"x":"#),
    (#""seq":"#, #""seq":1.0,"x":"#), (#""time":"#, #""time":"0","x":"#), (#""kind":""#, #""kind":"mark","x":""#),
    (#""store":"#, #""störe":"A","store":"#), (#""store":"#, #""\u0073tore":"A","store":"#), ("{", #"{"shape":{"enums":["x"]},"#),
    ("{", #"{"origin":"send","#), ("{", #"{"client":5,"#), ("{", #"{ "client" : "c" , "#), (#""action":"#, #""action":{},"x":"#),
    (#""value":"#, #""value":[[[[1]]]],"x":"#), (#"}"#, #"} "#), (#"""#, #"" "#),
  ]

  @Test(arguments: Array(1...6) as [UInt64]) func readsWhatTheDecoderDecodesAndNothingItRejects(seed: UInt64) {
    var random = SplitMix64(seed: seed &* 977)
    var skim = EventIndexSkim()
    var read = 0
    var lines = Self.lines(seed: seed, count: 400)
    // Each line edited once, twice, and flipped at a byte.
    for line in lines.prefix(400) {
      var edited = line
      for _ in 0..<Int.random(in: 1...2, using: &random) {
        let (from, to) = Self.edits[Int.random(in: 0..<Self.edits.count, using: &random)]
        if let range = edited.range(of: from) { edited.replaceSubrange(range, with: to) }
      }
      lines.append(edited)
      var bytes = Array(line.utf8)
      let place = Int.random(in: 0..<bytes.count, using: &random)
      switch Int.random(in: 0..<3, using: &random) {
      case 0: bytes[place] = UInt8.random(in: 0x20...0x7E, using: &random)
      case 1: bytes.remove(at: place)
      default: bytes.removeSubrange(place...)
      }
      lines.append(String(decoding: bytes, as: UTF8.self))
    }
    for line in lines {
      let bytes = Array(line.utf8)
      let skimmed = bytes.withUnsafeBufferPointer { skim.read($0) }
      let decoded = try? Event(jsonText: bytes)
      guard let skimmed else { continue }
      read += 1
      guard let decoded else {
        Issue.record("read a line the decoder rejects: \(line)")
        continue
      }
      #expect(Self.facts(skimmed) == Self.facts(IndexedEvent(decoded)), "\(line)")
      // Left out by its store alone only when the decoded change says so too.
      if case .change(true) = skimmed.details, case .stateChanged(let e) = decoded.payload {
        #expect(StateIndex.besideByStore(e), "\(line)")
      }
    }
    // Loupe's own lines are read, and some edited ones.
    #expect(read >= 400)
  }

  /// A model indexed from skimmed lines (decoding ahead) is the one indexed from decoded ones.
  @Test func aModelIndexedFromSkimmedLinesIsTheDecodedOnes() throws {
    let scratch = ScratchDirectory()
    let lines = Self.lines(seed: 11, count: 3_000)
    let path = scratch.file("skimmed.loupe", text: TraceSamples.header.jsonText + "\n" + lines.joined(separator: "\n") + "\n")
    let skimmed = try SessionModel(tracePath: path, decodingAheadFrom: 0)
    let decoded = try SessionModel(tracePath: path, decodingAheadFrom: .max)
    #expect(skimmed.count == 3_000)
    #expect(decoded.count == 3_000)
    for index in 0..<decoded.count {
      #expect(skimmed.seq(at: index) == decoded.seq(at: index))
      #expect(skimmed.kindName(at: index) == decoded.kindName(at: index))
      #expect(skimmed.kind(at: index) == decoded.kind(at: index))
      #expect(skimmed.store(at: index) == decoded.store(at: index))
      #expect(skimmed.cause(of: index) == decoded.cause(of: index))
    }
    for store in decoded.allStores { #expect(skimmed.actionIndices(ofStore: store) == decoded.actionIndices(ofStore: store)) }
    #expect(skimmed.allStores == decoded.allStores)
    #expect(skimmed.indices(atLine: 12) == decoded.indices(atLine: 12))
    #expect(skimmed.indices(atLine: 7) == decoded.indices(atLine: 7))
    #expect(!decoded.indices(atLine: 7).isEmpty)
    #expect(skimmed.namesSourcePath("/src/F.swift"))
    #expect(skimmed.rootStoresWithState == decoded.rootStoresWithState)
    #expect(skimmed.state(of: "App#1", at: 2_999) == decoded.state(of: "App#1", at: 2_999))
  }

  /// Lines the skim leaves to the decoder, and the shapes it reads.
  @Test func whatItReads() {
    var skim = EventIndexSkim()
    func facts(_ line: String) -> String? {
      Array(line.utf8).withUnsafeBufferPointer { skim.read($0) }.map(Self.facts)
    }
    let change = #"{"seq":4,"time":0.5,"kind":"state.changed","store":"A#1/x[id: 2]","cause":3,"changes":[{"path":"v","op":"replace","old":{"path":1},"new":[1,"]}"]}],"summary":"\"s\""}"#
    #expect(facts(change) == "4 state.changed A#1/x[id: 2] 3 change")
    #expect(facts(#"{ "seq" : 5 , "time" : 1 , "kind" : "state.changed" , "store" : "A#1" , "cause" : 3 , "changes" : [ ] , "summary" : "" }"#) == "5 state.changed A#1 3 change")
    let action = #"{"seq":6,"time":1.5,"kind":"action.received","store":"A#1","action":"A.Action.t","value":null,"origin":"effect","effect":9,"source":{"file":"A.swift","line":3}}"#
    #expect(facts(action) == "6 action.received A#1 - action effect 9 Optional(A.swift:3)")
    #expect(facts(#"{"seq":7,"time":2,"kind":"derived.recomputed","store":"A#1","derived":"d","cause":null,"outputChanged":true,"durationNs":5}"#) == "7 derived.recomputed A#1 - derived nil")
    // Left to the decoder: another kind, a shape, an origin on a change, an escaped store, a
    // number written otherwise, a key in another script, a line the decoder rejects.
    #expect(facts(#"{"seq":8,"time":2,"kind":"effect.started","store":"A#1","effect":1,"cause":7}"#) == nil)
    #expect(facts(change.replacingOccurrences(of: #""op":"replace""#, with: #""op":"replace","newShape":null"#)) == nil)
    #expect(facts(change.replacingOccurrences(of: #""cause":3"#, with: #""cause":3,"origin":"tool""#)) == nil)
    #expect(facts(change.replacingOccurrences(of: "A#1/x", with: #"A#1\/x"#)) == nil)
    #expect(facts(change.replacingOccurrences(of: #""cause":3"#, with: #""cause":3.0"#)) == nil)
    #expect(facts(change.replacingOccurrences(of: #""summary""#, with: #""summary","é":1"#)) == nil)
    #expect(facts(change.replacingOccurrences(of: #""cause":3"#, with: #""cause":"3""#)) == nil)
    #expect(facts(String(change.dropLast())) == nil)
  }
}
