import Loupe
import Testing

/// A one-second timer.
struct TickerFeature: Reducer {
  struct State: Equatable { var ticks = 0 }
  enum Action: Equatable { case start, tick }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .start:
      return .run { send in
        for await _ in send.clock.timer(interval: .seconds(1)) { await send(.tick) }
      }
    case .tick:
      state.ticks += 1
      return .none
    }
  }
}

/// Effects under a `TestClock` run in a defined order (CONTRACT §13).
@MainActor
@Suite struct DeterminismTests {
  /// Two root stores on one test clock, started 1 then 2, tie at every second: store 1
  /// ticks first every time, 200 times in one process.
  @Test func tiesWakeInTheOrderTheEffectsWentToSleep() async {
    var orders: [String: Int] = [:]
    for _ in 0..<200 {
      let clock = TestClock()
      var order: [String] = []
      let first = Store(initialState: TickerFeature.State(), name: "one", bus: EventBus(), clock: clock) {
        TickerFeature()
      }
      let second = Store(initialState: TickerFeature.State(), name: "two", bus: EventBus(), clock: clock) {
        TickerFeature()
      }
      let a = first.sink { _ in order.append("one") }
      let b = second.sink { _ in order.append("two") }
      first.send(.start)
      second.send(.start)
      await clock.advance(by: .seconds(3))
      orders[order.joined(separator: " "), default: 0] += 1
      a.cancel()
      b.cancel()
      first.invalidate()
      second.invalidate()
    }
    // Subscribing, the starts, then three ticks: store one first every time.
    #expect(orders == ["one two one two one two one two one two": 200])
  }

  /// The effects of one action start in the order the reducer returned them.
  @Test func oneActionsEffectsStartInOrder() async {
    for _ in 0..<50 {
      let clock = TestClock()
      let store = Store(initialState: MergeOrderFeature.State(), bus: EventBus(), clock: clock) { MergeOrderFeature() }
      await store.send(.start).finish()
      #expect(store.log == ["a", "b", "c"])
    }
  }
}

struct MergeOrderFeature: Reducer {
  struct State: Equatable { var log: [String] = [] }
  enum Action: Equatable { case start, logged(String) }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .start:
      return .merge(["a", "b", "c"].map { name in .run { send in await send(.logged(name)) } })
    case .logged(let name):
      state.log.append(name)
      return .none
    }
  }
}
