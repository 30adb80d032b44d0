import Testing
@testable import LoupeCore

/// Every kind's exact JSON, and that decoding it gives the event back.
@Suite struct EventCodingTests {
  static let goldens: [(Event.Payload, String)] = [
    (.sessionStarted(SessionStarted(pid: 42, program: "MyApp", startedAt: "2026-11-22T10:00:00.000Z")),
     #""kind":"session.started","pid":42,"program":"MyApp","protocolVersion":"1","startedAt":"2026-11-22T10:00:00.000Z""#),
    (.storeCreated(StoreCreated(store: "AppFeature#1/pages[id: 2]", type: "PageFeature", parent: "AppFeature#1", identity: "i7")),
     #""kind":"store.created","store":"AppFeature#1/pages[id: 2]","type":"PageFeature","parent":"AppFeature#1","identity":"i7""#),
    (.storeCreated(StoreCreated(store: "PageFeature#1", type: "PageFeature", parent: nil, identity: "i1")),
     #""kind":"store.created","store":"PageFeature#1","type":"PageFeature","parent":null,"identity":"i1""#),
    (.storeDestroyed(StoreDestroyed(store: "PageFeature#1", identity: "i1")),
     #""kind":"store.destroyed","store":"PageFeature#1","identity":"i1""#),
    (.identityChanged(IdentityChanged(store: "A#1/child", identity: "i9", previous: "i4", reason: .presented)),
     #""kind":"identity.changed","store":"A#1/child","identity":"i9","previous":"i4","reason":"presented""#),
    (.identityChanged(IdentityChanged(store: "A#1", identity: "i1", previous: nil, reason: .created)),
     #""kind":"identity.changed","store":"A#1","identity":"i1","previous":null,"reason":"created""#),
    (.actionReceived(ActionReceived(store: "PageFeature#2", action: "PageFeature.Action.timerTicked", value: "timerTicked", origin: .effect, effect: 3)),
     #""kind":"action.received","store":"PageFeature#2","action":"PageFeature.Action.timerTicked","value":"timerTicked","origin":"effect","effect":3"#),
    (.actionReceived(ActionReceived(store: "P#1", action: "P.Action.set", value: ["set": 3], origin: .send)),
     #""kind":"action.received","store":"P#1","action":"P.Action.set","value":{"set":3},"origin":"send""#),
    (.actionReceived(ActionReceived(
      store: "A#1", action: "A.Action.rows", value: ["rows": ["element": ["id": 1, "action": "startTapped"]]], origin: .send,
      shape: ValueShape(enums: ["", "rows", "rows.element.action"], tuples: ["rows.element"]))),
     #""kind":"action.received","store":"A#1","action":"A.Action.rows","value":{"rows":{"element":{"id":1,"action":"startTapped"}}},"origin":"send","shape":{"enums":["","rows","rows.element.action"],"tuples":["rows.element"]}"#),
    (.stateChanged(StateChanged(store: "P#1", cause: 2, changes: [
      Change(path: "mode", op: .replace, old: "idle", new: ["loading": ["progress": 0.5]],
             oldShape: ValueShape(enums: [""]), newShape: ValueShape(enums: [""], tuples: ["loading"])),
      Change(path: "rows[id: 3]", op: .insert, new: ["id": 3, "mode": "idle"], index: 1, newShape: ValueShape(enums: ["mode"])),
    ], summary: "P#1: _mode, _rows changed.")),
     #""kind":"state.changed","store":"P#1","cause":2,"changes":[{"path":"mode","op":"replace","old":"idle","new":{"loading":{"progress":0.5}},"oldShape":{"enums":[""]},"newShape":{"enums":[""],"tuples":["loading"]}},{"path":"rows[id: 3]","op":"insert","new":{"id":3,"mode":"idle"},"index":1,"newShape":{"enums":["mode"]}}],"summary":"P#1: _mode, _rows changed.""#),
    (.stateSnapshot(StateSnapshot(store: "P#1", cause: 2, state: ["rows": [["mode": "idle"]]], shape: ValueShape(enums: ["rows[*].mode"]))),
     #""kind":"state.snapshot","store":"P#1","cause":2,"state":{"rows":[{"mode":"idle"}]},"shape":{"enums":["rows[*].mode"]}"#),
    (.stateChanged(StateChanged(store: "PageFeature#2", cause: 5, changes: [
      Change(path: "count", op: .replace, old: 1, new: 2),
      Change(path: "results[id: 4]", op: .insert, new: ["id": 4], index: 0),
      Change(path: "results[0]", op: .remove, old: "x"),
    ], summary: "PageFeature#2: _count, _results changed.")),
     #""kind":"state.changed","store":"PageFeature#2","cause":5,"changes":[{"path":"count","op":"replace","old":1,"new":2},{"path":"results[id: 4]","op":"insert","new":{"id":4},"index":0},{"path":"results[0]","op":"remove","old":"x"}],"summary":"PageFeature#2: _count, _results changed.""#),
    (.stateSnapshot(StateSnapshot(store: "AppFeature#1", cause: nil, state: ["theme": "light", "pages": [["id": 1, "count": 0]]])),
     #""kind":"state.snapshot","store":"AppFeature#1","cause":null,"state":{"theme":"light","pages":[{"id":1,"count":0}]}"#),
    (.stateSnapshot(StateSnapshot(store: "Todos#1", cause: 1204, state: ["todos": ["…"]], truncated: true)),
     #""kind":"state.snapshot","store":"Todos#1","cause":1204,"state":{"todos":["…"]},"truncated":true"#),
    (.effectStarted(EffectStarted(store: "PageFeature#2", effect: 3, cause: 5, cancelID: "timer")),
     #""kind":"effect.started","store":"PageFeature#2","effect":3,"cause":5,"cancelID":"timer""#),
    (.effectStarted(EffectStarted(store: "P#1", effect: 4, cause: 6, cancelID: nil)),
     #""kind":"effect.started","store":"P#1","effect":4,"cause":6,"cancelID":null"#),
    (.effectFinished(EffectFinished(store: "P#1", effect: 4, outcome: .completed)),
     #""kind":"effect.finished","store":"P#1","effect":4,"outcome":"completed""#),
    (.effectFinished(EffectFinished(store: "P#1", effect: 4, outcome: .failed, error: "URLError(-1009)")),
     #""kind":"effect.finished","store":"P#1","effect":4,"outcome":"failed","error":"URLError(-1009)""#),
    (.effectCancelled(EffectCancelled(store: "PageFeature#1", effect: 3, cancelID: "timer", reason: .cancelInFlight, by: .init(store: "PageFeature#2", cause: 9))),
     #""kind":"effect.cancelled","store":"PageFeature#1","effect":3,"cancelID":"timer","reason":"cancelInFlight","by":{"store":"PageFeature#2","cause":9}"#),
    (.effectCancelled(EffectCancelled(store: "P#1", effect: 3, cancelID: nil, reason: .storeDestroyed, by: nil)),
     #""kind":"effect.cancelled","store":"P#1","effect":3,"cancelID":null,"reason":"storeDestroyed","by":null"#),
    (.derivedRecomputed(DerivedRecomputed(store: "Todos#1", derived: "visibleTodos", cause: 12, outputChanged: false, durationNs: 1500)),
     #""kind":"derived.recomputed","store":"Todos#1","derived":"visibleTodos","cause":12,"outputChanged":false,"durationNs":1500"#),
    (.derivedRecomputed(DerivedRecomputed(store: "Todos#1", derived: "count", cause: nil, outputChanged: true, durationNs: 10)),
     #""kind":"derived.recomputed","store":"Todos#1","derived":"count","cause":null,"outputChanged":true,"durationNs":10"#),
    (.mark(Mark(label: "swipe to page 2")), #""kind":"mark","label":"swipe to page 2""#),
    (.dropped(Dropped(count: 17)), #""kind":"dropped","count":17"#),
    (.warning(Warning(code: "sendToEndedStore", message: "m", store: "A#1/child")),
     #""kind":"warning","code":"sendToEndedStore","message":"m","store":"A#1/child""#),
    (.unknown(kind: "future.kind", fields: ["x": [1, 2], "store": "S#1"]), #""kind":"future.kind","x":[1,2],"store":"S#1""#),
  ]

  @Test func goldenJSONAndRoundTrip() throws {
    for (payload, body) in Self.goldens {
      let event = Event(seq: 7, time: 12.5, payload: payload)
      let expected = #"{"seq":7,"time":12.5,"# + body + "}"
      #expect(event.jsonText == expected)
      #expect(try Event(jsonText: Array(expected.utf8)) == event)
    }
  }

  @Test func everyKnownKindHasAGolden() {
    let covered = Set(Self.goldens.map { $0.0.kind })
    for kind in Event.knownKinds { #expect(covered.contains(kind), "no golden for \(kind)") }
  }

  @Test func unknownFieldsAreIgnored() throws {
    let text = #"{"seq":1,"time":0,"kind":"mark","label":"x","color":"red"}"#
    #expect(try Event(jsonText: Array(text.utf8)).payload == .mark(Mark(label: "x")))
  }

  @Test func storeAccessor() {
    #expect(Event(seq: 1, time: 0, payload: .unknown(kind: "k", fields: ["store": "S#1"])).store == "S#1")
    #expect(Event(seq: 1, time: 0, payload: .mark(Mark(label: "x"))).store == nil)
  }

  @Test(arguments: [
    (#"[]"#, "An event must be a JSON object, not array"),
    (#"{"seq":1,"time":0}"#, "field 'kind' must be a string (missing)"),
    (#"{"seq":"1","time":0,"kind":"mark","label":"x"}"#, "mark: field 'seq' must be an integer (found string)"),
    (#"{"seq":1,"time":0,"kind":"mark"}"#, "mark: field 'label' must be a string (missing)"),
    (#"{"seq":1,"time":0,"kind":"effect.finished","store":"s","effect":1,"outcome":"exploded"}"#,
     "effect.finished: field 'outcome' is 'exploded', expected one of 'completed', 'failed'"),
    (#"{"seq":1,"time":0,"kind":"state.changed","store":"s","cause":1,"changes":[1],"summary":""}"#,
     "state.changed: changes[0] must be an object"),
    (#"{"seq":1,"#, "Invalid JSON: Unterminated object at byte 9"),
    (#"{"seq":1,"time":0,"kind":"action.received","store":"s","action":"a","value":"a","origin":"send","shape":{"enums":[1]}}"#,
     "action.received: field 'shape' must be an object of string arrays 'enums' and 'tuples' (found object)"),
    // The names of nested objects, spelled out only once a message is made.
    (#"{"seq":1,"time":0,"kind":"state.changed","store":"s","cause":1,"changes":[{"path":"a","op":"replace"},{"path":"b","op":"swap"}],"summary":""}"#,
     "state.changed changes[1]: field 'op' is 'swap', expected one of 'replace', 'insert', 'remove'"),
    (#"{"seq":1,"time":0,"kind":"effect.cancelled","store":"s","effect":1,"reason":"explicit","by":{"store":"t","cause":2,"source":{"file":"F.swift"}}}"#,
     "effect.cancelled by source: field 'line' must be an integer (missing)"),
    (#"{"seq":1,"time":0,"kind":"derived.recomputed","store":"s","derived":"d","outputChanged":true,"durationNs":1,"source":{"file":7,"line":1}}"#,
     "derived.recomputed source: field 'file' must be a string (found number)"),
  ])
  func decodingErrors(text: String, message: String) {
    #expect(throws: EventDecodingError(message)) { try Event(jsonText: Array(text.utf8)) }
  }
}

@Suite struct EventBusTests {
  final class Collect: EventSink, @unchecked Sendable {
    var events: [Event] = []  // only touched from the test's thread
    func receive(_ event: Event) { events.append(event) }
  }

  @Test func sequencingAndSessionStart() {
    let bus = EventBus(program: "T", pid: 9)
    #expect(!bus.isActive)
    #expect(bus.emit(.mark(Mark(label: "lost"))) == 0)
    let sink = Collect()
    bus.attach(sink)
    #expect(bus.isActive)
    let seq = bus.emit(.mark(Mark(label: "a")))
    #expect(seq == 2)
    #expect(sink.events.map(\.kind) == ["session.started", "mark"])
    #expect(sink.events.map(\.seq) == [1, 2])
    #expect(sink.events[1].time >= sink.events[0].time)
    guard case .sessionStarted(let started) = sink.events[0].payload else { Issue.record("no session.started"); return }
    #expect(started.pid == 9 && started.program == "T" && started.protocolVersion == "1")
    bus.detach(sink)
    #expect(!bus.isActive)
    #expect(bus.nextEffectID() == 1 && bus.nextEffectID() == 2)
  }

  /// Every sink gets every event whole, the last one too (it is handed the bus's own event,
  /// moved, where the others get copies).
  @Test func everySinkReceivesTheSameEvents() {
    let bus = EventBus(program: "T", pid: 9)
    let sinks = [Collect(), Collect(), Collect()]
    for sink in sinks { bus.attach(sink) }
    bus.emit(.mark(Mark(label: "a long label, so that the event holds a string on the heap")))
    let change = Change(path: "count", op: .replace, old: 1, new: 2)
    bus.emit(.stateChanged(StateChanged(store: "S#1", cause: 2, changes: [change], summary: "S#1: _count changed.")))
    // The first sink attached also saw `session.started`.
    #expect(sinks[0].events.map(\.kind) == ["session.started", "mark", "state.changed"])
    #expect(sinks[1].events == Array(sinks[0].events.dropFirst()))
    #expect(sinks[2].events == Array(sinks[0].events.dropFirst()))
    guard case .stateChanged(let changed)? = sinks[2].events.last?.payload else { Issue.record("no state.changed"); return }
    #expect(changed.changes == [change])
  }
}
