import Foundation
import Testing
import TestSupport
@testable import LoupeCore
@testable import LoupeSession

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
