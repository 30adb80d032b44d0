import Foundation
@testable import Loupe
import LoupeCore
import LoupeRPC
import Testing

/// `loupe/send` and `loupe/setState` (CONTRACT §16) through the inspector's real handler: off
/// unless allowed, decoded into the store's types, reported with origin `tool` and the
/// client's name, scoped stores following a new state, redacted values kept.
@MainActor
@Suite struct ControlTests {
  /// A bus with an inspector's hub, and a client connected as "test tool".
  @MainActor final class Session {
    let bus = EventBus(program: "control", pid: 1)
    let hub = EventHub(historyCapacity: 10_000)
    let allowed: Bool

    init(allowed: Bool, redacting: [String] = []) {
      self.allowed = allowed
      bus.renderOptions.redactedPaths = redacting.map { Glob($0) }
      bus.attach(hub)
    }

    /// The answer to `request`, which the handler gives from a task (the main actor is free
    /// while this waits).
    func answer(_ request: some RequestType) async -> JSON {
      let allowed = self.allowed
      let answered = Lock<CheckedContinuation<JSON, Never>?>(nil)
      var session: ServerSession?
      let json = await withCheckedContinuation { continuation in
        answered.withLock { $0 = continuation }
        session = ServerSession(
          handler: InspectorClient(
            bus: bus, hub: hub, queue: ClientSubscription(hub: hub, capacity: 10, maxBatch: 10, wake: {}),
            allowsControl: { allowed }),
          send: { body in
            guard let json = try? JSONParser.parse(body), json["id"] == 2 else { return }
            answered.withLock { $0.take() }?.resume(returning: json)
          }, exit: {})
        session?.receive(InitializeRequest(clientInfo: .init(name: "test tool")).message(id: 1).body)
        session?.receive(request.message(id: 2).body)
      }
      withExtendedLifetime(session) {}
      return json
    }

    /// The events since `seq`, as the protocol sends them.
    func events(after seq: Int) -> [JSON] {
      let subscription = ClientSubscription(hub: hub, capacity: 100_000, maxBatch: 1000, wake: {})
      _ = hub.subscribe(subscription, filter: CompiledEventFilter(.all), history: true)
      subscription.release()
      return drain(subscription).filter { $0.seq > seq }.map { $0.json }
    }
  }

  @Test func withoutPermissionBothMethodsAreRefusedAndNothingHappens() async {
    let session = Session(allowed: false)
    let store = Store(initialState: Board.State(), name: "Board#1", bus: session.bus) { Board() }
    let before = session.bus.lastSeq
    let refusal = "Control not allowed: loupe/send acts on the program, which it allows only when started with LOUPE_CONTROL=1 (or Inspector.shared.configuration.allowsControl = true)"
    #expect(await session.answer(SendRequest(store: "Board#1", action: "reset"))["error"] == [
      "code": -32004, "message": .string(refusal),
    ])
    #expect(await session.answer(SetStateRequest(store: "Board#1", state: ["title": "x"]))["error"]?["code"] == -32004)
    #expect(session.bus.lastSeq == before)
    #expect(store.state == Board.State())
  }

  @Test func aSentActionRunsAndIsReportedAsTheTools() async {
    let session = Session(allowed: true)
    let store = Store(initialState: Board.State(), name: "Board#1", bus: session.bus) { Board() }
    let before = session.bus.lastSeq
    let answer = await session.answer(SendRequest(store: "Board#1", action: "reset"))
    // The action and its change: what it did at once.
    #expect(answer["result"] == ["seq": .int(before + 1), "through": .int(before + 2)])
    let action = session.events(after: before).first
    #expect(action?["kind"] == "action.received")
    #expect(action?["origin"] == "tool")
    #expect(action?["client"] == "test tool")
    #expect(action?["source"] == nil)
    #expect(store.state.title == "")
  }

  /// 300 sends from one client, arriving on a thread of their own as a socket reader's do:
  /// at most 64 wait for the main actor at a time, each is answered, and the actions run in
  /// the order they were sent.
  @Test func aFloodOfSendsRunsInOrderAndEachIsAnswered() async {
    let session = Session(allowed: true)
    let store = Store(initialState: Board.State(), name: "Board#1", bus: session.bus) { Board() }
    let before = session.bus.lastSeq
    let count = 300
    let (answerStream, answered) = AsyncStream.makeStream(of: JSON.self)
    let server = ServerSession(
      handler: InspectorClient(
        bus: session.bus, hub: session.hub, queue: ClientSubscription(hub: session.hub, capacity: 10, maxBatch: 10, wake: {}),
        allowsControl: { true }),
      send: { body in
        guard let json = try? JSONParser.parse(body), json["id"] != 1 else { return }
        answered.yield(json)
      }, exit: {})
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      Thread {
        server.receive(InitializeRequest(clientInfo: .init(name: "flood")).message(id: 1).body)
        for n in 1...count {
          server.receive(SendRequest(store: "Board#1", action: ["rename": .string("t\(n)")]).message(id: .int(n + 1)).body)
        }
        continuation.resume()
      }.start()
    }
    var answers: [JSON] = []
    for await answer in answerStream {
      answers.append(answer)
      if answers.count == count { break }
    }
    #expect(answers.allSatisfy { $0["result"]?["seq"]?.intValue != nil })
    #expect(store.state.title == "t\(count)")
    let titles = session.events(after: before).filter { $0["kind"] == "action.received" }.map { $0["value"]?["rename"]?.stringValue ?? "" }
    #expect(titles == (1...count).map { "t\($0)" })
  }

  @Test func setStateReplacesTheStateScopedStoresFollowAndAMarkNamesIt() async {
    let session = Session(allowed: true)
    let store = Store(initialState: Board.State(), name: "Board#1", bus: session.bus) { Board() }
    let before = session.bus.lastSeq
    var wanted = Board.State()
    wanted.title = "Sprint"
    wanted.tally.total = 7
    let answer = await session.answer(SetStateRequest(store: "Board#1", state: ValueRenderer.render(wanted)))
    #expect(answer["result"] == ["seq": .int(before + 1)])
    #expect(store.state == wanted)
    let lines = session.events(after: before).map { event in
      [event["kind"], event["store"], event["label"], event["summary"], event["cause"], event["origin"], event["client"]]
        .compactMap { $0.map { $0.stringValue ?? $0.jsonText } }.joined(separator: " | ")
    }
    #expect(lines == [
      "mark | setState Board#1 by test tool",
      "state.changed | Board#1 | Board#1: _title changed. | \(before + 1) | tool | test tool",
      "state.changed | Board#1/tally | Board#1/tally: _total changed. | \(before + 1) | tool | test tool",
    ])
  }

  @Test func anActionSentToAScopedStoreIsAtItsLevelAndRoutedThroughItsRoot() async {
    let session = Session(allowed: true)
    let store = Store(initialState: Board.State(), name: "Board#1", bus: session.bus) { Board() }
    let tally = store.scope(state: \.tally, action: Board.Action.tally)
    let before = session.bus.lastSeq
    #expect(await session.answer(SendRequest(store: "Board#1/tally", action: ["add": 2]))["result"]?["seq"] == .int(before + 1))
    #expect(tally.state.total == 2)
    let action = session.events(after: before).first
    #expect(action?["store"] == "Board#1/tally")
    #expect(action?["action"] == "Counter.Action.add")
    #expect(action?["value"] == ["add": 2])
    #expect(action?["origin"] == "tool")
  }

  @Test func setStateOnAScopedStoreNamesItsRoot() async {
    let session = Session(allowed: true)
    let store = Store(initialState: Board.State(), name: "Board#1", bus: session.bus) { Board() }
    let tally = store.scope(state: \.tally, action: Board.Action.tally)
    #expect(await session.answer(SetStateRequest(store: "Board#1/tally", state: ["total": 3, "history": []]))["error"] == [
      "code": -32602,
      "message": "loupe/setState replaces a root store's state, and 'Board#1/tally' is a scoped store: set the state of its root store 'Board#1'",
    ])
    withExtendedLifetime(tally) {}
  }

  @Test func refusalsNameTheStoreAndTheType() async {
    let session = Session(allowed: true)
    let store = Store(initialState: Opaque.State(), name: "Opaque#1", bus: session.bus) { Opaque() }
    let board = Store(initialState: Board.State(), name: "Board#1", bus: session.bus) { Board() }
    #expect(await session.answer(SendRequest(store: "Nope#1", action: "reset"))["error"]?["message"] == "No live store 'Nope#1'")
    #expect(await session.answer(SendRequest(store: "Opaque#1", action: "poke"))["error"]?["message"]
      == "Opaque.Action is not Decodable: a tool can send an action only to a store whose Action conforms to Decodable (add `Codable`)")
    #expect(await session.answer(SendRequest(store: "Board#1/tally", action: "reset"))["error"]?["message"]
      == "'Board#1/tally' has no Store object in the program (the program never scoped a store to it, or it has ended): send to its parent store an action that reaches it")
    withExtendedLifetime((store, board)) {}
  }

  @Test func redactedPathsKeepTheirValuesWhateverTheToolSends() async {
    let session = Session(allowed: true, redacting: ["secret"])
    let store = Store(initialState: Board.State(), name: "Board#1", bus: session.bus) { Board() }
    var sent = ValueRenderer.render(Board.State(), options: session.bus.renderOptions)
    #expect(sent["secret"] == "<redacted>")
    sent = .object(JSONObject(sent.objectValue!.map { $0.key == "title" ? .init("title", "new") : $0 }))
    #expect(await session.answer(SetStateRequest(store: "Board#1", state: sent))["result"] != nil)
    #expect(store.state.title == "new")
    #expect(store.state.secret == "hunter2")
    // Even a value given in full at a redacted path is not taken.
    var overwrite = sent
    overwrite = .object(JSONObject(overwrite.objectValue!.map { $0.key == "secret" ? .init("secret", "guess") : $0 }))
    #expect(await session.answer(SetStateRequest(store: "Board#1", state: overwrite))["result"] != nil)
    #expect(store.state.secret == "hunter2")
  }
}

/// A board with a title, a secret and a scoped tally.
struct Board: Reducer {
  struct State: Equatable, Codable {
    var title = "Backlog"
    var secret = "hunter2"
    var tally = Counter.State()
  }
  enum Action: Equatable, Codable {
    case reset
    case rename(String)
    case tally(Counter.Action)
  }

  var body: some Reducer<State, Action> {
    Scope(state: \.tally, action: Action.tally) { Counter() }
    Reduce { state, action in
      switch action {
      case .reset: state.title = ""
      case .rename(let title): state.title = title
      case .tally: break
      }
      return .none
    }
  }
}

/// The board's scoped child.
struct Counter: Reducer {
  struct State: Equatable, Codable {
    var total = 0
    var history: [Int] = []
  }
  enum Action: Equatable, Codable { case add(Int) }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    guard case .add(let n) = action else { return .none }
    state.total += n
    state.history.append(n)
    return .none
  }
}

/// A store whose actions cannot be decoded.
struct Opaque: Reducer {
  struct State: Equatable {}
  enum Action: Equatable { case poke }
  func reduce(into state: inout State, action: Action) -> Effect<Action> { .none }
}
