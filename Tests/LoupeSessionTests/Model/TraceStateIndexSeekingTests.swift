import Foundation
import Testing
@testable import LoupeCore
@testable import LoupeSession

/// ``TraceStateIndex/seeking(tracePath:store:through:)`` (what `loupe state` reads for one
/// store) answers exactly what a pass through the trace answers, or declines (`nil`, or a store
/// it does not see alive) so the caller reads the trace through.
@Suite struct TraceStateIndexSeekingTests {
  /// Whether the sought index answers for `store` right after `at` (the end when `nil`) the
  /// way `loupe state` asks (alive, a state); when it does, every answer equals the pass's.
  @discardableResult
  static func agree(_ path: String, _ store: String, at: Int?, pass: TraceStateIndex, chunkSize: Int = 4 << 20) throws -> Bool {
    guard let sought = try TraceStateIndex.seeking(tracePath: path, store: store, through: at, chunkSize: chunkSize) else { return false }
    let moment = "\(store) at \(at.map { "#\($0)" } ?? "the end")"
    #expect(sought.firstSeq == pass.firstSeq, "\(moment)")
    #expect(sought.lastSeq == pass.lastSeq, "\(moment)")
    #expect(sought.isComplete == pass.isComplete, "\(moment)")
    // `loupe state` refuses a moment outside the trace before asking for a state.
    if let at, let first = sought.firstSeq, let last = sought.lastSeq, at < first || (sought.isComplete && at > last) { return false }
    guard let seq = at ?? sought.lastSeq, sought.isAlive(store, atSeq: seq), let state = sought.state(of: store, atSeq: seq) else {
      return false
    }
    #expect(pass.isAlive(store, atSeq: seq), "\(moment): alive")
    #expect(sought.stores(aliveAtSeq: seq).contains(store) == pass.stores(aliveAtSeq: seq).contains(store), "\(moment)")
    #expect(state == pass.state(of: store, atSeq: seq), "\(moment): state")
    #expect(sought.shape(of: store, atSeq: seq) == pass.shape(of: store, atSeq: seq), "\(moment): shape")
    #expect(sought.snapshotSeq(of: store, atOrBeforeSeq: seq) == pass.snapshotSeq(of: store, atOrBeforeSeq: seq), "\(moment)")
    // Damage is reported for the part read, with the same line numbers.
    #expect(Set(sought.reader.malformedLines).isSubset(of: Set(pass.reader.malformedLines)), "\(moment)")
    if sought.isComplete { #expect(sought.reader.truncation == pass.reader.truncation, "\(moment)") }
    return true
  }

  static func stores(of events: [Event]) -> [String] {
    var stores = ["A#1", "B#1", "Nope#1"]
    for case .storeCreated(let e) in events.map(\.payload) where e.store.hasPrefix("A#1/") && stores.count < 7 { stores.append(e.store) }
    return stores
  }

  /// Random sessions (snapshots now and then, scoped stores created, changed and destroyed, a
  /// root without snapshots): at every seventh `seq` and at the end, for every store, with the
  /// backward search in one chunk and in many small ones.
  @Test(arguments: [21, 22, 23] as [UInt64]) func agreesWithAPassAtEverySeq(seed: UInt64) throws {
    let events = TraceStateIndexTests.randomSession(seed: seed, count: 300, destroying: true)
    let scratch = ScratchDirectory()
    let path = TraceStateIndexTests.write(events, in: scratch)
    let stores = Self.stores(of: events)
    var answered: [String: Int] = [:]
    let moments = Array(stride(from: 1, through: events.count + 1, by: 7)) + [nil] as [Int?]
    for (number, at) in moments.enumerated() {
      let pass = try TraceStateIndex(tracePath: path, through: at)
      for store in stores {
        // Stores with a snapshot: every other moment searched backwards in chunks of 1 KiB.
        let chunk = store.hasPrefix("A#1") && number % 2 == 0 ? 1024 : 4 << 20
        if try Self.agree(path, store, at: at, pass: pass, chunkSize: chunk) { answered[store, default: 0] += 1 }
      }
    }
    // A#1 has a snapshot from #2 on: every moment but #1 and #N+1 (not in the trace) is answered
    // by seeking. B#1 has none: never. Scoped stores: while alive.
    #expect(answered["A#1"] == moments.filter { $0.map { $0 >= 2 && $0 <= events.count } ?? true }.count)
    #expect(answered["B#1"] == nil)
    #expect(answered["Nope#1"] == nil)
    #expect(stores.dropFirst(3).contains { answered[$0, default: 0] > 0 })
  }

  @Test func aTruncatedLastLine() throws {
    let events = TraceStateIndexTests.randomSession(seed: 31, count: 200)
    let scratch = ScratchDirectory()
    let last = events.count
    let path = scratch.file("cut.loupe", TraceSamples.traceBytes(events) + Array(#"{"seq":\#(last + 1),"time":1,"kind":"state.ch"#.utf8))
    let pass = try TraceStateIndex(tracePath: path)
    #expect(pass.reader.truncation?.line == events.count + 2)
    #expect(try Self.agree(path, "A#1", at: nil, pass: pass))
    #expect(try Self.agree(path, "A#1", at: last, pass: TraceStateIndex(tracePath: path, through: last)))
    #expect(try Self.agree(path, "A#1", at: last - 3, pass: TraceStateIndex(tracePath: path, through: last - 3)))
    let sought = try #require(try TraceStateIndex.seeking(tracePath: path, store: "A#1", through: nil))
    #expect(sought.reader.truncation == pass.reader.truncation)
    // Past the end: the same trace's end as the pass's (`loupe state` then says there is no such event).
    let after = try TraceStateIndex(tracePath: path, through: last + 1)
    let soughtAfter = try #require(try TraceStateIndex.seeking(tracePath: path, store: "A#1", through: last + 1))
    #expect(soughtAfter.lastSeq == after.lastSeq && soughtAfter.isComplete && after.isComplete)
  }

  @Test func aMalformedLineInThePartRead() throws {
    let events = TraceStateIndexTests.randomSession(seed: 32, count: 200)
    var lines = events.map(\.jsonText)
    lines.insert(#"{"seq":oops}"#, at: 190)
    let text = TraceSamples.header.jsonText + "\n" + lines.joined(separator: "\n") + "\n"
    let scratch = ScratchDirectory()
    let path = scratch.file("damaged.loupe", text: text)
    let pass = try TraceStateIndex(tracePath: path)
    #expect(pass.reader.malformedLines.map(\.line) == [192])
    #expect(try Self.agree(path, "A#1", at: nil, pass: pass))
    let sought = try #require(try TraceStateIndex.seeking(tracePath: path, store: "A#1", through: nil))
    #expect(sought.reader.malformedLines == pass.reader.malformedLines)
  }

  /// Without the root's last snapshots the state is rebuilt from an earlier one; without any,
  /// seeking declines (a trace from before snapshots).
  @Test func missingSnapshots() throws {
    let events = TraceStateIndexTests.randomSession(seed: 33, count: 300)
    let snapshots = events.filter { $0.kind == StateSnapshot.kind }.map(\.seq)
    try #require(snapshots.count >= 3)
    let scratch = ScratchDirectory()
    let lastGone = TraceStateIndexTests.write(events.filter { $0.seq != snapshots.last! }, in: scratch)
    for at in [snapshots.last!, snapshots.last! + 1, nil] as [Int?] {
      #expect(try Self.agree(lastGone, "A#1", at: at, pass: TraceStateIndex(tracePath: lastGone, through: at)))
    }
    let noneLeft = scratch.file("none.loupe", TraceSamples.traceBytes(events.filter { $0.kind != StateSnapshot.kind }))
    #expect(try TraceStateIndex.seeking(tracePath: noneLeft, store: "A#1", through: nil) == nil)
    #expect(try TraceStateIndex.seeking(tracePath: noneLeft, store: "A#1/items[id: 1]", through: 150) == nil)
  }

  /// `seq`s that go back in the part read, or where the file is bisected: declined.
  @Test func seqsThatGoBack() throws {
    let events = TraceStateIndexTests.randomSession(seed: 34, count: 300)
    let scratch = ScratchDirectory()
    var swapped = events
    swapped.swapAt(events.count - 2, events.count - 5)
    let late = TraceStateIndexTests.write(swapped, in: scratch)
    #expect(try TraceStateIndex.seeking(tracePath: late, store: "A#1", through: nil) == nil)
    // The second half written before the first: bisecting reads seqs that go back.
    let halves = Array(events[150...]) + Array(events[..<150])
    let path = scratch.file("halves.loupe", TraceSamples.traceBytes(halves))
    #expect(try TraceStateIndex.seeking(tracePath: path, store: "A#1", through: 100) == nil)
  }

  @Test func pipesAndEscapedStoreIDsAreReadThrough() throws {
    let scratch = ScratchDirectory()
    let fifo = scratch.path("trace.fifo")
    #expect(mkfifo(fifo, 0o600) == 0)
    // Not opened: a FIFO without a writer would block.
    #expect(try TraceStateIndex.seeking(tracePath: fifo, store: "A#1", through: nil) == nil)
    let path = TraceStateIndexTests.write(TraceStateIndexTests.randomSession(seed: 35, count: 50), in: scratch)
    #expect(try TraceStateIndex.seeking(tracePath: path, store: #"A"1"#, through: nil) == nil)
    #expect(try TraceStateIndex.seeking(tracePath: path, store: "A#1", through: nil) != nil)
  }

  @Test func occurrences() {
    func find(_ needle: String, _ text: String) -> [Int] { TraceSeek.occurrences(of: Array(needle.utf8), in: Array(text.utf8)) }
    #expect(find("aaa", "aaaaa") == [0, 1, 2])
    #expect(find(#""store":"A#1""#, #"{"store":"A#1/x"},{"store":"A#1"}"#) == [19])
    #expect(find("abc", "ab") == [])
    #expect(find("xyz", "xyzxyzxy") == [0, 3])
  }
}

/// A root changed before any snapshot of it (a trace without snapshots) is read through
/// without first searching the whole file backwards for a snapshot
/// (``TraceSeek/changesBeforeSnapshot(of:window:)``).
@Suite struct TraceSeekFirstChangeTests {
  static func changesBeforeSnapshot(_ events: [String], root: String = "App#1", window: Int = 1 << 20) throws -> Bool {
    let scratch = ScratchDirectory()
    var lines = [TraceSamples.header.jsonText]
    for (offset, event) in events.enumerated() { lines.append(#"{"seq":\#(offset + 1),"time":1.5,"kind":\#(event)}"#) }
    let path = scratch.file("first.loupe", Array((lines.joined(separator: "\n") + "\n").utf8))
    let reader = try TraceReader(path: path)
    let seek = try #require(TraceSeek(file: try TraceLineFile(path: path), eventsStart: reader.bytesRead))
    return seek.changesBeforeSnapshot(of: Array(root.utf8), window: window)
  }

  static let created = #""store.created","store":"App#1","type":"App","parent":null,"identity":"App#1""#
  static let snapshot = #""state.snapshot","store":"App#1","cause":null,"state":{}"#
  static func changed(_ store: String) -> String {
    #""state.changed","store":"\#(store)","cause":1,"changes":[{"path":"n","op":"replace","old":0,"new":1}],"summary":"s""#
  }

  @Test func aChangeBeforeAnySnapshot() throws {
    #expect(try Self.changesBeforeSnapshot([Self.created, Self.changed("App#1"), Self.snapshot]))
    #expect(try Self.changesBeforeSnapshot([Self.created, Self.changed("App#1/items[id: 2]")]))
    #expect(try Self.changesBeforeSnapshot([Self.changed("App#1")]))
  }

  @Test func aSnapshotFirstOrNoChangeToTell() throws {
    #expect(try !Self.changesBeforeSnapshot([Self.created, Self.snapshot, Self.changed("App#1")]))
    #expect(try !Self.changesBeforeSnapshot([Self.created]))
    // Another root whose id starts the same way, a value that holds the bytes of a change.
    #expect(try !Self.changesBeforeSnapshot([Self.changed("App#10"), Self.created, Self.snapshot]))
    #expect(try !Self.changesBeforeSnapshot([#""mark","x":{"kind":"state.changed","store":"App#1"}"#, Self.snapshot, Self.changed("App#1")]))
    // Past the window: not known.
    #expect(try !Self.changesBeforeSnapshot([Self.created, Self.created, Self.changed("App#1")], window: 200))
  }
}
