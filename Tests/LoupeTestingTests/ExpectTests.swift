import LoupeTesting
import Testing

/// `expect`: ordered expectations, exhaustive by default, with −/+ failures.
@MainActor
@Suite struct ExpectTests {
  typealias TimerStore = Store<TimerFeature.State, TimerFeature.Action>

  /// A timer store that has ticked twice (events #2…#10).
  func tickedTwice() async -> (DiagnosticRecorder, TimerStore) {
    let recorder = DiagnosticRecorder()
    let clock = TestClock()
    let store = recorder.store(initialState: TimerFeature.State(), clock: clock) { TimerFeature() }
    store.send(.startTapped)
    await clock.advance(by: .seconds(2))
    return (recorder, store)
  }

  @Test func theWholeStreamPasses() async {
    let (recorder, store) = await tickedTwice()
    store.send(.stopTapped)
    recorder.expect([
      .identityChanged("TimerFeature#1", identity: "i1", reason: .created),
      .storeCreated("TimerFeature#1", type: "TimerFeature"),
      .action("TimerFeature.Action.startTapped", store: "TimerFeature#1", origin: .send),
      .stateChanged(store: "TimerFeature#1", paths: ["isRunning"], summary: "TimerFeature#1: _isRunning changed."),
      .effectStarted(store: "TimerFeature#1", cancelID: "TimerFeature.CancelID.timer", effect: 1),
      .action("tick", origin: .effect, effect: 1),
      .stateChanged(changes: [.replace("ticks", from: 0, to: 1)]),
      .action("TimerFeature.Action.*", origin: .effect),
      .stateChanged(changes: [.replace("ticks", to: 2)]),
      .action(TimerFeature.Action.stopTapped, store: "Timer*"),
      .stateChanged(paths: ["is*"]),
      .effectCancelled(store: "TimerFeature#1", cancelID: "timer", reason: .cancel, by: "TimerFeature#1", effect: 1),
    ])
  }

  @Test func aMissingAndAnUnexpectedEventShowAsMinusAndPlus() async {
    let (recorder, store) = await tickedTwice()
    defer { store.send(.stopTapped) }
    let line = #line + 2
    let failures = capturingIssues {
      recorder.expect([
        .identityChanged("TimerFeature#1", reason: .created),
        .storeCreated("TimerFeature#1"),
        .action(TimerFeature.Action.startTapped),
        .stateChanged(changes: [.replace("isRunning", from: false, to: true)]),
        .effectStarted(cancelID: "stopwatch"),
        .action(TimerFeature.Action.tick, origin: .effect),
        .stateChanged(changes: [.replace("ticks", from: 0, to: 1)]),
        .action(TimerFeature.Action.tick, origin: .effect),
        .stateChanged(changes: [.replace("ticks", from: 1, to: 2)]),
      ])
    }
    #expect(failures == [CapturedFailure(message: """
      The stream does not match the expected events: 1 expected event did not happen, 1 unexpected event happened.

          … (2 events)
          #4 action.received TimerFeature#1 action: TimerFeature.Action.startTapped, origin: send, source: ExpectTests.swift:14
          #5 state.changed TimerFeature#1 changes: [isRunning: false → true]
        − effect.started cancelID: stopwatch
        + #6 effect.started TimerFeature#1 effect: 1, cause: #4, cancelID: TimerFeature.CancelID.timer, source: TimerFeature.swift:20
          #7 action.received TimerFeature#1 action: TimerFeature.Action.tick, origin: effect, effect: 1, source: TimerFeature.swift:20
          #8 state.changed TimerFeature#1 changes: [ticks: 0 → 1]
          … (2 events)

      (Expected: −, Actual: +)

      Exhaustivity is on: expect every event, narrow what is checked (kinds:, stores:), or turn exhaustivity off.
      """, line: line)])
  }

  @Test func eventsNobodyExpectedFailAnExhaustiveExpect() async {
    let (recorder, store) = await tickedTwice()
    defer { store.send(.stopTapped) }
    let line = #line + 2
    let failures = capturingIssues {
      recorder.expect([
        .action(TimerFeature.Action.startTapped),
        .effectStarted(cancelID: "timer"),
        .action(TimerFeature.Action.tick, origin: .effect),
      ], kinds: ["action.received", "effect.*"])
    }
    #expect(failures == [CapturedFailure(message: """
      The stream does not match the expected events: 1 unexpected event happened.

          #4 action.received TimerFeature#1 action: TimerFeature.Action.startTapped, origin: send, source: ExpectTests.swift:14
          #6 effect.started TimerFeature#1 effect: 1, cause: #4, cancelID: TimerFeature.CancelID.timer, source: TimerFeature.swift:20
          #7 action.received TimerFeature#1 action: TimerFeature.Action.tick, origin: effect, effect: 1, source: TimerFeature.swift:20
        + #9 action.received TimerFeature#1 action: TimerFeature.Action.tick, origin: effect, effect: 1, source: TimerFeature.swift:20

      (Expected: −, Actual: +)

      Exhaustivity is on: expect every event, narrow what is checked (kinds:, stores:), or turn exhaustivity off.
      """, line: line)])
  }

  @Test func aWrongPayloadIsAMismatch() async {
    let recorder = DiagnosticRecorder()
    let page = recorder.store(initialState: PageFeature.State(id: 1)) { PageFeature() }
    recorder.skipEvents()
    page.send(.selected(true))
    let line = #line + 2
    let failures = capturingIssues {
      recorder.expect([
        .action(PageFeature.Action.selected(false)),
        .stateChanged(store: "PageFeature#1", changes: [.replace("isSelected", from: true, to: false)]),
      ])
    }
    #expect(failures == [CapturedFailure(message: """
      The stream does not match the expected events: 2 expected events did not happen, 2 unexpected events happened.

        − action.received action: PageFeature.Action.selected, value: .selected(false)
        − state.changed PageFeature#1 changes: [isSelected: true → false]
        + #4 action.received PageFeature#1 action: PageFeature.Action.selected, value: .selected(true), origin: send, source: ExpectTests.swift:102
        + #5 state.changed PageFeature#1 changes: [isSelected: false → true]

      (Expected: −, Actual: +)

      Exhaustivity is on: expect every event, narrow what is checked (kinds:, stores:), or turn exhaustivity off.
      """, line: line)])
  }

  @Test func eachExpectLooksAtTheEventsSinceThePreviousOne() async {
    let recorder = DiagnosticRecorder()
    let clock = TestClock()
    let store = recorder.store(initialState: TimerFeature.State(), clock: clock) { TimerFeature() }
    store.send(.startTapped)
    recorder.expect([.action("startTapped"), .effectStarted()], kinds: ["action.*", "effect.*"])
    await clock.advance(by: .seconds(1))
    recorder.expect([.action("tick"), .stateChanged(paths: ["ticks"])])
    store.send(.stopTapped)
    recorder.expect([.action("stopTapped"), .stateChanged(), .effectCancelled()])
    recorder.expect([])
  }

  @Test func nonExhaustiveExpectationsNeedOnlyHappenInOrder() async {
    let (recorder, store) = await tickedTwice()
    recorder.exhaustivity = .off
    recorder.expect([.effectStarted(cancelID: "timer"), .action("tick")])
    // The cursor is after the first tick: the second one is next.
    recorder.expect([.action("tick"), .stateChanged(changes: [.replace("ticks", from: 1, to: 2)])])
    store.send(.stopTapped)
    let line = #line + 2
    let failures = capturingIssues {
      recorder.expect([.action("stopTapped"), .effectFinished(), .stateChanged()])
    }
    #expect(failures == [CapturedFailure(message: """
      The stream does not match the expected events: 1 expected event did not happen in this order (exhaustivity is off: the events in between are not checked).

          #11 action.received TimerFeature#1 action: TimerFeature.Action.stopTapped, origin: send, source: ExpectTests.swift:143
        − effect.finished
          #12 state.changed TimerFeature#1 changes: [isRunning: true → false]
          #13 effect.cancelled TimerFeature#1 effect: 1, cancelID: TimerFeature.CancelID.timer, reason: cancel, by: TimerFeature#1 (#11, TimerFeature.swift:28)

      (Expected: −, Actual: +)
      """, line: line)])
  }

  @Test func anExpectationForAnEmptyStreamShowsOnlyWhatWasExpected() {
    let recorder = DiagnosticRecorder()
    let line = #line + 2
    let failures = capturingIssues {
      recorder.expect([.mark("ready")], exhaustivity: .off)
    }
    #expect(failures == [CapturedFailure(message: """
      The stream does not match the expected events: 1 expected event did not happen in this order (exhaustivity is off: the events in between are not checked).

        − mark label: ready

      (Expected: −, Actual: +)
      """, line: line)])
  }

  @Test func expectationsPrintTheFieldsTheyCheck() {
    #expect(EventExpectation.action("PageFeature.Action.timerTicked", store: "PageFeature#1").description
      == "action.received PageFeature#1 action: PageFeature.Action.timerTicked")
    #expect(EventExpectation.action(PageFeature.Action.timerTicked, origin: .effect, effect: 3).description
      == "action.received action: PageFeature.Action.timerTicked, origin: effect, effect: 3")
    #expect(EventExpectation.action(store: "App#1/*").description == "action.received App#1/*")
    #expect(EventExpectation.stateChanged(paths: ["count", "pages[id: *]"]).description
      == "state.changed paths: [count, pages[id: *]]")
    #expect(EventExpectation.stateChanged(changes: [.replace("count", from: 0, to: 1), .insert("todos[id: 3]", ["id": 3]), .remove("x"), .changed("y")]).description
      == "state.changed changes: [count: 0 → 1, todos[id: 3]: inserted {id: 3}, x: removed, y]")
    #expect(EventExpectation.effectCancelled(cancelID: "timer", reason: .cancelInFlight, by: "PageFeature#2").description
      == "effect.cancelled cancelID: timer, reason: cancelInFlight, by: PageFeature#2")
    #expect(EventExpectation.effectFinished(store: "A#1", outcome: .failed).description == "effect.finished A#1 outcome: failed")
    #expect(EventExpectation.identityChanged("A#1/detail", previous: "i2", reason: .replaced).description
      == "identity.changed A#1/detail previous: i2, reason: replaced")
    #expect(EventExpectation.derivedRecomputed("visible", outputChanged: false).description
      == "derived.recomputed derived: visible, outputChanged: false")
    #expect(EventExpectation.event(kind: "effect.*", store: "A#1").description == "effect.* A#1")
    #expect(EventExpectation.warning(code: "sendToEndedStore").description == "warning code: sendToEndedStore")
    #expect(EventExpectation.dropped(count: 2).description == "dropped count: 2")
  }

  @Test func aStreamBuiltByHandTakesTheSameAssertions() {
    let stream = RecordedTrace(events: [
      Event(seq: 1, time: 0, payload: .mark(Mark(label: "start"))),
      Event(seq: 2, time: 1, payload: .effectStarted(EffectStarted(store: "A#1", effect: 7, cause: 1, cancelID: "load"))),
      Event(seq: 3, time: 2, payload: .effectFinished(EffectFinished(store: "A#1", effect: 7, outcome: .failed, error: "offline"))),
    ])
    stream.expect([.mark("start"), .effectStarted(store: "A#1", cancelID: "load"), .effectFinished(effect: 7, outcome: .failed)])
    stream.assertNoEffectLeftRunning()
    #expect(stream.timeline == """
      #1 mark label: start
      #2 effect.started A#1 effect: 7, cause: #1, cancelID: load
      #3 effect.finished A#1 effect: 7, outcome: failed, error: offline
      """)
  }

  @Test func aChangedPathMatchesFromTheRootStoreToo() {
    let event = Event(seq: 1, time: 0, payload: .stateChanged(StateChanged(
      store: "AppFeature#1/pages[id: 2]", cause: 1, changes: [Change(path: "count", op: .replace, old: 0, new: 1)],
      summary: "PageFeature#2: _count changed.")))
    #expect(EventExpectation.stateChanged(paths: ["count"]).matches(event))
    #expect(EventExpectation.stateChanged(paths: ["pages*.count"]).matches(event))
    #expect(EventExpectation.stateChanged(changes: [.replace("pages[id: 2].count", from: 0, to: 1)]).matches(event))
    #expect(!EventExpectation.stateChanged(paths: ["pages[id: 1].count"]).matches(event))
  }

  @Test func aPatternWithoutADotNamesTheCaseAlone() {
    let event = Event(seq: 1, time: 0, payload: .effectCancelled(EffectCancelled(
      store: "PageFeature#1", effect: 1, cancelID: "PageFeature.CancelID.timer", reason: .cancel, by: nil)))
    #expect(EventExpectation.effectCancelled(cancelID: "timer").matches(event))
    #expect(EventExpectation.effectCancelled(cancelID: "PageFeature.CancelID.timer").matches(event))
    #expect(EventExpectation.effectCancelled(cancelID: "*.timer").matches(event))
    #expect(!EventExpectation.effectCancelled(cancelID: "CancelID.timer").matches(event))
    #expect(!EventExpectation.effectCancelled(cancelID: "tim").matches(event))
    // `by` names a store; a cancellation by no store matches no `by` pattern.
    #expect(!EventExpectation.effectCancelled(by: "*").matches(event))
  }
}
