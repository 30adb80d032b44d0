import Foundation
@testable import Loupe
import LoupeCore
import LoupeRPC
import Testing

/// A history replay begins with a snapshot of every live root store (CONTRACT §10), so a late
/// subscriber rebuilds each one's state — also once the log has evicted the root's snapshot —
/// and `loupe/state` with `at` answers from the history with the core `StateRebuilder`.
@MainActor
@Suite struct HistorySnapshotTests {
  /// A bus with an inspector's hub attached (the log keeps `capacity` events).
  @MainActor final class Session {
    let bus = EventBus(program: "history", pid: 1)
    let hub: EventHub
    /// The real state of each root store after each event, rendered as the wire renders it.
    var rendered: [Int: [String: JSON]] = [:]

    init(capacity: Int, snapshots: SnapshotPolicy = .default) {
      hub = EventHub(historyCapacity: capacity)
      bus.snapshotPolicy = snapshots
      bus.attach(hub)
    }

    /// Remembers `store`'s state as it is now, at the last `seq`.
    func capture<S, A>(_ store: Store<S, A>) {
      rendered[bus.lastSeq, default: [:]][store.storeID] = ValueRenderer.render(store.state, options: bus.renderOptions)
    }

    /// Everything a subscriber with `history: true` gets, and the count the subscribe answered.
    func history(filter: EventFilter = .all) -> (events: [Event], count: Int) {
      let subscription = ClientSubscription(hub: hub, capacity: 1_000_000, maxBatch: 100, wake: {})
      let count = hub.subscribe(subscription, filter: CompiledEventFilter(filter), history: true)
      subscription.release()
      return (drain(subscription), count)
    }

    /// The answer to a `loupe/state` request, through the inspector's real handler.
    func answer(_ request: StateRequest) -> JSON {
      let sent = Lock<[JSON]>([])
      let session = ServerSession(
        handler: InspectorClient(bus: bus, hub: hub, queue: ClientSubscription(hub: hub, capacity: 10, maxBatch: 10, wake: {})),
        send: { body in sent.withLock { $0.append((try? JSONParser.parse(body)) ?? "unparseable") } }, exit: {})
      session.receive(InitializeRequest().message(id: 1).body)
      session.receive(request.message(id: 2).body)
      return sent.withLock { $0 }.last ?? .null
    }
  }

  @Test func aLateSubscriberRebuildsEveryLiveRootStore() {
    let session = Session(capacity: 100_000)
    let counter = Store(initialState: Tally.State(), name: "Tally#1", bus: session.bus) { Tally() }
    let other = Store(initialState: Tally.State(), name: "Tally#2", bus: session.bus) { Tally() }
    for n in 0..<2_500 { (n % 3 == 0 ? other : counter).send(.add(n)) }
    let (events, count) = session.history()
    #expect(count == events.count)
    // Both creations, and Tally#1's after its 1,000th action (it had 1,666; Tally#2 834).
    #expect(events.filter { $0.kind == StateSnapshot.kind }.count == 3)
    let rebuilt = rebuild(events)
    #expect(rebuilt["Tally#1"] == ValueRenderer.render(counter.state))
    #expect(rebuilt["Tally#2"] == ValueRenderer.render(other.state))
  }

  @Test func aLateSubscriberRebuildsARootWhoseSnapshotsLeftTheLog() throws {
    // The log keeps 200 events; the idle store's only snapshot and the busy one's last are
    // long gone when the client subscribes: the replay begins with them (and the busy one's
    // changes since), with their own seqs, and says what else was lost in between.
    let session = Session(capacity: 200)
    let idle = Store(initialState: Tally.State(total: 7), name: "Idle", bus: session.bus) { Tally() }
    let busy = Store(initialState: Tally.State(), name: "Busy", bus: session.bus) { Tally() }
    var gone: Store<Tally.State, Tally.Action>? = Store(initialState: Tally.State(), name: "Gone", bus: session.bus) { Tally() }
    idle.send(.add(1))
    for n in 0..<1_300 { busy.send(.add(n)) }
    gone?.send(.add(5))
    gone = nil
    for n in 0..<300 { busy.send(.add(n)) }

    let (events, count) = session.history()
    let snapshots = events.compactMap { if case .stateSnapshot(let e) = $0.payload { e } else { nil } }
    #expect(snapshots.map(\.store) == ["Idle", "Busy"])
    #expect(snapshots.map(\.cause) == [nil, snapshots[1].cause])
    #expect(snapshots[1].cause != nil)  // Busy's snapshot after its 1,000th action
    // In seq order, every event once, and every event before the log's oldest accounted for.
    #expect(zip(events, events.dropFirst()).allSatisfy { $0.seq < $1.seq })
    let lost = events.reduce(0) { $0 + ($1.droppedCount ?? 0) }
    #expect(lost + events.count - events.filter { $0.droppedCount != nil }.count == session.bus.lastSeq)
    #expect(count == events.count - events.filter { $0.droppedCount != nil }.count)
    let rebuilt = rebuild(events)
    #expect(rebuilt["Idle"] == ValueRenderer.render(idle.state))
    #expect(rebuilt["Busy"] == ValueRenderer.render(busy.state))
    #expect(rebuilt["Gone"] == nil)

    // A filter applies to what the replay begins with too (its losses always pass).
    let changesOnly = session.history(filter: EventFilter(kinds: [Glob("state.changed")]))
    #expect(!changesOnly.events.contains { $0.kind == StateSnapshot.kind })
  }

  /// 390 actions, a snapshot after the 200th (seq 4 + 2 × 200 + 1 = 405), a log of 300
  /// events (from seq 486 to 785): the snapshot at 405 is kept beyond the log.
  func session390() -> (Session, Store<Tally.State, Tally.Action>) {
    let session = Session(capacity: 300, snapshots: SnapshotPolicy(actions: 200))
    let store = Store(initialState: Tally.State(), name: "Tally#1", bus: session.bus) { Tally() }
    session.capture(store)
    for n in 0..<390 {
      store.send(.add(n))
      session.capture(store)
    }
    return (session, store)
  }

  @Test func aLoupeStateAtASeqOfTheHistoryIsTheStateRightAfterIt() throws {
    let (session, store) = session390()
    #expect(session.bus.lastSeq == 785)
    // In the log; before it (from the kept snapshot and changes); the latest; the oldest.
    for seq in [700, 701, 450, 785, 405, 406] {
      let captured = try #require(session.rendered[seq] ?? session.rendered[seq - 1])["Tally#1"]
      #expect(session.answer(StateRequest(store: "Tally#1", at: seq))["result"] == [
        "store": "Tally#1", "seq": .int(seq), "state": captured!,
      ])
    }
    let at700 = try #require(session.rendered[700] ?? session.rendered[699])["Tally#1"]
    #expect(session.answer(StateRequest(store: "Tally#1", path: "history[3]", at: 700))["result"]?["state"]
      == at700?["history"]?.arrayValue?[3])
    #expect(session.answer(StateRequest(store: "Tally#1", at: 785))["result"]?["state"] == ValueRenderer.render(store.state))
  }

  @Test func aLoupeStateAtOutsideTheHistoryIsInvalidParamsNamingTheOldestSeq() throws {
    let (session, store) = session390()
    defer { withExtendedLifetime(store) {} }
    #expect(session.answer(StateRequest(store: "Tally#1", at: 404))["error"] == [
      "code": -32602,
      "message": "Seq 404 is older than this program's history of 'Tally#1': the oldest seq it can answer for is 405",
    ])
    #expect(session.answer(StateRequest(store: "Tally#1", at: 786))["error"] == [
      "code": -32602, "message": "No event 786 yet: the latest is 785",
    ])
    #expect(session.answer(StateRequest(store: "Tally#1", path: "nothing", at: 785))["error"] == [
      "code": -32602, "message": "Store 'Tally#1' has no value at path 'nothing' at seq 785",
    ])
    #expect(session.answer(StateRequest(store: "Nobody#1", at: 785))["error"] == [
      "code": -32602,
      "message": "This program's history holds no state.snapshot of Nobody#1, so the state of 'Nobody#1' at a seq cannot be rebuilt (snapshots off?)",
    ])
    #expect(session.answer(StateRequest(store: "Tally#1", at: -1))["error"] == [
      "code": -32602, "message": "loupe/state params: 'at' must be a seq (an integer from 0), not -1",
    ])
  }

  @Test func aScopedStoresStateAtASeqIsTheValueAtItsPath() throws {
    let session = Session(capacity: 10_000)
    let store = Store(initialState: Shelf.State(), name: "Shelf#1", bus: session.bus) { Shelf() }
    store.send(.add(1))
    store.send(.add(2))
    let child = try #require(store.scope(state: \.items, action: Shelf.Action.items)[id: 2])
    child.send(.add(40))
    let afterChild = session.bus.lastSeq
    child.send(.add(2))
    #expect(child.storeID == "Shelf#1/items[id: 2]")
    #expect(session.answer(StateRequest(store: child.storeID, at: afterChild))["result"]?["state"] == [
      "id": 2, "total": 40, "history": [40],
    ])
    #expect(session.answer(StateRequest(store: child.storeID, at: session.bus.lastSeq))["result"]?["state"] == [
      "id": 2, "total": 42, "history": [40, 2],
    ])
  }

  /// Each root store's state after `events`, by the core rebuilder.
  private func rebuild(_ events: [Event]) -> [String: JSON] {
    var rebuilder = StateRebuilder()
    for event in events { rebuilder.apply(event) }
    var states: [String: JSON] = [:]
    for root in rebuilder.rootStores {
      if let state = rebuilder.state(of: root), !state.approximate { states[root] = state.value }
    }
    return states
  }
}

/// A running total and what was added.
struct Tally: Reducer {
  struct State: Equatable, Identifiable {
    var id = 0
    var total = 0
    var history: [Int] = []
  }
  enum Action: Equatable { case add(Int) }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .add(let n):
      state.total += n
      state.history.append(n)
      if state.history.count > 20 { state.history.removeFirst() }
    }
    return .none
  }
}

/// Tallies by id, each a scoped store.
struct Shelf: Reducer {
  struct State: Equatable {
    var items: IdentifiedArrayOf<Tally.State> = []
  }
  enum Action: Equatable {
    case add(Int)
    case items(IdentifiedAction<Int, Tally.Action>)
  }

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      if case .add(let id) = action { state.items.append(Tally.State(id: id)) }
      return .none
    }
    .forEach(\.items, action: Action.items) { Tally() }
  }
}
