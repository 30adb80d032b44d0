import Foundation
import Testing
@testable import LoupeCore
@testable import LoupeSession

/// A live session's model over its own recording while it grows
/// (``SessionModel/init(growingTrace:)``): the same answers as the events kept in memory, and an
/// index whose size per event is bounded (issue 33 item 17).
@Suite struct GrowingTraceTests {
  static let header = TraceHeader(program: "app", pid: 1, startedAt: "2026-01-01T00:00:00Z")

  /// Writes `events` in batches of `batch` as a live recording does, indexing each line where
  /// the writer says it went; between batches the model is read (the file is still growing).
  static func growing(_ events: [Event], batch: Int, at path: String, check: (SessionModel) -> Void = { _ in }) throws -> SessionModel {
    let writer = try TraceWriter(path: path, header: header)
    let model = SessionModel(growingTrace: path)
    var rest = events[...]
    while !rest.isEmpty {
      let chunk = rest.prefix(batch)
      rest = rest.dropFirst(batch)
      let lines = chunk.map { Array($0.jsonText.utf8) }
      let start = try writer.appendLines(lines)
      let locations = TraceLineLocation.consecutive(from: start, lengths: lines.map(\.count))
      for (event, location) in zip(chunk, locations) { model.append(event, at: location) }
      model.storage.dropCache()
      check(model)
    }
    try writer.close()
    return model
  }

  static func scratch() throws -> (directory: URL, path: String) {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("growing-trace-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return (directory, directory.appendingPathComponent("live.loupe").path)
  }

  @Test func aGrowingTraceAnswersAsMemoryDoes() throws {
    let (directory, path) = try Self.scratch()
    defer { try? FileManager.default.removeItem(at: directory) }
    let memory = SessionModelTests.model()
    var reads = 0
    let live = try Self.growing(SessionModelTests.events, batch: 3, at: path) { model in
      // Read back while the file grows: each event so far, from the file.
      for index in 0..<model.count {
        #expect(model.event(at: index) == memory.event(at: index))
        reads += 1
      }
    }
    #expect(reads == 3 + 6 + 9 + 10)
    #expect(live.isFileBacked && !memory.isFileBacked)
    #expect(live.count == memory.count)
    live.storage.dropCache()
    for index in 0..<memory.count {
      #expect(live.event(at: index) == memory.event(at: index))
      #expect(live.eventJSON(at: index) == memory.eventJSON(at: index))
      #expect(live.cause(of: index) == memory.cause(of: index))
      #expect(live.consequences(of: index) == memory.consequences(of: index))
      #expect(live.stores(at: index).map(\.id) == memory.stores(at: index).map(\.id))
      #expect(live.state(of: "Page#2", at: index) == memory.state(of: "Page#2", at: index))
      #expect(live.runningEffects(of: "Page#2", at: index) == memory.runningEffects(of: "Page#2", at: index))
    }
    // A trace reader sees the same file as a finished recording.
    let reread = try SessionModel(tracePath: path)
    #expect((0..<reread.count).map { reread.event(at: $0) } == SessionModelTests.events)
  }

  @Test func stateRebuiltFromTheFileMatchesMemory() throws {
    let (directory, path) = try Self.scratch()
    defer { try? FileManager.default.removeItem(at: directory) }
    var events = [Event(seq: 1, time: 0, payload: .unknown(kind: "state.snapshot", fields: ["store": "C#1", "state": ["n": 0]]))]
    for n in 1...300 {
      events.append(Event(seq: 2 * n, time: 0, payload: .actionReceived(ActionReceived(store: "C#1", action: "C.inc", value: "inc", origin: .send))))
      events.append(
        Event(seq: 2 * n + 1, time: 0, payload: .stateChanged(StateChanged(store: "C#1", cause: 2 * n, changes: [Change(path: "n", op: .replace, old: .int(n - 1), new: .int(n))], summary: ""))))
    }
    let live = try Self.growing(events, batch: 64, at: path)
    live.storage.dropCache()
    for n in [300, 7, 150, 1] {
      #expect(live.state(of: "C#1", atSeq: 2 * n + 1, path: StatePath()) == RebuiltState(value: ["n": .int(n)], approximate: false))
    }
  }

  @Test func anEventTheRecordingCouldNotWriteIsKeptInMemory() throws {
    let (directory, path) = try Self.scratch()
    defer { try? FileManager.default.removeItem(at: directory) }
    let events = SessionModelTests.events
    let live = try Self.growing(Array(events.prefix(4)), batch: 4, at: path)
    for event in events.dropFirst(4) { live.append(event, at: nil) }  // a full disk: no location
    live.storage.dropCache()
    #expect((0..<live.count).map { live.event(at: $0) } == events)
    #expect(live.eventJSON(at: 9) == events[9].json)
  }

  /// The index a live session keeps per event is bounded by its data structures, whatever the
  /// session's length: packed columns, line locations and position lists, no events. Counted from
  /// the tables' storage (``SessionModel/indexBytes``), not from the process's memory.
  @Test func theIndexPerEventIsBounded() {
    let model = SessionModel(growingTrace: "/nonexistent/never-read.loupe")
    let stores = (0..<20).map { "Row#\($0)" }
    var seq = 0
    var offset = 100
    func add(_ payload: Event.Payload) {
      seq += 1
      let event = Event(seq: seq, time: Double(seq), payload: payload)
      model.append(event, at: TraceLineLocation(offset: offset, length: 200))
      offset += 201
    }
    let source = CodeLocation(file: "App/Row.swift", line: 12, path: "/src/App/Row.swift")
    for store in stores { add(.storeCreated(StoreCreated(store: store, type: "Row", parent: nil, identity: store))) }
    var measured: [Int] = []
    for round in 1...4 {
      // A steady program: an action and a change per store, an effect now and then.
      while seq < round * 50_000 {
        let store = stores[seq % stores.count]
        add(.actionReceived(ActionReceived(store: store, action: "Row.Action.tick", value: "tick", origin: .send, source: source)))
        add(.stateChanged(StateChanged(store: store, cause: seq, changes: [Change(path: "n", op: .replace, old: 0, new: 1)], summary: "")))
        if seq % 1000 == 0 { add(.effectStarted(EffectStarted(store: store, effect: seq, cause: seq - 2, cancelID: nil, source: source))) }
      }
      measured.append(model.indexBytes / model.count)
    }
    // Measured 9, 7, 6, 6 bytes an event at 50k…200k events: the packed columns (`seq`
    // nothing, consecutive; kind and store 1; cause 1), the store, action and line lists and
    // the state index's change positions (about 1 byte a position; half the events here are
    // changes) and the open blocks' fixed ~200 KB, which is most of the difference between
    // 50k and 200k. (12, 10, 8, 8 while change positions took 4 bytes each.)
    #expect(measured.allSatisfy { $0 <= Self.indexBytesPerEventLimit }, "\(measured)")
    #expect(measured.last! <= 6, "\(measured)")
    // The storage holds locations only, packed: a sealed block of lines of one length that
    // follow one another costs nothing; the open block's arrays are most of it. No events.
    #expect(model.storage.indexBytes <= model.count, "\(model.storage.indexBytes)")
    #expect(model.count > 200_000)
  }

  static let indexBytesPerEventLimit = 10
}
