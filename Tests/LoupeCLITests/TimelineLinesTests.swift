import Foundation
import Testing
import TestSupport
@testable import LoupeCLI
@testable import LoupeCore
@testable import LoupeSession
import LoupeSession

/// The timeline rendered from each line's bytes (`TimelineRenderer.renderTimeline(line:)`)
/// against the path it replaces for speed — decode the line, render the `Event` — on the
/// fixture traces and on generated lines full of what could make them differ: escapes,
/// non-ASCII text, numbers written every way, members missing, null, mistyped, repeated or
/// unknown, long values cut, shapes, code locations, colour on and off, events shown or not.
///
/// Both renderers see the same lines in order, so their notes (actions by `seq`, running
/// effects) must stay the same too; a line the fast path takes must render the same text, and
/// a line decoding rejects must never be taken.
@Suite struct TimelineLinesTests {
  struct Tally {
    var lines = 0
    var rendered = 0
    var checked = 0
  }

  static func compare(_ lines: [String], colour: Bool, shown: (Int) -> Bool = { _ in true }) -> Tally {
    var fast = TimelineRenderer(style: Style(enabled: colour))
    var reference = TimelineRenderer(style: Style(enabled: colour))
    var out = TextBytes(capacity: 256)
    var tally = Tally()
    for (index, line) in lines.enumerated() {
      let bytes = Array(line.utf8)
      // What the reader hands over: lines its scanner found to be one JSON object with seq,
      // time and a plain kind (the rest it reports itself).
      let scanned = bytes.withUnsafeBufferPointer { EventLineScanner.scan($0) }
      guard let fields = scanned, fields.seq != nil, fields.hasTime, case .plain = fields.kind else { continue }
      tally.lines += 1
      let isShown = shown(index)
      let decoded = try? Event(jsonText: bytes)
      let expected = decoded.map { reference.render($0, format: .text, shown: isShown) } ?? ""
      out.removeAll()
      let took = bytes.withUnsafeBufferPointer { fast.renderTimeline(line: $0, shown: isShown, to: &out) }
      let actual: String
      if took {
        tally.rendered += 1
        actual = String(decoding: out.bytes, as: UTF8.self)
        #expect(decoded != nil, "rendered a line decoding rejects: \(line)")
      } else {
        #expect(out.count == 0, "wrote something for a line it declined: \(line)")
        actual = decoded.map { fast.render($0, format: .text, shown: isShown) } ?? ""
      }
      tally.checked += 1
      #expect(actual == expected, "line \(index + 1), colour \(colour), shown \(isShown): \(line)")
    }
    return tally
  }

  @Test(arguments: [false, true]) func fixturesRenderTheSameFromBytes(colour: Bool) throws {
    let directory = Fixtures.path("")
    let names = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".loupe") }.sorted()
    #expect(names.count >= 5)
    var rendered = 0
    for name in names {
      let text = try String(contentsOfFile: Fixtures.path(name), encoding: .utf8)
      let lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropFirst().map(String.init)
      rendered += Self.compare(lines, colour: colour).rendered
    }
    // The fixtures are mostly lines the fast path takes.
    #expect(rendered > 100)
  }

  @Test(arguments: [false, true]) func generatedLinesRenderTheSameFromBytes(colour: Bool) {
    var generator = EventLineGenerator(seed: colour ? 7 : 11)
    let lines = (1...20_000).map { generator.line(seq: $0) }
    var pick = SplitMix64(seed: 3)
    let choices = (0..<lines.count).map { _ in Int.random(in: 0..<5, using: &pick) != 0 }
    let tally = Self.compare(lines, colour: colour, shown: { choices[$0] })
    // Enough of each side to mean something (about a fifth of these odd lines are taken).
    #expect(tally.rendered > tally.lines / 8, "\(tally)")
    #expect(tally.rendered < tally.lines, "\(tally)")
  }

  @Test func theMixRendersFromBytesWithoutFallingBack() {
    // Lines as `loupe-bench-emit` writes them: every one is taken.
    let lines = [
      #"{"seq":1,"time":0.01,"kind":"action.received","store":"AppFeature#1/pages[id: 1]","action":"PageFeature.Action.startTapped","value":"startTapped","origin":"send"}"#,
      #"{"seq":2,"time":0.02,"kind":"state.changed","store":"AppFeature#1/pages[id: 1]","cause":1,"changes":[{"path":"isPlaying","op":"replace","old":false,"new":true}],"summary":"AppFeature#1/pages[id: 1]: _isPlaying changed."}"#,
      #"{"seq":3,"time":0.03,"kind":"effect.started","store":"AppFeature#1/pages[id: 1]","effect":1,"cause":1,"cancelID":"PageFeature.CancelID.timer"}"#,
      #"{"seq":10,"time":0.1,"kind":"derived.recomputed","store":"AppFeature#1","derived":"totalCount","cause":9,"outputChanged":true,"durationNs":1251}"#,
      #"{"seq":11,"time":0.11,"kind":"action.received","store":"AppFeature#1","action":"AppFeature.Action.pages","value":{"element":{"id":1,"action":"stopTapped"}},"origin":"send"}"#,
      #"{"seq":14,"time":0.14,"kind":"effect.cancelled","store":"AppFeature#1/pages[id: 1]","effect":1,"cancelID":"PageFeature.CancelID.timer","reason":"cancel","by":{"store":"AppFeature#1/pages[id: 1]","cause":11}}"#,
      #"{"seq":16,"time":0.16,"kind":"effect.finished","store":"AppFeature#1/pages[id: 1]","effect":2,"outcome":"completed"}"#,
      #"{"seq":17,"time":0.17,"kind":"state.changed","store":"AppFeature#1","cause":11,"changes":[{"path":"pages[id: 2]","op":"insert","new":{"id":2,"count":0},"index":1}],"summary":"AppFeature#1: _pages changed."}"#,
      #"{"seq":18,"time":0.18,"kind":"store.created","store":"AppFeature#1/pages[id: 1]","type":"PageFeature","parent":"AppFeature#1","identity":"i1"}"#,
      #"{"seq":35,"time":0.35000000000000003,"kind":"mark","label":"page 2 done"}"#,
      #"{"seq":54,"time":0.54,"kind":"identity.changed","store":"AppFeature#1/pages[id: 3]","identity":"i3","previous":null,"reason":"inserted"}"#,
    ]
    let tally = Self.compare(lines, colour: false)
    #expect(tally.rendered == lines.count)
  }

  @Test func linesThatAreNotEventsAreReportedAsBeforeThroughShow() async throws {
    let directory = TemporaryDirectory()
    let path = directory.file("odd.loupe")
    try Data(
      """
      {"format":"loupe-trace","version":1,"program":"x","pid":1,"startedAt":"2026-11-22T09:00:00.000Z"}
      {"seq":1,"time":1,"kind":"action.received","store":"A#1","action":"A.go","origin":"send"}
      {"seq":2,"time":2,"kind":"action.received","action":"A.go","origin":"send"}
      {"seq":3,"time":3,"kind":"effect.started","store":"A#1","effect":1,"cause":"one"}
      {"seq":4,"time":4,"kind":"identity.changed","store":"A#1","identity":"i1","reason":"inserted"}
      {"seq":5,"time":5,"kind":"effect.finished","store":"A#1","effect":1,"outcome":"done"}
      """.utf8
    ).write(to: URL(fileURLWithPath: path))
    let run = await loupe("show", path)
    #expect(run.status == 0)
    #expect(
      run.stdout
        == "     1.000ms      #1  action.received     A#1  A.go\n"
        + "     4.000ms      #4  identity.changed    A#1  inserted i1\n")
    #expect(
      run.stderr
        == "warning: \(path): line 3: action.received: field 'store' must be a string (missing); skipped\n"
        + "warning: \(path): line 4: effect.started: field 'cause' must be an integer (found string); skipped\n"
        + "warning: \(path): the trace ends inside line 6 (85 bytes after the last complete event, ignored); the recording was cut short\n")
  }
}

/// Random event lines, valid and not, as JSON text: every kind the timeline knows and some it
/// does not, with the members a trace has and the odd forms a hand-edited or foreign one could.
struct EventLineGenerator {
  var random: SplitMix64

  init(seed: UInt64) { random = SplitMix64(seed: seed) }

  mutating func pick<T>(_ choices: [T]) -> T { choices[Int.random(in: 0..<choices.count, using: &random)] }
  mutating func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &random) < percent }

  // Strings as they appear between quotes in JSON: some escaped, some not ASCII.
  static let texts = [
    "", "a", "AppFeature#1", "AppFeature#1/pages[id: 1]", "PageFeature.CancelID.timer", "café", "e\u{301}", "日本語",
    #"tab\there"#, #"quote\"d"#, #"\u00e9t\u00e9"#, "a/b/PageFeature.swift", "Feature.swift", "x]", "i1", "/", "a b",
  ]
  static let labels = [
    "PageFeature.Action.startTapped", "AppFeature.Action.pages", "A.b", "noDots", "", "X.é", "A.Action.seeked", #"A.\u0062"#,
  ]
  static let numbers = [
    "0", "-0", "1", "-17", "42", "123456789012345678", "1234567890123456789", "1.0", "1.50", "0.25", "-0.0", "0.0001",
    "0.00001", "1e3", "1E-2", "2.5e0", "0.35000000000000003", "999999999.5", "1000000000.5", "123456.123456", "1.1234567",
    "1e300", "-1e300", "9007199254740993", "0.1", "100.0", "-2.75",
  ]
  static let keys = ["id", "count", "odd key", "", "1a", "é", #"k\u0065y"#, "_x", "$y", "a1", "A-b", "title"]

  mutating func text() -> String { "\"" + pick(Self.texts) + "\"" }
  mutating func number() -> String { pick(Self.numbers) }
  mutating func int() -> String { pick(["0", "1", "2", "3", "5", "7", "-1", "12", "1.0", "\"3\"", "1e1"]) }
  mutating func smallInt() -> String { pick(["1", "2", "3", "4", "5"]) }

  mutating func value(depth: Int = 0) -> String {
    switch Int.random(in: 0..<(depth > 2 ? 5 : 8), using: &random) {
    case 0: return "null"
    case 1: return pick(["true", "false"])
    case 2, 3: return number()
    case 4: return text()
    case 5:
      return "[" + (0..<Int.random(in: 0..<4, using: &random)).map { _ in value(depth: depth + 1) }.joined(separator: ",") + "]"
    case 6:
      // Long enough to be cut at 120 characters.
      return "[" + (0..<30).map { _ in text() }.joined(separator: ",") + "]"
    default:
      return "{" + (0..<Int.random(in: 0..<4, using: &random)).map { _ in "\"\(pick(Self.keys))\":\(value(depth: depth + 1))" }
        .joined(separator: ",") + "}"
    }
  }

  /// An optional member: absent, null, a value of the right type, or a wrong one.
  mutating func optional(_ key: String, _ right: String, wrong: String = "[]") -> [(String, String)] {
    switch Int.random(in: 0..<10, using: &random) {
    case 0, 1, 2: return []
    case 3: return [(key, "null")]
    case 4: return [(key, wrong)]
    default: return [(key, right)]
    }
  }

  mutating func source() -> [(String, String)] {
    let right = pick([
        #"{"file":"PageFeature.swift","line":46}"#, #"{"file":"App/Features/PageFeature.swift","line":7,"path":"/src/App"}"#,
        #"{"file":"café/é.swift","line":1}"#, #"{"file":"a.swift","line":"1"}"#, #"{"file":1,"line":1}"#,
        #"{"file":"b.swift","line":3,"path":5}"#, #"{"file":"c.swift","line":2,"file":"d.swift"}"#, #"{"line":2}"#,
      ])
    return optional("source", right, wrong: "\"PageFeature.swift:1\"")
  }

  mutating func change() -> String {
    var members: [(String, String)] = [
      ("path", "\"" + pick(["count", "", "pages[id: 2]", #"pages[id: \"a\"]"#, "items[3]", "a.b", "todos[id: 3]", "é[id: 1]", "x]"]) + "\""),
      ("op", "\"" + pick(["replace", "replace", "insert", "remove", "bogus"]) + "\""),
    ]
    if chance(80) { members.append(("old", value())) }
    if chance(80) { members.append(("new", value())) }
    members += optional("index", int(), wrong: "\"2\"")
    members += optional("truncated", pick(["true", "false"]), wrong: "1")
    if chance(5) { members.append(("oldShape", #"{"enums":[""],"tuples":[]}"#)) }
    if chance(3) { members.append(("path", "\"again\"")) }
    if chance(3) { members = members.filter { $0.0 != "path" } }
    return object(members)
  }

  mutating func object(_ members: [(String, String)]) -> String {
    var members = members
    if chance(10) { members.shuffle(using: &random) }
    let space = chance(5) ? " " : ""
    return "{" + space + members.map { "\"\($0.0)\"\(space):\(space)\($0.1)" }.joined(separator: "," + space) + space + "}"
  }

  mutating func line(seq: Int) -> String {
    let kind = pick([
      "action.received", "action.received", "state.changed", "state.changed", "effect.started", "effect.finished",
      "effect.cancelled", "derived.recomputed", "store.created", "store.destroyed", "identity.changed", "mark",
      "session.started", "warning", "dropped", "state.snapshot", "custom.kind",
    ])
    let store = text()
    var members: [(String, String)] = [("seq", "\(seq)"), ("time", chance(90) ? "\(Double(seq) / 100)" : number()), ("kind", "\"\(kind)\"")]
    if kind != "mark" || chance(10) { members.append(("store", store)) }
    switch kind {
    case "action.received":
      let label = pick(Self.labels)
      let caseName = label.split(separator: ".").last.map(String.init) ?? label
      members.append(("action", "\"\(label)\""))
      switch Int.random(in: 0..<7, using: &random) {
      case 0: break
      case 1: members.append(("value", "\"\(caseName)\""))
      case 2: members.append(("value", "\"\(label)\""))
      case 3: members.append(("value", "{\"\(caseName)\":\(value())}"))
      case 4: members.append(("value", "{\"\(caseName)\":1,\"more\":2}"))
      default: members.append(("value", value()))
      }
      members.append(("origin", "\"" + pick(["send", "send", "parent", "effect", "effect", "tool", "bogus", #"s\u0065nd"#]) + "\""))
      if chance(10) { members.append(("client", pick([#""loupe send""#, "3", "null"]))) }
      members += optional("effect", smallInt(), wrong: "\"1\"")
      if chance(8) { members.append(("shape", pick([#"{"enums":[""],"tuples":[]}"#, "{}", #"{"enums":[],"tuples":[]}"#, "null"]))) }
      members += source()
    case "state.changed":
      members += [("cause", int()), ("summary", text())]
      if chance(10) { members += [("origin", pick([#""tool""#, #""send""#, "1"])), ("client", pick([#""loupe set-state""#, "null"]))] }
      let count = chance(5) ? Int.random(in: 19...23, using: &random) : Int.random(in: 0...3, using: &random)
      members.append(("changes", chance(3) ? "{}" : "[" + (0..<count).map { _ in change() }.joined(separator: ",") + "]"))
    case "effect.started":
      members += [("effect", smallInt()), ("cause", chance(50) ? "\(max(1, seq - 1))" : int())]
      members += optional("cancelID", text(), wrong: "7")
      members += source()
    case "effect.finished":
      members += [("effect", smallInt()), ("outcome", "\"" + pick(["completed", "failed", "done"]) + "\"")]
      members += optional("error", text(), wrong: "5")
    case "effect.cancelled":
      members += [("effect", smallInt()), ("reason", "\"" + pick(["cancel", "cancelInFlight", "storeDestroyed", "identityEnded", "x"]) + "\"")]
      members += optional("cancelID", text(), wrong: "7")
      var by: [(String, String)] = [("store", chance(50) ? store : text()), ("cause", chance(50) ? "\(max(1, seq - 2))" : int())]
      by += source()
      let byObject = object(by)
      members += optional("by", byObject, wrong: "\"someone\"")
    case "derived.recomputed":
      members += [("derived", text()), ("outputChanged", pick(["true", "false", "\"true\""])), ("durationNs", pick(["1251", "85", "0", "999999999999", "1.5", "-3"]))]
      members += optional("cause", int(), wrong: "\"x\"")
      members += source()
    case "store.created":
      members += [("type", text()), ("identity", chance(30) ? store : text())]
      members += optional("parent", text(), wrong: "1")
    case "store.destroyed":
      members.append(("identity", chance(30) ? store : text()))
    case "identity.changed":
      members += [("identity", text()), ("reason", "\"" + pick(["created", "presented", "dismissed", "inserted", "removed", "replaced", "moved"]) + "\"")]
      members += optional("previous", text(), wrong: "2")
    case "mark":
      members.append(("label", text()))
    case "session.started":
      members += [("pid", "1"), ("program", text()), ("protocolVersion", "\"1\""), ("startedAt", text())]
    case "warning":
      members += [("code", text()), ("message", text())]
    case "dropped":
      members.append(("count", int()))
    case "state.snapshot":
      members += [("state", value())]
    default:
      members.append(("extra", value()))
    }
    if chance(5) { members.append(("unknownMember", value())) }
    if chance(3), let repeated = members.randomElement(using: &random) { members.append(repeated) }
    if chance(2) { members.removeAll { $0.0 == pick(["store", "time", "action", "changes", "effect", "identity"]) } }
    return object(members)
  }
}

/// `loupe show FILE FILTER` against the reference: every event decoded and rendered, shown when
/// the filter matches the decoded event. The timeline decides most lines from their bytes
/// (`EventFilter.decide(line:)`), so the two must agree on kinds, stores and actions alike.
@Suite struct TimelineFilterTests {
  static let filters: [[String]] = [
    [], ["--kind", "effect.*"], ["--kind", "state.changed", "--kind", "mark"], ["--store", "AppFeature#1/pages*"],
    ["--store", "*#1"], ["--action", "*Tapped*"], ["--action", "*", "--store", "AppFeature#1"],
    ["--kind", "action.received", "--store", "CounterFeature#1"], ["--kind", "dropped"], ["--store", "nothing"],
  ]

  static func reference(_ path: String, _ arguments: [String], format: TimelineRenderer.Format = .text) throws -> String {
    var kinds: [Glob]?
    var stores: [Glob]?
    var actions: [Glob]?
    var index = 0
    while index < arguments.count {
      let glob = Glob(arguments[index + 1])
      switch arguments[index] {
      case "--kind": kinds = (kinds ?? []) + [glob]
      case "--store": stores = (stores ?? []) + [glob]
      default: actions = (actions ?? []) + [glob]
      }
      index += 2
    }
    let filter = EventFilter(kinds: kinds, stores: stores, actions: actions)
    var renderer = TimelineRenderer(style: Style(enabled: false))
    return try TraceReader(path: path).readAll().map { renderer.render($0, format: format, shown: filter.matches($0)) }.joined()
  }

  @Test(arguments: filters) func showAgreesWithDecodingEveryEvent(filter: [String]) async throws {
    let names = try FileManager.default.contentsOfDirectory(atPath: Fixtures.path("")).filter { $0.hasSuffix(".loupe") }
    var generated = EventLineGenerator(seed: 23)
    let directory = TemporaryDirectory()
    let mixed = directory.file("generated.loupe")
    let header = #"{"format":"loupe-trace","version":1,"program":"x","pid":1,"startedAt":"2026-11-22T09:00:00.000Z"}"#
    try Data(([header] + (1...3_000).map { generated.line(seq: $0) }).joined(separator: "\n").utf8 + [0x0A])
      .write(to: URL(fileURLWithPath: mixed))
    // (Not the newer-version fixture: it is refused, as another test checks.)
    for path in names.sorted().map(Fixtures.path) + [mixed] where !path.hasSuffix("newer.loupe") {
      let run = await loupe(["show", path] + filter)
      #expect(run.status == 0, "\(path) \(filter): \(run.stderr)")
      #expect(run.stdout == (try Self.reference(path, filter)), "\(path) \(filter)")
      let changes = await loupe(["show", path, "--format", "changes"] + filter)
      #expect(changes.stdout == (try Self.reference(path, filter, format: .changes)), "\(path) \(filter) changes")
    }
  }
}
