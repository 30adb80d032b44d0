import Loupe
import Testing

struct BurstFeature: Reducer {
  struct State: Equatable {
    var hits = 0
  }
  enum Action: Equatable {
    case burst(tasks: Int, effects: Int)
    case hit
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .burst(let tasks, let effects):
      return .merge((0..<effects).map { _ in
        .run { send in
          await withTaskGroup(of: Void.self) { group in
            for _ in 0..<tasks {
              group.addTask { await send(.hit) }
            }
          }
        }
      })
    case .hit:
      state.hits += 1
      return .none
    }
  }
}

@MainActor
@Suite struct ConcurrencyTests {
  @Test func effectsSendingFromManyTasksAtOnce() async {
    let (bus, recorder) = makeSession()
    let store = Store(initialState: BurstFeature.State(), bus: bus) { BurstFeature() }
    let first = store.send(.burst(tasks: 200, effects: 4))
    let second = store.send(.burst(tasks: 100, effects: 2))
    await first.finish()
    await second.finish()
    #expect(store.hits == 1_000)

    let events = recorder.events
    #expect(zip(events, events.dropFirst()).allSatisfy { $0.seq < $1.seq })
    let received = events.compactMap { event -> ActionReceived? in
      if case .actionReceived(let e) = event.payload, e.origin == .effect { e } else { nil }
    }
    #expect(received.count == 1_000)
    let finished = events.filter { $0.kind == EffectFinished.kind }
    #expect(finished.count == 6)
    let changes = events.filter { $0.kind == StateChanged.kind }
    #expect(changes.count == 1_000)
  }

  @Test func effectsOfManyStoresAtOnce() async {
    let (bus, _) = makeSession()
    let stores = (0..<8).map { _ in Store(initialState: BurstFeature.State(), bus: bus) { BurstFeature() } }
    let tasks = stores.map { $0.send(.burst(tasks: 50, effects: 3)) }
    for task in tasks { await task.finish() }
    #expect(stores.map(\.hits) == Array(repeating: 150, count: 8))
  }
}
