import Foundation
@testable import Loupe
import LoupeCore
import LoupeRPC
import Testing

/// `loupe/state` answers carry the state's `shape` (issue 33 #14), now and at a `seq`, so a
/// reader prints `.playing(speed: 2)`, not `{playing: {speed: 2}}`.
@MainActor
@Suite struct StateShapeTests {
  func session() -> (HistorySnapshotTests.Session, Store<Player.State, Player.Action>) {
    let session = HistorySnapshotTests.Session(capacity: 1_000)
    let store = Store(initialState: Player.State(), name: "Player#1", bus: session.bus) { Player() }
    store.send(.play(2))
    return (session, store)
  }

  @Test func theStateNowCarriesItsShape() async throws {
    let (session, store) = session()
    defer { withExtendedLifetime(store) {} }
    let answer = try await answerOnTheMainActor(session, StateRequest(store: "Player#1"))
    #expect(answer == [
      "store": "Player#1", "seq": .int(session.bus.lastSeq),
      "state": ["title": "One", "mode": ["playing": ["speed": 2]], "history": ["idle"]],
      "shape": ["enums": ["mode", "history[*]"], "tuples": ["mode.playing"]],
    ])
    let atPath = try await answerOnTheMainActor(session, StateRequest(store: "Player#1", path: "mode"))
    #expect(atPath["shape"] == ["enums": [""], "tuples": ["playing"]])
    // No enum case and no tuple there: no shape.
    let title = try await answerOnTheMainActor(session, StateRequest(store: "Player#1", path: "title"))
    #expect(title == ["store": "Player#1", "seq": .int(session.bus.lastSeq), "state": "One"])
  }

  @Test func theStateAtASeqCarriesTheShapeItWasRebuiltWith() throws {
    let (session, store) = session()
    defer { withExtendedLifetime(store) {} }
    let answer = session.answer(StateRequest(store: "Player#1", at: session.bus.lastSeq))["result"]
    #expect(answer?["state"]?["mode"] == ["playing": ["speed": 2]])
    #expect(answer?["shape"] == ["enums": ["mode", "history[*]"], "tuples": ["mode.playing"]])
  }

  /// A `loupe/state` without `at` is answered from a task on the main actor: wait for it
  /// there (the test yields the main actor while it waits).
  func answerOnTheMainActor(_ session: HistorySnapshotTests.Session, _ request: StateRequest) async throws -> JSON {
    let sent = Lock<[JSON]>([])
    let (stream, continuation) = AsyncStream.makeStream(of: Void.self)
    let server = ServerSession(
      handler: InspectorClient(
        bus: session.bus, hub: session.hub,
        queue: ClientSubscription(hub: session.hub, capacity: 10, maxBatch: 10, wake: {})),
      send: { body in
        sent.withLock { $0.append((try? JSONParser.parse(body)) ?? "unparseable") }
        continuation.yield()
      }, exit: {})
    server.receive(InitializeRequest().message(id: 1).body)
    server.receive(request.message(id: 2).body)
    for await _ in stream where sent.withLock({ $0.count }) >= 2 { break }
    return try #require(sent.withLock { $0 }.last?["result"])
  }
}

/// A player whose mode is an enum with a labelled payload.
struct Player: Reducer {
  enum Mode: Equatable {
    case idle
    case playing(speed: Int)
  }
  struct State: Equatable {
    var title = "One"
    var mode = Mode.idle
    var history: [Mode] = [.idle]
  }
  enum Action: Equatable { case play(Int) }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .play(let speed): state.mode = .playing(speed: speed)
    }
    return .none
  }
}
