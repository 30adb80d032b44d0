import Foundation
import Testing
import LoupeCore
@testable import LoupeSession

/// The session model's queries: events by range and filter, causes both ways, stores and
/// effects at a moment, states across snapshots, and a trace file read like memory.
@Suite struct SessionQueryTests {
  /// A root with a scoped child; an effect that sends an action, another that is cancelled
  /// by the child's action; a second snapshot.
  static let payloads: [Event.Payload] = [
    /* 1 */ .sessionStarted(SessionStarted(pid: 1, program: "T", startedAt: "2026-11-23T00:00:00.000Z")),
    /* 2 */ .storeCreated(StoreCreated(store: "App#1", type: "App", parent: nil, identity: "App#1")),
    /* 3 */ .stateSnapshot(StateSnapshot(store: "App#1", cause: nil, state: ["n": 0, "child": ["m": 0]])),
    /* 4 */ .storeCreated(StoreCreated(store: "App#1/child", type: "Child", parent: "App#1", identity: "c1")),
    /* 5 */ .actionReceived(ActionReceived(store: "App#1", action: "App.start", value: "start", origin: .send)),
    /* 6 */ .stateChanged(StateChanged(store: "App#1", cause: 5, changes: [Change(path: "n", op: .replace, old: 0, new: 1)], summary: "App#1: _n changed.")),
    /* 7 */ .effectStarted(EffectStarted(store: "App#1", effect: 1, cause: 5, cancelID: "timer")),
    /* 8 */ .effectStarted(EffectStarted(store: "App#1", effect: 2, cause: 5, cancelID: nil)),
    /* 9 */ .actionReceived(ActionReceived(store: "App#1", action: "App.tick", value: "tick", origin: .effect, effect: 2)),
    /* 10 */ .actionReceived(ActionReceived(store: "App#1/child", action: "Child.bump", value: "bump", origin: .parent)),
    /* 11 */ .stateChanged(StateChanged(store: "App#1/child", cause: 10, changes: [Change(path: "m", op: .replace, old: 0, new: 1)], summary: "App#1/child: _m changed.")),
    /* 12 */ .effectFinished(EffectFinished(store: "App#1", effect: 2, outcome: .completed)),
    /* 13 */ .actionReceived(ActionReceived(store: "App#1/child", action: "Child.stop", value: "stop", origin: .send)),
    /* 14 */ .effectCancelled(EffectCancelled(store: "App#1", effect: 1, cancelID: "timer", reason: .cancel, by: .init(store: "App#1/child", cause: 13))),
    /* 15 */ .identityChanged(IdentityChanged(store: "App#1/child", identity: "c2", previous: "c1", reason: .replaced)),
    /* 16 */ .stateSnapshot(StateSnapshot(store: "App#1", cause: 13, state: ["n": 1, "child": ["m": 7]])),
    /* 17 */ .storeDestroyed(StoreDestroyed(store: "App#1/child", identity: "c2")),
    /* 18 */ .mark(Mark(label: "end")),
  ]

  static func model() -> SessionModel {
    let model = SessionModel()
    for (offset, payload) in payloads.enumerated() {
      model.append(Event(seq: offset + 1, time: Double(offset * 10), payload: payload))
    }
    return model
  }

  func seqs(_ model: SessionModel, _ indices: [Int]) -> [Int] { indices.map { model.seq(at: $0) } }

  @Test func eventsBySeqRangeFilterAndLimit() {
    let model = Self.model()
    #expect(model.event(seq: 6)?.kind == "state.changed")
    #expect(model.event(seq: 99) == nil)
    let actions = model.events(from: 6, filter: EventFilter(kinds: [Glob("action.*")]))
    #expect(seqs(model, actions.indices) == [9, 10, 13])
    #expect(actions.nextSeq == nil)
    let limited = model.events(from: 1, through: 12, filter: EventFilter(stores: [Glob("App#1")]), limit: 3)
    #expect(seqs(model, limited.indices) == [1, 2, 3])
    #expect(limited.nextSeq == 5)
    #expect(seqs(model, model.events(from: 11, through: 12).indices) == [11, 12])
    #expect(seqs(model, model.indices(ofStore: "App#1/child")) == [4, 10, 11, 13, 15, 17])
    #expect(seqs(model, model.actionIndices(ofStore: "App#1")) == [5, 9])
  }

  /// A filter on stores decides other stores' events from the index, without reading them
  /// back: the pages are what the filter applied to every event gives, for filters on kinds,
  /// stores, actions and paths together, with `dropped` events (which every filter keeps) and
  /// events of no store among them.
  @Test func filteredPagesAreTheFilterAppliedToEveryEvent() {
    var events = TraceStateIndexTests.randomSession(seed: 9, count: 1_200)
    events.insert(Event(seq: 0, time: 0, payload: .dropped(Dropped(count: 3))), at: 0)
    events.append(Event(seq: 5_000, time: 1, payload: .mark(Mark(label: "end"))))
    events.append(Event(seq: 5_001, time: 2, payload: .dropped(Dropped(count: 1))))
    let model = SessionModel()
    for event in events { model.append(event) }
    let filters = [
      EventFilter(stores: [Glob("B#1")]),
      EventFilter(stores: [Glob("A#1/items*")]),
      EventFilter(kinds: [Glob("state.*")], stores: [Glob("A#1"), Glob("B#?")]),
      EventFilter(stores: [Glob("A#1")], actions: [Glob("A.Action.*")]),
      EventFilter(stores: [Glob("A#1*")], paths: [Glob("items*")]),
      EventFilter(kinds: [Glob("action.received")]),
      EventFilter(stores: [Glob("nobody")]),
    ]
    for filter in filters {
      let expected = (0..<model.count).filter { filter.matches(model.event(at: $0)) }
      #expect(model.events(filter: filter).indices == expected, "\(filter)")
      let from = model.seq(at: 400)
      let page = model.events(from: from, through: model.seq(at: 900), filter: filter, limit: 50)
      let window = expected.filter { $0 >= 400 && $0 <= 900 }
      #expect(page.indices == Array(window.prefix(50)), "\(filter)")
      #expect(page.nextSeq == (window.count > 50 ? model.seq(at: window[50]) : nil), "\(filter)")
    }
  }

  @Test func causesBothWays() {
    let model = Self.model()
    func cause(_ seq: Int) -> Int? { model.cause(of: model.index(ofSeq: seq)!).map { model.seq(at: $0) } }
    #expect(cause(6) == 5)  // a change: its action
    #expect(cause(7) == 5)  // an effect: its action
    #expect(cause(9) == 8)  // origin effect: the effect that sent it
    #expect(cause(10) == 9)  // origin parent: the parent's action
    #expect(cause(12) == 8)  // a finished effect: its start
    #expect(cause(14) == 13)  // a cancellation: the action that asked
    #expect(cause(16) == 13)  // a snapshot: the action after which it was taken
    #expect(cause(5) == nil)
    #expect(seqs(model, model.consequences(of: model.index(ofSeq: 5)!)) == [6, 7, 8])
    #expect(seqs(model, model.consequences(of: model.index(ofSeq: 8)!)) == [9, 12])
  }

  @Test func storesAliveWithTheirIdentityAtTheTime() {
    let model = Self.model()
    #expect(model.stores(at: model.index(ofSeq: 3)!) == [StoreInfo(id: "App#1", type: "App", parent: nil, identity: "App#1")])
    let atTen = model.stores(at: model.index(ofSeq: 10)!)
    #expect(atTen.map(\.id) == ["App#1", "App#1/child"])
    #expect(atTen.last?.identity == "c1")
    #expect(model.stores(at: model.index(ofSeq: 16)!).last?.identity == "c2")
    #expect(model.stores(at: model.index(ofSeq: 17)!).map(\.id) == ["App#1"])
  }

  @Test func effectsRunningAndEnded() {
    let model = Self.model()
    #expect(model.runningEffects(at: model.index(ofSeq: 8)!).map(\.effect) == [1, 2])
    #expect(model.runningEffects(at: model.index(ofSeq: 12)!).map(\.effect) == [1])
    #expect(model.runningEffects(at: model.index(ofSeq: 14)!).isEmpty)
    let ended = model.endedEffects(at: model.index(ofSeq: 18)!)
    #expect(ended.map(\.effect) == [1, 2])
    #expect(ended[0].end?.outcome == .cancelled(reason: .cancel, by: .init(store: "App#1/child", cause: 13)))
    #expect(ended[0].duration == 70)  // seq 7 at 60 ms, seq 14 at 130 ms
    #expect(ended[1].end?.outcome == .completed)
    #expect(ended[1].duration == 40)
    #expect(model.effect(1)?.cancelID == "timer")
    #expect(model.runningEffects(of: "App#1", at: model.index(ofSeq: 9)!) == [model.index(ofSeq: 7)!, model.index(ofSeq: 8)!])
  }

  @Test func statesAtAnySeqAcrossSnapshots() {
    let model = Self.model()
    #expect(model.state(of: "App#1", atSeq: 2) == nil)
    #expect(model.state(of: "App#1", atSeq: 3) == RebuiltState(value: ["n": 0, "child": ["m": 0]], approximate: false))
    #expect(model.state(of: "App#1", atSeq: 6)?.value == ["n": 1, "child": ["m": 0]])
    #expect(model.state(of: "App#1/child", atSeq: 11) == RebuiltState(value: ["m": 1], approximate: false))
    #expect(model.state(of: "App#1", atSeq: 11, path: "child.m")?.value == 1)
    // The second snapshot wins from its seq on (the program held 7; no change said so).
    #expect(model.state(of: "App#1/child", atSeq: 16)?.value == ["m": 7])
    #expect(model.snapshotSeq(of: "App#1/child", atOrBefore: model.index(ofSeq: 15)!) == 3)
    #expect(model.snapshotSeq(of: "App#1/child", atOrBefore: model.index(ofSeq: 16)!) == 16)
    #expect(model.rootStoresWithState == ["App#1"])
  }

  @Test func aTraceFileAnswersLikeMemory() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("session-query-\(UUID().uuidString).loupe").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    let memory = Self.model()
    var text = #"{"format":"loupe-trace","version":1,"program":"T","pid":1,"startedAt":"2026-11-23T00:00:00.000Z"}"# + "\n"
    for index in 0..<memory.count { text += memory.event(at: index).jsonText + "\n" }
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    let file = try SessionModel(tracePath: path)
    #expect(file.count == memory.count)
    for index in 0..<memory.count {
      #expect(file.event(at: index) == memory.event(at: index))
      #expect(file.cause(of: index) == memory.cause(of: index))
      #expect(file.state(of: "App#1", at: index) == memory.state(of: "App#1", at: index))
    }
    #expect(file.endedEffects(at: file.count - 1) == memory.endedEffects(at: memory.count - 1))
  }

  @Test func aReplayedDuplicateIsIgnored() {
    let model = Self.model()
    model.append(Event(seq: 18, time: 0, payload: .mark(Mark(label: "again"))))
    #expect(model.count == Self.payloads.count)
  }
}
