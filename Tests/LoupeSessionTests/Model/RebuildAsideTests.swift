import Foundation
import Testing
import TestSupport
@testable import LoupeCore
@testable import LoupeSession

/// A recording's root without snapshots, asked about one of its scoped stores far from any
/// checkpoint: the model answers from a rebuild focused on that store while the root is
/// rebuilt whole on a thread of its own (``RootRebuildAside``), then adopts that rebuild's
/// checkpoints (issue 33 item 18, `loupe dap`'s State scope). Every answer, before and after,
/// is the whole rebuild's.
@Suite struct RebuildAsideTests {
  /// Random traces whose stores and paths cross each other (``ScopeFocusTests``), some with
  /// snapshots, some renaming elements on the scopes' way (the focus breaks: a whole rebuild).
  @Test(arguments: Array(1...12) as [UInt64]) func answersBeforeAndAfterTheRebuildAsideAreTheWholeRebuilds(seed: UInt64) throws {
    let scratch = ScratchDirectory()
    let count = 900
    let renames: ScopeFocusTests.Renames = [.none, .rare, .often][Int(seed % 3)]
    let trace = ScopeFocusTests.randomTrace(seed: seed, count: count, snapshots: seed % 4 == 0, renames: renames)
    let path = scratch.file("aside.loupe", Array(trace.utf8))
    // Half of them indexed from skimmed lines (``EventIndexSkim``), as a large trace is.
    let (whole, model) = try Self.models(of: path, focusingFrom: 1, decodingAheadFrom: seed % 2 == 0 ? 0 : .max)
    var random = SplitMix64(seed: seed &+ 7)
    func ask(_ times: Int) {
      for _ in 0..<times {
        let store = Int.random(in: 0..<10, using: &random) == 0 ? "R#1" : ScopeFocusTests.stores[Int.random(in: 0..<ScopeFocusTests.stores.count, using: &random)]
        let index = Int.random(in: 0..<model.count, using: &random)
        #expect(model.state(of: store, at: index) == whole.state(of: store, at: index), "\(store) at \(index), seed \(seed)")
      }
    }
    // First about an item at the end: without snapshots and renames, a focused answer.
    let last = model.count - 1
    #expect(model.state(of: "R#1/items[id: 2]", at: last) == whole.state(of: "R#1/items[id: 2]", at: last))
    if seed % 4 != 0, renames == .none { #expect(model.focusedAnswers == 1) }
    ask(100)
    model.finishRebuildsAside()
    #expect(model.rebuildsAside.isEmpty)
    let focusedBefore = model.focusedAnswers
    ask(100)
    // The root's checkpoints are adopted: no question is focused again.
    #expect(model.focusedAnswers == focusedBefore)
    #expect(whole.focusedAnswers == 0)
  }

  /// The trace at `path` opened twice: a model that never focuses (every state the whole
  /// rebuild's), and one that focuses from `focusingFrom` changes, indexed decoding ahead
  /// (skimming) from `decodingAheadFrom` bytes.
  static func models(
    of path: String, focusingFrom: Int, decodingAheadFrom: Int = SessionModel.decodingAheadBytes
  ) throws -> (whole: SessionModel, focusing: SessionModel) {
    let whole = try SessionModel(tracePath: path)
    whole.focusingFrom = .max
    let focusing = try SessionModel(tracePath: path, decodingAheadFrom: decodingAheadFrom)
    focusing.focusingFrom = focusingFrom
    return (whole, focusing)
  }

  /// The benchmark's trace in small: `items` items made, then `rows` rows of each inserted in
  /// turn, then what `more` adds (with the function it is handed: store, path, op, new value).
  static func itemsTrace(items: Int, rows: Int, more: ((_ change: (String, String, String, String) -> Void) -> Void)? = nil) -> String {
    var lines = [TraceSamples.header.jsonText]
    func change(_ store: String, _ path: String, _ op: String, _ new: String) {
      let seq = lines.count
      let old = op == "insert" ? "" : #","old":null"#
      lines.append(#"{"seq":\#(seq),"time":1.0,"kind":"state.changed","store":"\#(store)","cause":1,"changes":[{"path":"\#(path)","op":"\#(op)"\#(old),"new":\#(new)}],"summary":"s"}"#)
    }
    change("App#1", "items", "replace", "[]")
    for item in 1...items { change("App#1", "items[id: \(item)]", "insert", #"{"id":\#(item),"rows":[]}"#) }
    for row in 1...rows {
      for item in 1...items { change("App#1/items[id: \(item)]", "rows[id: \(row)]", "insert", #"{"id":\#(row),"v":\#(item)}"#) }
    }
    more?(change)
    return lines.joined(separator: "\n") + "\n"
  }

  /// The benchmark's trace in small (items made, then each item's rows edited in turn): the
  /// first answer about an item is focused; the checkpoints adopted are those a whole rebuild
  /// leaves, and answer the next questions, about any store, from them.
  @Test func adoptsTheCheckpointsAWholeRebuildLeaves() throws {
    let scratch = ScratchDirectory()
    let path = scratch.file("items.loupe", Array(Self.itemsTrace(items: 8, rows: 150).utf8))
    let (whole, model) = try Self.models(of: path, focusingFrom: 512)
    let last = model.count - 1
    let item = try #require(model.state(of: "App#1/items[id: 5]", at: last))
    #expect(item.value == whole.state(of: "App#1/items[id: 5]", at: last)?.value)
    #expect(item.value.jsonText.hasPrefix(#"{"id":5,"rows":[{"id":1,"v":5},{"id":2,"v":5},"#))
    #expect(model.focusedAnswers == 1)
    #expect(model.stateIndex.checkpointCount == 0)
    model.finishRebuildsAside()
    let adopted = model.stateIndex.roots["App#1"]?.checkpoints.map(\.applied)
    #expect(adopted == whole.stateIndex.roots["App#1"]?.checkpoints.map(\.applied))
    #expect((adopted ?? []).count == 4)
    for checkpoint in model.stateIndex.roots["App#1"]?.checkpoints ?? [] {
      #expect(checkpoint.state.state == whole.stateIndex.roots["App#1"]?.checkpoints.first { $0.applied == checkpoint.applied }?.state.state)
    }
    // Near a checkpoint, about the root and another item: no focus needed.
    for (store, index) in [("App#1", 700), ("App#1/items[id: 2]", 1000), ("App#1/items[id: 5]", 300)] {
      #expect(model.state(of: store, at: index) == whole.state(of: store, at: index), "\(store) at \(index)")
    }
    #expect(model.focusedAnswers == 1)
  }

  /// Another item's store gives its item the focused id: that change is pinned (its line read,
  /// never left out by its store), the focus breaks, and the answer is the whole rebuild's —
  /// whether the index read the lines skimmed or decoded.
  @Test(arguments: [0, Int.max]) func aSiblingRenamedIntoTheScopeIsNotLeftOut(decodingAheadFrom: Int) throws {
    let trace = Self.itemsTrace(items: 3, rows: 40) { change in
      change("App#1/items[id: 1]", "id", "replace", "2")  // item 1 now answers to id 2, and comes first
      change("App#1/items[id: 3]", "rows[id: 2].v", "replace", "7")
    }
    let scratch = ScratchDirectory()
    let path = scratch.file("renamed.loupe", Array(trace.utf8))
    let (whole, model) = try Self.models(of: path, focusingFrom: 1, decodingAheadFrom: decodingAheadFrom)
    #expect(model.stateIndex.roots["App#1"]?.pinned.all == [model.count - 2])
    let last = model.count - 1
    let answer = try #require(model.state(of: "App#1/items[id: 2]", at: last))
    #expect(answer == whole.state(of: "App#1/items[id: 2]", at: last))
    #expect(answer.value.jsonText.hasPrefix(#"{"id":2,"rows":[{"id":1,"v":1},"#))  // item 1's rows
    #expect(model.focusedAnswers == 0)
    // Before the rename, the focused answer is item 2's own.
    let before = try #require(model.state(of: "App#1/items[id: 2]", at: last - 2))
    #expect(before == whole.state(of: "App#1/items[id: 2]", at: last - 2))
    #expect(before.value.jsonText.hasPrefix(#"{"id":2,"rows":[{"id":1,"v":2},"#))
  }

  /// The trace's path names another file by the time the root is rebuilt aside (a recorder
  /// writing a new one in its place): the rebuild reads the file the model opened.
  @Test func theRebuildAsideReadsTheFileTheModelOpenedNotItsPath() throws {
    let scratch = ScratchDirectory()
    let path = scratch.file("moved.loupe", Array(Self.itemsTrace(items: 4, rows: 120).utf8))
    let (whole, model) = try Self.models(of: path, focusingFrom: 64)
    // Another trace of the same shape, other values, put in its place.
    let other = Self.itemsTrace(items: 4, rows: 120).replacingOccurrences(of: #","v":"#, with: #","v":9"#)
    let replacement = scratch.file("replacement.loupe", Array(other.utf8))
    #expect(rename(replacement, path) == 0)
    let last = model.count - 1
    #expect(model.state(of: "App#1/items[id: 2]", at: last) == whole.state(of: "App#1/items[id: 2]", at: last))
    #expect(model.focusedAnswers == 1)
    model.finishRebuildsAside()
    #expect(model.stateIndex.checkpointCount > 0)
    for index in [last, last - 100, 300] {
      #expect(model.state(of: "App#1", at: index) == whole.state(of: "App#1", at: index), "App#1 at \(index)")
    }
  }

  /// A question about the root itself waits for the rebuild aside rather than rebuilding it
  /// twice, and a model kept in memory or a live session's never rebuilds aside.
  @Test func theRootWaitsForTheRebuildAsideAndOnlyRecordingsRebuildAside() throws {
    let scratch = ScratchDirectory()
    let trace = ScopeFocusTests.randomTrace(seed: 5, count: 900, snapshots: false, renames: .none)
    let path = scratch.file("root.loupe", Array(trace.utf8))
    let (whole, model) = try Self.models(of: path, focusingFrom: 1)
    let last = model.count - 1
    #expect(model.state(of: "R#1/items[id: 1]", at: last) == whole.state(of: "R#1/items[id: 1]", at: last))
    #expect(model.rebuildsAside["R#1"] != nil)
    #expect(model.state(of: "R#1", at: last) == whole.state(of: "R#1", at: last))
    #expect(model.rebuildsAside.isEmpty)
    #expect(model.rebuiltAside == ["R#1"])

    let memory = SessionModel()
    memory.focusingFrom = 1
    for index in 0..<whole.count { memory.append(whole.event(at: index)) }
    #expect(memory.state(of: "R#1/items[id: 1]", at: last) == whole.state(of: "R#1/items[id: 1]", at: last))
    #expect(memory.focusedAnswers == 0)
    #expect(memory.rebuildsAside.isEmpty)
  }
}
