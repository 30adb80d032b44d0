import Foundation
import Testing
import TestSupport
@testable import LoupeCore
@testable import LoupeSession

/// A state rebuilt for one store, leaving out the changes that land beside its scope
/// (``ScopeFocus``, `loupe state` about one store), is the state rebuilt from every change:
/// random traces without snapshots (and some with), whose stores and paths cross each other —
/// siblings by id and by name, a sibling given the focused id, ids reused, an ancestor replaced
/// whole, positions, members spelled as keys, paths that do not parse, lines written otherwise.
@Suite struct ScopeFocusTests {
  /// Scoped stores, some of them odd: by position, by a string or a fractional id, under `id`,
  /// a scope that does not parse, one that needs escapes in JSON.
  static let stores = [
    "R#1/items[id: 1]", "R#1/items[id: 2]", "R#1/items[id: 3]", "R#1/items[id: 4]", "R#1/items[id: 2]/sub",
    "R#1/items[id: 3]/rows[id: 1]", "R#1/items[id: 2.0]", "R#1/items[id: \"a\"]", "R#1/items[1]", "R#1/items[id: 3]/id",
    "R#1/other", "R#1/other/deep[id: 1]", "R#1/item", "R#1/items", "R#1/[\"other\"]", "R#1/bad[", "R#1/items[id: 1]/[\"id\"]",
  ]

  static let paths = [
    "", "id", "v", "rows[id: 1]", "rows[id: 2]", "rows[id: 1].v", "items[id: 1]", "items[id: 2]", "items[id: 3]", "items[id: 1].id",
    "items[id: 2].v", "items[id: 3].rows[id: 1]", "items", "items[0]", "[\"id\"]", "total", "[id: 3]", "rows[", "sub.v", "id.x",
    "other", "other.deep", "tags[1]", "sub", "[\"v\"]", "deep[id: 1].v",
  ]

  static func randomID(_ random: inout SplitMix64) -> JSON {
    [.int(1), .int(2), .int(3), .int(4), .double(2.0), "a"][Int.random(in: 0..<6, using: &random)]
  }

  static func randomValue(_ random: inout SplitMix64, depth: Int = 0) -> JSON {
    switch Int.random(in: 0..<(depth > 1 ? 3 : 7), using: &random) {
    case 0: return .int(Int.random(in: 0..<5, using: &random))
    case 1: return .null
    case 2: return "s"
    case 3, 4:
      // An element: its id often one a path names (or the focused one).
      return ["id": randomID(&random), "v": randomValue(&random, depth: depth + 1), "rows": .array([["id": .int(1), "v": 0]])]
    case 5:
      return .array((0..<Int.random(in: 0..<4, using: &random)).map { _ in randomValue(&random, depth: depth + 1) })
    default:
      return ["sub": randomValue(&random, depth: depth + 1), "deep": .array([["id": .int(1), "v": 1]])]
    }
  }

  /// One `state.changed` line, mostly as Loupe writes it, sometimes otherwise.
  /// How often a store or path names a member `id`: a rename on the scope's way makes the
  /// rebuild go whole, so traces with fewer of them test what is left out.
  enum Renames { case none, rare, often }

  static func changeLine(seq: Int, renames: Renames, _ random: inout SplitMix64) -> String {
    var stores = renames == .often ? stores : stores.filter { !$0.contains("/id") && !$0.contains("\"id\"") }
    var paths = renames == .often ? paths : paths.filter { !$0.hasPrefix("id") && !$0.contains(".id") && !$0.contains("\"id\"") }
    if renames == .rare, Int.random(in: 0..<25, using: &random) == 0 {
      // An item's store giving its item another id.
      (stores, paths) = (["R#1/items[id: 1]", "R#1/items[id: 2]", "R#1/items[id: 3]", "R#1/items[id: 4]"], ["id"])
    }
    let store = Int.random(in: 0..<4, using: &random) == 0 && paths.count > 1 ? "R#1" : stores[Int.random(in: 0..<stores.count, using: &random)]
    var changes: [String] = []
    for _ in 0..<(Int.random(in: 0..<5, using: &random) == 0 ? 2 : 1) {
      let path = paths[Int.random(in: 0..<paths.count, using: &random)]
      let op = ["insert", "replace", "remove"][Int.random(in: 0..<3, using: &random)]
      var members = [#""path":\#(JSON.string(path).jsonText)"#, #""op":"\#(op)""#]
      if op != "insert" { members.append(#""old":null"#) }
      // A new `id` is mostly one a path names: the element then answers to it.
      let renames = path == "id" || path.hasSuffix(".id") || store.hasSuffix("/id")
      let new = renames && Int.random(in: 0..<4, using: &random) > 0 ? randomID(&random) : randomValue(&random)
      if op != "remove" { members.append(#""new":\#(new.jsonText)"#) }
      if Int.random(in: 0..<3, using: &random) == 0 { members.append(#""index":\#(Int.random(in: 0..<3, using: &random))"#) }
      switch Int.random(in: 0..<40, using: &random) {
      case 0: members.append(#""newShape":{"v":"enum"}"#)
      case 1: members.append(#""path":"v""#)  // twice
      case 2: members.removeFirst()  // no path
      case 3: members.insert(#""truncated":true"#, at: 0)
      default: break
      }
      changes.append("{" + members.joined(separator: ",") + "}")
    }
    let storeText = JSON.string(store).jsonText
    let list = "[" + changes.joined(separator: ",") + "]"
    let summary = #""summary":"\#(store): changed.""#
    let start = #"{"seq":\#(seq),"time":\#(seq).5,"kind":"state.changed","#
    switch Int.random(in: 0..<30, using: &random) {
    case 0: return start + #""cause":1,"changes":\#(list),"store":\#(storeText),\#(summary)}"#
    case 1: return start + #""store" : \#(storeText) , "changes" : \#(list) , \#(summary) }"#
    case 2: return start + #""store":\#(storeText.replacingOccurrences(of: "/", with: "\\/")),"changes":\#(list),\#(summary)}"#
    case 3: return start + #""store":\#(storeText),"store":"R#1","changes":\#(list),\#(summary)}"#
    case 4: return start + #""store":\#(storeText),"changes":\#(list)"#  // cut short
    case 5: return start + #""store":\#(storeText),"changes":{},\#(summary)}"#
    case 7: return start + #""store":\#(storeText),"cause":null,"changes":\#(list),\#(summary)}"#  // malformed
    case 6: return start + #""store":\#(storeText),"changes":\#(list),"summary":"\#(store): @self, @identity changed."}"#
    default: return start + #""store":\#(storeText),"cause":1,"changes":\#(list),\#(summary)}"#
    }
  }

  static func randomTrace(seed: UInt64, count: Int, snapshots: Bool, renames: Renames) -> String {
    var random = SplitMix64(seed: seed)
    var lines = [TraceSamples.header.jsonText]
    for seq in 1...count {
      switch Int.random(in: 0..<20, using: &random) {
      case 0: lines.append(#"{"seq":\#(seq),"time":\#(seq).5,"kind":"mark","label":"m"}"#)
      case 1 where snapshots:
        lines.append(#"{"seq":\#(seq),"time":\#(seq).5,"kind":"state.snapshot","store":"R#1","cause":null,"state":\#(randomValue(&random).jsonText)}"#)
      default: lines.append(changeLine(seq: seq, renames: renames, &random))
      }
    }
    return lines.joined(separator: "\n") + "\n"
  }

  @Test(arguments: Array(1...24) as [UInt64]) func leavingOutChangesBesideAStoreChangesNothing(seed: UInt64) throws {
    let scratch = ScratchDirectory()
    let count = 400
    let path = scratch.file("focus.loupe", Array(Self.randomTrace(seed: seed, count: count, snapshots: seed % 4 == 0, renames: [.none, .rare, .often][Int(seed % 3)]).utf8))
    let full = try TraceStateIndex(tracePath: path)
    let focused = try TraceStateIndex(tracePath: path)
    focused.checkpointBudget = 0
    focused.focusesOnEachStore = true
    var random = SplitMix64(seed: seed &+ 1_000)
    for _ in 0..<300 {
      let store = Self.stores[Int.random(in: 0..<Self.stores.count, using: &random)]
      let seq = Int.random(in: 1...count, using: &random)
      #expect(focused.state(of: store, atSeq: seq) == full.state(of: store, atSeq: seq), "\(store) at #\(seq), seed \(seed)")
    }
    // The root's state is rebuilt whole.
    #expect(focused.state(of: "R#1", atSeq: count) == full.state(of: "R#1", atSeq: count))
    if seed % 3 != 2 { #expect(focused.changesLeftOut > 0) }
  }

  /// The trace the benchmark writes, in small: items made, then rows of each edited in turn.
  @Test func leavesOutTheOtherItemsRows() throws {
    var lines = [TraceSamples.header.jsonText]
    func change(_ store: String, _ path: String, _ op: String, _ new: String? = nil) {
      let seq = lines.count
      let new = new.map { #","new":\#($0)"# } ?? ""
      let old = op == "insert" ? "" : #","old":null"#
      lines.append(#"{"seq":\#(seq),"time":1.0,"kind":"state.changed","store":"\#(store)","cause":1,"changes":[{"path":"\#(path)","op":"\#(op)"\#(old)\#(new)}],"summary":"s"}"#)
    }
    change("App#1", "items", "replace", "[]")
    for item in 1...3 { change("App#1", "items[id: \(item)]", "insert", #"{"id":\#(item),"rows":[]}"#) }
    for row in 1...4 {
      for item in 1...3 { change("App#1/items[id: \(item)]", "rows[id: \(row)]", "insert", #"{"id":\#(row),"v":0}"#) }
    }
    change("App#1/items[id: 1]", "id", "replace", "2")  // item 1 now answers to id 2 too
    change("App#1/items[id: 3]", "rows[id: 2].v", "replace", "7")
    let scratch = ScratchDirectory()
    let path = scratch.file("items.loupe", Array((lines.joined(separator: "\n") + "\n").utf8))
    let states = try TraceStateIndex(tracePath: path)
    states.checkpointBudget = 0
    states.focusesOnEachStore = true
    let rows = #"[{"id":1,"v":0},{"id":2,"v":0},{"id":3,"v":0},{"id":4,"v":0}]"#
    let before = try #require(states.state(of: "App#1/items[id: 2]", atSeq: 16))
    #expect(before.value.jsonText == #"{"id":2,"rows":\#(rows)}"#)
    #expect(before.approximate)
    // Items 1 and 3's rows were left out.
    #expect(states.changesLeftOut == 8)
    // Item 1 then answers to id 2, and comes first: its rows were needed after all.
    let after = try #require(states.state(of: "App#1/items[id: 2]", atSeq: 18))
    #expect(after.value.jsonText == #"{"id":2,"rows":\#(rows)}"#)
    #expect(states.state(of: "App#1/items[id: 3]", atSeq: 18)?.value.jsonText == #"{"id":3,"rows":[{"id":1,"v":0},{"id":2,"v":7},{"id":3,"v":0},{"id":4,"v":0}]}"#)
  }

  @Test func skimsTheStoreAndThePaths() {
    func skim(_ line: String) -> [String]? {
      let bytes = Array(line.utf8)
      var paths: [Range<Int>] = []
      guard let store = bytes.withUnsafeBufferPointer({ StateChangeSkim.read($0, paths: &paths) }) else { return nil }
      return [String(decoding: bytes[store], as: UTF8.self)] + paths.map { String(decoding: bytes[$0], as: UTF8.self) }
    }
    let plain = #"{"seq":1,"time":0.5,"kind":"state.changed","store":"A#1/x[id: 2]","changes":[{"path":"v","op":"replace","old":{"path":"no"},"new":[1,"]}"]},{"op":"remove","path":"rows[id: 1]"}],"summary":"\"path\""}"#
    #expect(skim(plain) == ["A#1/x[id: 2]", "v", "rows[id: 1]"])
    #expect(skim(#"{ "changes" : [ ] , "store" : "A#1" }"#) == ["A#1"])
    #expect(skim(#"{"store":"A#1","changes":[{"path":"v"}],"store":"B#1"}"#) == nil)  // store twice
    #expect(skim(#"{"store":"A\/1","changes":[]}"#) == nil)  // escaped
    #expect(skim(#"{"st\u006fre":"B#1","store":"A#1","changes":[]}"#) == nil)  // an escaped name
    #expect(skim(#"{"store":"A#1","changes":[{"path":"v","newShape":{}}]}"#) == nil)  // a shape
    #expect(skim(#"{"store":"A#1","changes":[{"op":"remove"}]}"#) == nil)  // no path
    #expect(skim(#"{"store":"A#1"}"#) == nil)  // no changes
    #expect(skim(#"{"store":"A#1","changes":[]"#) == nil)  // cut short
  }

  @Test func whereOtherStoresChangesLand() throws {
    let focus = try #require(ScopeFocus(store: "A#1/items[id: 3]/detail"))
    #expect(ScopeFocus(store: "A#1") == nil)
    #expect(focus.reach(ofStore: "A#1") == .reaches)
    #expect(focus.reach(ofStore: "A#1/items") == .reaches)
    #expect(focus.reach(ofStore: "A#1/items[id: 3]") == .reaches)
    #expect(focus.reach(ofStore: "A#1/items[id: 3]/detail/x") == .reaches)
    #expect(focus.reach(ofStore: "A#1/items[id: 4]") == .beside(depth: 1, element: 4, pathsMatter: true))
    #expect(focus.reach(ofStore: "A#1/items[id: 4]/rows") == .beside(depth: 1, element: 4, pathsMatter: false))
    #expect(focus.reach(ofStore: "A#1/items[id: 4]/id") == .reaches)
    #expect(focus.reach(ofStore: "A#1/items[id: 4]/[\"id\"]") == .reaches)
    #expect(focus.reach(ofStore: "A#1/items[id: 3]/other") == .beside(depth: 2, element: nil, pathsMatter: false))
    #expect(focus.reach(ofStore: "A#1/total") == .beside(depth: 0, element: nil, pathsMatter: false))
    #expect(focus.reach(ofStore: "A#1/[\"items\"][id: 4]") == .beside(depth: 1, element: 4, pathsMatter: true))
    #expect(focus.reach(ofStore: "A#1/items[2]") == .reaches)
    #expect(focus.reach(ofStore: "A#1/items[id: 3.0]") == .beside(depth: 1, element: 3.0, pathsMatter: true))
    #expect(focus.reach(ofStore: "A#1/bad[") == .reaches)
    // A name equal as a string but spelled otherwise may be the same member.
    let decomposed = try #require(ScopeFocus(store: "A#1/caf\u{E9}"))
    #expect(decomposed.reach(ofStore: "A#1/cafe\u{301}") == .reaches)
    for (path, leaves) in [("v", true), ("rows[id: 1]", true), ("idx", true), ("id", false), ("id.x", false), ("id[0]", false),
      ("", false), ("[\"id\"]", false), (".x", false), ("caf\u{E9}", false)]
    {
      let bytes = Array(path.utf8)
      #expect(bytes.withUnsafeBufferPointer { ScopeFocus.pathLeavesIDAlone($0) } == leaves, "\(path)")
    }
  }
}
