import Testing
@testable import LoupeCore

/// `source: {file, line, path?}` (CONTRACT §9): exact JSON for every kind that carries it,
/// captured (static strings) and decoded locations alike, and version-1 events without it.
@Suite struct CodeLocationCodingTests {
  static let page = CodeLocation(
    fileID: "LoupeExamples/PageFeature.swift", filePath: "/src/loupe/Sources/LoupeExamples/Pages/PageFeature.swift", line: 46)
  static let pageJSON =
    #"{"file":"LoupeExamples/PageFeature.swift","line":46,"path":"/src/loupe/Sources/LoupeExamples/Pages/PageFeature.swift"}"#

  static let goldens: [(Event.Payload, String)] = [
    (.actionReceived(ActionReceived(store: "P#1", action: "P.Action.tap", value: "tap", origin: .send, source: CodeLocation(file: "App/View.swift", line: 42))),
     #""kind":"action.received","store":"P#1","action":"P.Action.tap","value":"tap","origin":"send","source":{"file":"App/View.swift","line":42}"#),
    (.actionReceived(ActionReceived(store: "P#2", action: "P.Action.tick", value: "tick", origin: .effect, effect: 3, source: page)),
     #""kind":"action.received","store":"P#2","action":"P.Action.tick","value":"tick","origin":"effect","effect":3,"source":"# + pageJSON),
    (.effectStarted(EffectStarted(store: "P#2", effect: 3, cause: 5, cancelID: "timer", source: page)),
     #""kind":"effect.started","store":"P#2","effect":3,"cause":5,"cancelID":"timer","source":"# + pageJSON),
    (.effectCancelled(EffectCancelled(
      store: "P#1", effect: 3, cancelID: "timer", reason: .cancelInFlight,
      by: .init(store: "P#2", cause: 9, source: CodeLocation(file: "M/P.swift", line: 52)))),
     #""kind":"effect.cancelled","store":"P#1","effect":3,"cancelID":"timer","reason":"cancelInFlight","by":{"store":"P#2","cause":9,"source":{"file":"M/P.swift","line":52}}"#),
    (.derivedRecomputed(DerivedRecomputed(store: "T#1", derived: "count", cause: nil, outputChanged: true, durationNs: 10, source: CodeLocation(file: "M/T.swift", line: 7, path: "/p/T.swift"))),
     #""kind":"derived.recomputed","store":"T#1","derived":"count","cause":null,"outputChanged":true,"durationNs":10,"source":{"file":"M/T.swift","line":7,"path":"/p/T.swift"}"#),
    (.warning(Warning(code: "sendToEndedStore", message: "m", store: nil, source: CodeLocation(file: "M/\"odd\".swift", line: 1))),
     #""kind":"warning","code":"sendToEndedStore","message":"m","store":null,"source":{"file":"M/\"odd\".swift","line":1}"#),
  ]

  @Test func goldenJSONAndRoundTrip() throws {
    for (payload, body) in Self.goldens {
      let event = Event(seq: 7, time: 12.5, payload: payload)
      let expected = #"{"seq":7,"time":12.5,"# + body + "}"
      #expect(event.jsonText == expected)
      #expect(try Event(jsonText: Array(expected.utf8)) == event)
    }
  }

  @Test func capturedAndDecodedLocationsAreEqual() throws {
    let captured = Self.page
    let decoded = CodeLocation(
      file: "LoupeExamples/PageFeature.swift", line: 46, path: "/src/loupe/Sources/LoupeExamples/Pages/PageFeature.swift")
    #expect(captured == decoded)
    #expect(captured.hashValue == decoded.hashValue)
    #expect(captured.json == decoded.json)
    #expect(captured.withoutPath == CodeLocation(file: "LoupeExamples/PageFeature.swift", line: 46))
    var writer = JSONWriter()
    captured.withoutPath.encode(into: &writer)
    #expect(writer.string == #"{"file":"LoupeExamples/PageFeature.swift","line":46}"#)
  }

  @Test func descriptions() {
    #expect(Self.page.description == "LoupeExamples/PageFeature.swift:46")
    #expect(Self.page.shortDescription == "PageFeature.swift:46")
    #expect(CodeLocation(file: "NoModule.swift", line: 3).shortDescription == "NoModule.swift:3")
  }

  /// A version-1 trace line has no `source`: it still reads, with none.
  @Test func versionOneEventsStillRead() throws {
    let line = #"{"seq":3,"time":1.5,"kind":"effect.started","store":"P#1","effect":1,"cause":2,"cancelID":null}"#
    let event = try Event(jsonText: Array(line.utf8))
    #expect(event.payload == .effectStarted(EffectStarted(store: "P#1", effect: 1, cause: 2, cancelID: nil)))
    let nullSource = #"{"seq":3,"time":1.5,"kind":"warning","code":"c","message":"m","store":null,"source":null}"#
    #expect(try Event(jsonText: Array(nullSource.utf8)).payload == .warning(Warning(code: "c", message: "m")))
  }

  @Test(arguments: [
    (#"{"seq":1,"time":0,"kind":"action.received","store":"S","action":"a","value":1,"origin":"send","source":"x.swift:1"}"#,
     "action.received: field 'source' must be an object or null (found string)"),
    (#"{"seq":1,"time":0,"kind":"effect.started","store":"S","effect":1,"cause":1,"cancelID":null,"source":{"file":"x.swift"}}"#,
     "effect.started source: field 'line' must be an integer (missing)"),
    (#"{"seq":1,"time":0,"kind":"warning","code":"c","message":"m","store":null,"source":{"file":1,"line":2}}"#,
     "warning source: field 'file' must be a string (found number)"),
  ])
  func badSourcesAreNamed(line: String, message: String) {
    #expect(throws: EventDecodingError(message)) { try Event(jsonText: Array(line.utf8)) }
  }
}
