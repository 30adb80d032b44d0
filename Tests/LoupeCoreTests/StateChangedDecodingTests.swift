import Testing
import TestSupport
@testable import LoupeCore

/// A `state.changed` read back the short way (``Event/decoded(jsonText:)``, issue 33 item 18)
/// is the event ``Event/init(jsonText:)`` decodes from the same text, and a line it cannot
/// decode fails with the same message, whatever the line holds.
@Suite struct StateChangedDecodingTests {
  @Test(arguments: [1, 2, 3] as [UInt64]) func decodesWhatTheGeneralDecoderDecodes(seed: UInt64) {
    var random = SplitMix64(seed: seed)
    var decoded = 0
    var refused = 0
    var short = 0
    for _ in 0..<3_000 {
      let text = Self.line(&random)
      let general = Result { () throws(EventDecodingError) in try Event(jsonText: Array(text.utf8)) }
      let quick = Result { () throws(EventDecodingError) in try Event.decoded(jsonText: Array(text.utf8)) }
      if let value = try? JSONParser.parse(text), Event.stateChanged(in: value) != nil { short += 1 }
      switch (general, quick) {
      case (.success(let a), .success(let b)):
        decoded += 1
        #expect(a == b, "\(text)")
      case (.failure(let a), .failure(let b)):
        refused += 1
        #expect(a == b, "\(text)")
      default:
        Issue.record("\(text): \(general) against \(quick)")
      }
    }
    #expect(decoded > 1_000 && refused > 300 && short > 1_000, "\(decoded) decoded (\(short) the short way), \(refused) refused")
  }

  @Test func aChangeOfATraceDecodesTheShortWay() throws {
    let text = #"{"seq":7,"time":0.959,"kind":"state.changed","store":"App#1/items[id: 3]","cause":6,"changes":[{"path":"rows[id: 1]","op":"insert","new":{"id":1,"v":0},"index":0}],"summary":"ItemFeature#3: _rows changed."}"#
    let value = try JSONParser.parse(text)
    let event = try #require(Event.stateChanged(in: value))
    #expect(event == (try Event(json: value)))
    // A member twice (`seq`, the second time escaped) is left to the general decoder.
    let other = try JSONParser.parse(#"{"seq":7,"time":1,"kind":"state.changed","store":"A#1","cause":6,"changes":[],"summary":"","s\u0065q":8}"#)
    #expect(Event.stateChanged(in: other) == nil)
  }

  // MARK: - Random lines

  /// A `state.changed` line, mostly well formed, sometimes with a member twice, missing, of
  /// another type, in another spelling, or of another kind.
  static func line(_ r: inout SplitMix64) -> String {
    var members: [(String, String)] = [
      ("seq", "\(r.next() % 1000)"), ("time", vary(&r, "1.5", ["2", #""3""#])), ("kind", vary(&r, #""state.changed""#, [#""mark""#, "1"])),
      ("store", vary(&r, #""App#1/items[id: 2]""#, [#""App#1""#, "null"])), ("cause", vary(&r, "4", ["4.0", "4.5", "null"])),
      ("changes", changes(&r)), ("summary", vary(&r, #""App#1: _items changed.""#, ["7"])),
    ]
    if r.next() % 6 == 0 { members.append((pick(&r, ["origin", "client", "extra", "s\u{e9}q", "kind", "seq"]), pick(&r, [#""tool""#, #""x""#, "null", "3"]))) }
    if r.next() % 10 == 0 { members.remove(at: Int(r.next() % UInt64(members.count))) }
    members.shuffle(using: &r)
    return "{" + members.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
  }

  static func changes(_ r: inout SplitMix64) -> String {
    if r.next() % 20 == 0 { return pick(&r, ["{}", "null", "[1]"]) }
    let count = Int(r.next() % 3)
    return "[" + (0..<count).map { _ in change(&r) }.joined(separator: ",") + "]"
  }

  static func change(_ r: inout SplitMix64) -> String {
    var members: [(String, String)] = [
      ("path", vary(&r, #""rows[id: 1]""#, [#""count""#, #""""#, "3"])), ("op", vary(&r, #""insert""#, [#""replace""#, #""remove""#, #""move""#])),
    ]
    let optional: [(String, [String])] = [
      ("old", ["1", #"{"id":1,"v":0}"#, "null", "[]"]), ("new", ["2", #"{"id":1,"v":1}"#, "null"]),
      ("index", ["0", "3", "null", "1.0", "1.5", #""1""#]), ("truncated", ["true", "false", "null", "1"]),
      ("oldShape", [#"{"enums":["."]}"#, #"{"enums":[],"tuples":[]}"#, "null", #"{"enums":[1]}"#, "[]"]),
      ("newShape", [#"{"tuples":["a"]}"#, "null", "3"]), ("extra", ["1"]),
    ]
    for (key, values) in optional where r.next() % 4 == 0 { members.append((key, pick(&r, values))) }
    if r.next() % 30 == 0 { members.append((pick(&r, ["op", "p\u{e1}th", "new"]), "1")) }
    members.shuffle(using: &r)
    return "{" + members.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
  }

  /// `good` mostly, one of `bad` now and then.
  static func vary(_ r: inout SplitMix64, _ good: String, _ bad: [String]) -> String {
    r.next() % 16 == 0 ? pick(&r, bad) : good
  }

  static func pick(_ r: inout SplitMix64, _ options: [String]) -> String {
    options[Int(r.next() % UInt64(options.count))]
  }
}
