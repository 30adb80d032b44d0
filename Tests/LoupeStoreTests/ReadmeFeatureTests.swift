import Loupe
import Testing

// The feature of README's "Writing a feature", verbatim: keep the two in step.

struct StopwatchFeature: Reducer {
  struct State: Equatable, Identifiable {
    let id: Int
    var seconds = 0
    var isRunning = false
  }

  enum Action: Equatable {
    case startTapped
    case stopTapped
    case ticked
  }

  enum CancelID { case tick }

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .startTapped:
        state.isRunning = true
        return .run { send in
          for await _ in send.clock.timer(interval: .seconds(1)) {
            await send(.ticked)
          }
        }
        .cancellable(id: CancelID.tick, cancelInFlight: true)

      case .stopTapped:
        state.isRunning = false
        return .cancel(id: CancelID.tick)

      case .ticked:
        state.seconds += 1
        return .none
      }
    }
  }
}

struct BoardFeature: Reducer {
  struct State: Equatable {
    var timers: IdentifiedArrayOf<StopwatchFeature.State> = []
  }

  enum Action: Equatable {
    case addTimer(id: Int)
    case removeTimer(id: Int)
    case timers(IdentifiedAction<Int, StopwatchFeature.Action>)
  }

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .addTimer(let id):
        state.timers.append(StopwatchFeature.State(id: id))
        return .none
      case .removeTimer(let id):
        state.timers.remove(id: id)
        return .none
      case .timers:
        return .none
      }
    }
    .forEach(\.timers, action: Action.timers) { StopwatchFeature() }
  }
}

@MainActor
@Suite struct ReadmeFeatureTests {
  @Test func theReadmeFeatureAndItsEvents() async throws {
    let (bus, recorder) = makeSession()
    let clock = TestClock()
    let store = Store(initialState: BoardFeature.State(), bus: bus, clock: clock) { BoardFeature() }
    store.send(.addTimer(id: 1))
    let timer = try #require(store.scope(state: \.timers, action: BoardFeature.Action.timers)[id: 1])
    timer.send(.startTapped)
    await clock.advance(by: .seconds(2))
    store.send(.removeTimer(id: 1))
    #expect(timer.seconds == 2)
    #expect(recorder.lines == [
      "2 identity.changed BoardFeature#1 i1 created",
      "3 store.created BoardFeature#1 type=BoardFeature parent=- i1",
      "4 action.received BoardFeature#1 BoardFeature.Action.addTimer send",
      "5 identity.changed BoardFeature#1/timers[id: 1] i2 inserted",
      "6 store.created BoardFeature#1/timers[id: 1] type=StopwatchFeature parent=BoardFeature#1 i2",
      "7 state.changed BoardFeature#1 cause=4 [+timers[id: 1]: {\"id\":1,\"seconds\":0,\"isRunning\":false}] \"BoardFeature#1: _timers changed.\"",
      "8 state.changed BoardFeature#1/timers[id: 1] cause=4 [+@: {\"id\":1,\"seconds\":0,\"isRunning\":false}] \"BoardFeature#1/timers[id: 1]: @self, @identity changed.\"",
      "9 action.received BoardFeature#1/timers[id: 1] StopwatchFeature.Action.startTapped send",
      "10 state.changed BoardFeature#1/timers[id: 1] cause=9 [isRunning: false → true] \"BoardFeature#1/timers[id: 1]: _isRunning changed.\"",
      "11 effect.started BoardFeature#1/timers[id: 1] e1 cause=9 id=StopwatchFeature.CancelID.tick",
      "12 action.received BoardFeature#1/timers[id: 1] StopwatchFeature.Action.ticked effect e1",
      "13 state.changed BoardFeature#1/timers[id: 1] cause=12 [seconds: 0 → 1] \"BoardFeature#1/timers[id: 1]: _seconds changed.\"",
      "14 action.received BoardFeature#1/timers[id: 1] StopwatchFeature.Action.ticked effect e1",
      "15 state.changed BoardFeature#1/timers[id: 1] cause=14 [seconds: 1 → 2] \"BoardFeature#1/timers[id: 1]: _seconds changed.\"",
      "16 action.received BoardFeature#1 BoardFeature.Action.removeTimer send",
      "17 identity.changed BoardFeature#1/timers[id: 1] i2 removed",
      "18 effect.cancelled BoardFeature#1/timers[id: 1] e1 identityEnded id=StopwatchFeature.CancelID.tick by=BoardFeature#1@16",
      "19 store.destroyed BoardFeature#1/timers[id: 1] i2",
      "20 state.changed BoardFeature#1 cause=16 [-timers[id: 1]: {\"id\":1,\"seconds\":2,\"isRunning\":true}] \"BoardFeature#1: _timers changed.\"",
    ])
  }

  @Test func ticks() async {
    let clock = TestClock()
    let store = Store(initialState: BoardFeature.State(), bus: EventBus(), clock: clock) { BoardFeature() }
    store.send(.addTimer(id: 1))
    store.send(.timers(.element(id: 1, action: .startTapped)))
    await clock.advance(by: .seconds(2))
    #expect(store.timers[id: 1]?.seconds == 2)
    store.send(.timers(.element(id: 1, action: .stopTapped)))
  }
}
