import Foundation
import Testing
@testable import LoupeCLI
@testable import LoupeCore
@testable import LoupeSession
import LoupeSession

/// `loupe stats`'s per-store rows stay bounded however many stores a trace has: exact up to
/// the limit, then by store shape, then one row for the rest.
@Suite struct StoreRowsTests {
  @Test func shapes() {
    #expect(StoreRows<Int>.shape(of: "AppFeature#1/pages[id: 7]") == "AppFeature#*/pages[id: *]")
    #expect(StoreRows<Int>.shape(of: "AppFeature#12/rows[3]/detail") == "AppFeature#*/rows[*]/detail")
    #expect(StoreRows<Int>.shape(of: "App#main/pages[id: \"a[b]\"]") == "App#main/pages[id: *]")
    #expect(StoreRows<Int>.shape(of: "Counter") == "Counter")
    #expect(StoreRows<Int>.shape(of: "É#3/x[id: é]") == "É#*/x[id: *]")
    #expect(StoreRows<Int>.shape(of: "A#1/b[id: 2") == "A#*/b[*")
  }

  @Test func exactUpToTheLimitThenByShapeThenOthers() {
    var rows = StoreRows<Int>(limit: 3) { $0 += $1 }
    for store in ["A#1/p[id: 1]", "A#1/p[id: 2]", "B#1"] { rows.update(store, initial: 0) { $0 += 1 } }
    rows.update("A#1/p[id: 1]", initial: 0) { $0 += 10 }
    #expect(!rows.grouped)
    #expect(rows.rows == ["A#1/p[id: 1]": 11, "A#1/p[id: 2]": 1, "B#1": 1])
    rows.update("A#1/p[id: 3]", initial: 0) { $0 += 1 }  // a fourth store: grouped by shape
    #expect(rows.grouped)
    #expect(rows.rows == ["A#*/p[id: *]": 13, "B#*": 1])
    rows.update("C#1", initial: 0) { $0 += 1 }
    rows.update("D#1", initial: 0) { $0 += 1 }  // past the limit even by shape
    rows.update("E#1", initial: 0) { $0 += 1 }
    rows.update("B#2", initial: 0) { $0 += 1 }
    #expect(rows.rows == ["A#*/p[id: *]": 13, "B#*": 2, "C#*": 1, StoreRows<Int>.othersKey: 2])
  }

  /// A trace with more stores than the limit, each changing identity: one row per shape, and
  /// the note says so.
  @Test func statsGroupsManyStores() async throws {
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("loupe-storerows-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: scratch) }
    let path = scratch.appendingPathComponent("many.loupe").path
    let writer = try TraceWriter(path: path, header: TraceHeader(program: "P", pid: 1, startedAt: "2026-11-22T09:00:00.000Z"))
    let stores = StoreRows<Int>.defaultLimit + 500
    var events: [Event] = []
    for n in 1...stores {
      events.append(Event(seq: n, time: Double(n), payload: .identityChanged(IdentityChanged(
        store: "AppFeature#1/pages[id: \(n)]", identity: "i\(n)", previous: nil, reason: .inserted))))
    }
    events.append(Event(seq: stores + 1, time: 0, payload: .identityChanged(IdentityChanged(
      store: "Other#1", identity: "o", previous: "p", reason: .replaced))))
    try writer.append(events)
    try writer.close()
    let run = await loupe("stats", path)
    #expect(run.status == 0)
    let table = run.stdout.components(separatedBy: "STORE")[1]
    let expected = [
      "                      IDENTITY CHANGES  REASONS",
      "AppFeature#*/pages[id: *]             1,500  inserted 1500",
      "Other#*                                   1  replaced 1",
      StatsReport.groupedNote,
      "",
    ]
    #expect(table == expected.joined(separator: "\n"))
    let json = try JSONParser.parse(await loupe("stats", path, "--json").stdout)
    #expect(json["trace"]?["identityChangesByShape"] == .bool(true))
    #expect(json["identityChangesByShape"] == nil)
    #expect(json["identityChanges"]?.arrayValue?.count == 2)
  }
}
