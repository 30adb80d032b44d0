import Foundation
import Testing
@testable import LoupeCore
@testable import LoupeSession

/// The session model: causes both ways, stores alive, effects running, and the state of any
/// store at any event — the same from memory (live) and from a trace file (by offset).
@Suite struct SessionModelTests {
  /// Seed 000 in small: page 2's timer, cancelled by page 1's onAppear (cancelInFlight).
  static let events: [Event] = {
    let pager = CodeLocation(file: "App/Pager.swift", line: 63, path: "/src/App/Pager.swift")
    let feature = CodeLocation(file: "App/PageFeature.swift", line: 52, path: "/src/App/PageFeature.swift")
    return [
      Event(seq: 1, time: 0, payload: .sessionStarted(SessionStarted(pid: 1, program: "app", startedAt: "2026-01-01T00:00:00Z"))),
      Event(seq: 2, time: 1, payload: .storeCreated(StoreCreated(store: "Page#1", type: "Page", parent: nil, identity: "i1"))),
      Event(seq: 3, time: 1, payload: .storeCreated(StoreCreated(store: "Page#2", type: "Page", parent: nil, identity: "i2"))),
      Event(seq: 4, time: 2, payload: .actionReceived(ActionReceived(store: "Page#2", action: "Page.Action.onAppear", value: "onAppear", origin: .send, source: pager))),
      Event(seq: 5, time: 2, payload: .effectStarted(EffectStarted(store: "Page#2", effect: 1, cause: 4, cancelID: "timer", source: feature))),
      Event(seq: 6, time: 3, payload: .actionReceived(ActionReceived(store: "Page#2", action: "Page.Action.tick", value: "tick", origin: .effect, effect: 1, source: feature))),
      Event(seq: 7, time: 3, payload: .stateChanged(StateChanged(store: "Page#2", cause: 6, changes: [Change(path: "count", op: .replace, old: 0, new: 1)], summary: "Page#2: _count changed."))),
      Event(seq: 8, time: 4, payload: .actionReceived(ActionReceived(store: "Page#1", action: "Page.Action.onAppear", value: "onAppear", origin: .send, source: pager))),
      Event(seq: 9, time: 4, payload: .effectCancelled(EffectCancelled(store: "Page#2", effect: 1, cancelID: "timer", reason: .cancelInFlight, by: .init(store: "Page#1", cause: 8, source: feature)))),
      Event(seq: 10, time: 5, payload: .storeDestroyed(StoreDestroyed(store: "Page#2", identity: "i2"))),
    ]
  }()

  static func model() -> SessionModel {
    let model = SessionModel()
    for event in events { model.append(event) }
    return model
  }

  static func seqs(_ model: SessionModel, _ indices: [Int]) -> [Int] { indices.map { model.event(at: $0).seq } }

  @Test func causesGoBothWays() {
    let model = Self.model()
    func cause(_ seq: Int) -> Int? { model.cause(of: model.index(ofSeq: seq)!).map { model.event(at: $0).seq } }
    #expect(cause(5) == 4)  // the effect ← its action
    #expect(cause(6) == 5)  // the tick ← the effect that sent it
    #expect(cause(7) == 6)  // the change ← its action
    #expect(cause(9) == 8)  // the cancellation ← the other store's action (`by`)
    #expect(cause(4) == nil)  // sent by the program
    #expect(Self.seqs(model, model.consequences(of: model.index(ofSeq: 4)!)) == [5])
    #expect(Self.seqs(model, model.consequences(of: model.index(ofSeq: 8)!)) == [9])
  }

  @Test func storesAliveAndTheirActions() {
    let model = Self.model()
    #expect(model.stores(at: model.index(ofSeq: 9)!).map(\.id) == ["Page#1", "Page#2"])
    #expect(model.stores(at: model.index(ofSeq: 10)!).map(\.id) == ["Page#1"])
    #expect(model.stores(at: 0).isEmpty)
    #expect(model.nextAction(after: model.index(ofSeq: 4)!, store: "Page#2").map { model.event(at: $0).seq } == 6)
    #expect(model.nextAction(after: model.index(ofSeq: 6)!, store: "Page#2") == nil)
    #expect(model.previousAction(before: model.index(ofSeq: 9)!, store: "Page#2").map { model.event(at: $0).seq } == 6)
    #expect(model.lastIndex(atOrBefore: model.index(ofSeq: 9)!, store: "Page#1").map { model.event(at: $0).seq } == 8)
    #expect(model.lastIndex(atOrBefore: 5, store: nil).map { model.event(at: $0).seq } == 1)
    #expect(model.index(ofSeq: 11) == nil)
  }

  @Test func effectsRunningAtAnEvent() {
    let model = Self.model()
    #expect(model.runningEffects(of: "Page#2", at: model.index(ofSeq: 4)!).isEmpty)
    #expect(Self.seqs(model, model.runningEffects(of: "Page#2", at: model.index(ofSeq: 8)!)) == [5])
    #expect(model.runningEffects(of: "Page#2", at: model.index(ofSeq: 9)!).isEmpty)
  }

  @Test func sourcesByLine() {
    let model = Self.model()
    #expect(Self.seqs(model, model.indices(atLine: 63)) == [4, 8])
    #expect(Self.seqs(model, model.indices(atLine: 52)) == [5, 6, 9])
    #expect(model.namesSourcePath("/src/App/Pager.swift"))
    #expect(!model.namesSourcePath("/src/App/Other.swift"))
  }

  @Test func stateFromChangesAloneIsApproximate() {
    let model = Self.model()
    #expect(model.state(of: "Page#2", at: model.index(ofSeq: 6)!) == nil)
    let state = model.state(of: "Page#2", at: model.index(ofSeq: 7)!)
    #expect(state == RebuiltState(value: ["count": 1], approximate: true))
  }

  @Test func stateFromASnapshotAndScopedStoresChanges() throws {
    let model = SessionModel()
    let snapshot: JSONObject = ["store": "App#1", "cause": .null, "state": ["title": "a", "pages": [["id": 1, "count": 0], ["id": 2, "count": 0]]]]
    model.append(Event(seq: 1, time: 0, payload: .unknown(kind: "state.snapshot", fields: snapshot)))
    model.append(Event(seq: 2, time: 0, payload: .actionReceived(ActionReceived(store: "App#1/pages[id: 2]", action: "P.tick", value: "tick", origin: .send))))
    model.append(Event(seq: 3, time: 0, payload: .stateChanged(StateChanged(store: "App#1/pages[id: 2]", cause: 2, changes: [Change(path: "count", op: .replace, old: 0, new: 5)], summary: ""))))
    model.append(Event(seq: 4, time: 0, payload: .stateChanged(StateChanged(store: "App#1", cause: 2, changes: [Change(path: "title", op: .replace, old: "a", new: "b")], summary: ""))))
    #expect(model.state(of: "App#1", at: 0)?.value == ["title": "a", "pages": [["id": 1, "count": 0], ["id": 2, "count": 0]]])
    #expect(model.state(of: "App#1", at: 0)?.approximate == false)
    #expect(model.state(of: "App#1/pages[id: 2]", at: 2) == RebuiltState(value: ["id": 2, "count": 5], approximate: false))
    #expect(model.state(of: "App#1", at: 3)?.value == ["title": "b", "pages": [["id": 1, "count": 0], ["id": 2, "count": 5]]])
    #expect(model.state(of: "App#1/pages[id: 9]", at: 3) == nil)
  }

  @Test func checkpointsGiveTheSameStateWalkingBackAndForth() {
    let model = SessionModel()
    model.append(Event(seq: 1, time: 0, payload: .unknown(kind: "state.snapshot", fields: ["store": "C#1", "state": ["n": 0]])))
    let count = StateRebuilder.checkpointSpacing * 5 + 7
    for n in 1...count {
      model.append(Event(seq: 2 * n, time: 0, payload: .actionReceived(ActionReceived(store: "C#1", action: "C.inc", value: "inc", origin: .send))))
      model.append(Event(seq: 2 * n + 1, time: 0, payload: .stateChanged(StateChanged(store: "C#1", cause: 2 * n, changes: [Change(path: "n", op: .replace, old: .int(n - 1), new: .int(n))], summary: ""))))
    }
    for n in [count, 3, count - 1, StateRebuilder.checkpointSpacing, 1, count / 2, count] {
      #expect(model.state(of: "C#1", at: model.index(ofSeq: 2 * n + 1)!)?.value == ["n": .int(n)])
      #expect(model.state(of: "C#1", at: model.index(ofSeq: 2 * n)!)?.value == ["n": .int(n - 1)])
    }
  }

  @Test func aTraceFileReadsTheSameAsMemory() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("session-model-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("t.loupe").path
    var text = #"{"format":"loupe-trace","version":1,"program":"app","pid":1,"startedAt":"2026-01-01T00:00:00Z"}"# + "\n"
    for event in Self.events { text += event.jsonText + "\n" }
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    let file = try SessionModel(tracePath: path)
    let memory = Self.model()
    #expect(file.count == memory.count)
    for index in 0..<memory.count {
      #expect(file.event(at: index) == memory.event(at: index))
      #expect(file.cause(of: index) == memory.cause(of: index))
      #expect(file.eventJSON(at: index) == memory.eventJSON(at: index))
    }
    #expect(file.state(of: "Page#2", at: 6) == memory.state(of: "Page#2", at: 6))
    #expect(file.header?.program == "app")
  }

  @Test func notATrace() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("not-a-trace-\(UUID().uuidString).txt").path
    try "hello\n".write(toFile: path, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(atPath: path) }
    #expect(throws: TraceError.self) { try SessionModel(tracePath: path) }
  }
}
