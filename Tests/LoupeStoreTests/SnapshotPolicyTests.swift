import Loupe
import Testing

/// `state.snapshot` (CONTRACT §10) and its policy (`SnapshotPolicy`, protocol/events.md):
/// the initial one with the store's creation, then every 1,000 actions of a root store or
/// once the changes since the last one hold 1 MiB, whichever comes first.
@MainActor
@Suite struct SnapshotPolicyTests {
  @Test func theDefaultPolicyIsAThousandActionsOrOneMebibyte() {
    #expect(SnapshotPolicy.default.actions == 1_000)
    #expect(SnapshotPolicy.default.bytes == 1_048_576)
    #expect(SnapshotPolicy.default.isEnabled)
    #expect(EventBus().snapshotPolicy == .default)
    #expect(!SnapshotPolicy.off.isEnabled)
  }

  @Test func aRootStoreSnapshotsItsInitialStateRightAfterItsCreation() {
    let (bus, recorder) = makeSession(snapshots: .default)
    let store = Store(initialState: Counter.State(count: 7), bus: bus) { Counter() }
    defer { withExtendedLifetime(store) {} }
    #expect(recorder.lines == [
      "2 identity.changed Counter#1 i1 created",
      "3 store.created Counter#1 type=Counter parent=- i1",
      #"4 state.snapshot Counter#1 cause=- {"count":7,"label":"count"}"#,
    ])
  }

  @Test func theThousandthActionIsFollowedByASnapshotAfterItsChanges() {
    let (bus, recorder) = makeSession(snapshots: .default)
    let store = Store(initialState: Counter.State(), bus: bus) { Counter() }
    for _ in 0..<999 { store.send(.increment) }
    #expect(snapshots(recorder).count == 1)
    _ = recorder.take()
    store.send(.noop)  // an action that changes nothing counts too
    #expect(recorder.take() == [
      "2003 action.received Counter#1 Counter.Action.noop send",
      #"2004 state.snapshot Counter#1 cause=2003 {"count":999,"label":"count"}"#,
    ])
    for _ in 0..<999 { store.send(.increment) }
    #expect(snapshots(recorder).count == 2)
    store.send(.increment)
    #expect(recorder.take().suffix(3) == [
      "4003 action.received Counter#1 Counter.Action.increment send",
      #"4004 state.changed Counter#1 cause=4003 [count: 1998 → 1999] "Counter#1: _count changed.""#,
      #"4005 state.snapshot Counter#1 cause=4003 {"count":1999,"label":"count"}"#,
    ])
  }

  @Test func actionsOfScopedStoresCountForTheirRootAndItsSnapshotHoldsThem() throws {
    let (bus, recorder) = makeSession(snapshots: SnapshotPolicy(actions: 2))
    let store = Store(initialState: ContentFeature.State(), bus: bus) { ContentFeature() }
    let child = try #require(store.scope(state: \.playButton, action: CasePath(ContentFeature.Action.playButton)))
    child.send(.tapped)
    #expect(snapshots(recorder).count == 1)
    store.send(.toggleTapped)
    let all = snapshots(recorder)
    #expect(all.map(\.store) == ["ContentFeature#1", "ContentFeature#1"])
    #expect(all.map(\.state.jsonText) == [
      #"{"showPlayButton":true,"playButton":{"isPlaying":false}}"#,
      #"{"showPlayButton":false,"playButton":null}"#,
    ])
    #expect(all.last?.cause == seqOfLastAction(recorder))
  }

  @Test func changesPastTheByteThresholdTriggerASnapshotBeforeTheActionCount() {
    // Each append inserts a 4,000-character string: 64 (a change) + 24 + 4,000 + 48 (its
    // value, ``EventMemory``) = 4,136 bytes; 253 of them hold 1,046,408 bytes, 254 hold
    // 1,050,544 ≥ 1 MiB.
    let (bus, recorder) = makeSession(snapshots: .default)
    let store = Store(initialState: Lines.State(), bus: bus) { Lines() }
    let line = String(repeating: "x", count: 4_000)
    for _ in 0..<253 { store.send(.append(line)) }
    #expect(snapshots(recorder).count == 1)
    store.send(.append(line))
    let all = snapshots(recorder)
    #expect(all.count == 2)
    #expect(all.last?.cause == seqOfLastAction(recorder))
    #expect(all.last?.state["lines"]?.arrayValue?.count == 254)
    #expect(all.last?.truncated == false)
  }

  @Test func aSmallerPolicyCountsBytesExactly() {
    // `text` from "" to "abcdefghijklmnopq" (17 bytes, kept out of line): 64 (a change) + 24
    // (the old value) + 24 + 17 + 48 (the new one) = 177 bytes; back to "": 177 bytes again.
    let (bus, recorder) = makeSession(snapshots: SnapshotPolicy(actions: 0, bytes: 355))
    let store = Store(initialState: Lines.State(), bus: bus) { Lines() }
    store.send(.setText("abcdefghijklmnopq"))
    store.send(.setText(""))
    #expect(snapshots(recorder).count == 1, "354 bytes: one short of the threshold")
    store.send(.setText("abcdefghijklmnopq"))
    #expect(snapshots(recorder).count == 2)
    store.send(.setText(""))
    #expect(snapshots(recorder).count == 2, "counting starts again after a snapshot")
  }

  @Test func aStateCutShortByACapIsSnapshottedAsTruncated() {
    let (bus, recorder) = makeSession(snapshots: .default)
    var state = Lines.State()
    state.lines = (0..<1_001).map(String.init)
    _ = Store(initialState: state, bus: bus) { Lines() }
    let snapshot = snapshots(recorder).first
    #expect(snapshot?.truncated == true)
    #expect(snapshot?.state["lines"]?.arrayValue?.last == "… 1 more")
  }

  @Test func withSnapshotsOffNoneIsEmitted() {
    let (bus, recorder) = makeSession(snapshots: .off)
    let store = Store(initialState: Counter.State(), bus: bus) { Counter() }
    for _ in 0..<1_000 { store.send(.increment) }
    #expect(snapshots(recorder).isEmpty)
  }

  @Test func aSinkAttachedAfterTheStoreWasCreatedGetsASnapshotBeforeTheNextAction() {
    let bus = EventBus(program: "test", pid: 1)
    let store = Store(initialState: Counter.State(count: 3), bus: bus) { Counter() }
    store.send(.increment)
    let recorder = EventRecorder()
    bus.attach(recorder)
    store.send(.increment)
    store.send(.increment)
    #expect(recorder.lines == [
      #"2 state.snapshot Counter#1 cause=- {"count":4,"label":"count"}"#,
      "3 action.received Counter#1 Counter.Action.increment send",
      #"4 state.changed Counter#1 cause=3 [count: 4 → 5] "Counter#1: _count changed.""#,
      "5 action.received Counter#1 Counter.Action.increment send",
      #"6 state.changed Counter#1 cause=5 [count: 5 → 6] "Counter#1: _count changed.""#,
    ])
    // A second sink attached later: one more snapshot, which both sinks see.
    let second = EventRecorder()
    bus.attach(second)
    store.send(.decrement)
    #expect(second.lines.first == #"7 state.snapshot Counter#1 cause=- {"count":6,"label":"count"}"#)
    #expect(snapshots(recorder).count == 2)
  }

  private func snapshots(_ recorder: EventRecorder) -> [StateSnapshot] {
    recorder.events.compactMap { if case .stateSnapshot(let e) = $0.payload { e } else { nil } }
  }

  private func seqOfLastAction(_ recorder: EventRecorder) -> Int {
    recorder.events.last { $0.kind == ActionReceived.kind }!.seq
  }
}

/// Lines of text, for the byte threshold.
struct Lines: Reducer {
  struct State: Equatable {
    var lines: [String] = []
    var text = ""
  }
  enum Action: Equatable {
    case append(String)
    case setText(String)
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .append(let line): state.lines.append(line)
    case .setText(let text): state.text = text
    }
    return .none
  }
}
