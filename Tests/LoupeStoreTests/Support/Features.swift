import Loupe

/// A counter: the smallest feature.
struct Counter: Reducer {
  struct State: Equatable {
    var count = 0
    var label = "count"
  }
  enum Action: Equatable {
    case increment
    case decrement
    case setLabel(String)
    case noop
  }

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .increment: state.count += 1
      case .decrement: state.count -= 1
      case .setLabel(let label): state.label = label
      case .noop: break
      }
      return .none
    }
  }
}

/// A timer that ticks every second while running.
struct TimerFeature: Reducer {
  struct State: Equatable {
    var ticks = 0
    var isRunning = false
  }
  enum Action: Equatable {
    case start
    case stop
    case tick
  }
  enum CancelID { case timer }

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .start:
        state.isRunning = true
        return .run { send in
          for await _ in send.clock.timer(interval: .seconds(1)) {
            await send(.tick)
          }
        }
        .cancellable(id: CancelID.timer, cancelInFlight: true)
      case .stop:
        state.isRunning = false
        return .cancel(id: CancelID.timer)
      case .tick:
        state.ticks += 1
        return .none
      }
    }
  }
}

struct LoadError: Error, CustomStringConvertible {
  var description: String { "offline" }
}

/// Effects of every shape, one action each.
struct EffectsFeature: Reducer {
  struct State: Equatable {
    var log: [String] = []
  }
  enum Action: Equatable {
    case load
    case loadFailing
    case loadFailingUncaught
    case sendNow
    case merged
    case concatenated
    case search(String)
    case mapped
    case record(String)
    case child(ChildAction)
  }
  enum ChildAction: Equatable { case done(String) }

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .load:
        return .run { send in await send(.record("loaded")) }
      case .loadFailing:
        return .run { _ in throw LoadError() } catch: { error, send in
          await send(.record("failed: \(error)"))
        }
      case .loadFailingUncaught:
        return .run { _ in throw LoadError() }
      case .sendNow:
        return .send(.record("sent"))
      case .merged:
        return .merge(
          .run { send in await send(.record("a")) },
          .run { send in await send(.record("b")) }
        )
      case .concatenated:
        return .concatenate(
          .run { send in
            try await send.clock.sleep(for: .seconds(1))
            await send(.record("first"))
          },
          .run { send in await send(.record("second")) }
        )
      case .search(let query):
        return .run { send in await send(.record("search \(query)")) }
          .debounce(id: "search", for: .milliseconds(300))
      case .mapped:
        return Effect<ChildAction>.run { send in await send(.done("mapped")) }.map(Action.child)
      case .record(let entry):
        state.log.append(entry)
        return .none
      case .child(.done(let entry)):
        state.log.append(entry)
        return .none
      }
    }
  }
}
