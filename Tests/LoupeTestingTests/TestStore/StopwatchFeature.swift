import Foundation
import Loupe

/// Seed 003's `TimerFeature`, as TCA 1.x writes it: `@Dependency(\.date)` and the clock
/// dependency, a 10 ms timer, `.timeUpdated` adding 0.01 s.
struct StopwatchFeature: Reducer {
  struct State: Equatable {
    var started: Date? = nil
    var duration: TimeInterval = 0
  }

  enum Action: Equatable {
    case start
    case stop
    case timeUpdated
  }

  struct TimerID: Hashable {}

  @Dependency(\.date) var date
  @Dependency(\.clock) var clock

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .start:
        if state.started == nil {
          state.started = date()
          state.duration = 0
        }
        return .run { send in
          for await _ in self.clock.timer(interval: .milliseconds(10)) {
            await send(.timeUpdated)
          }
        }
        .cancellable(id: TimerID())
      case .timeUpdated:
        state.duration += 0.01
        return .none
      case .stop:
        return .cancel(id: TimerID())
      }
    }
  }
}

/// Loads a text through a client dependency (seed 003's `SampleTextFeature`).
struct SampleTextFeature: Reducer {
  struct State: Equatable {
    var loading = false
    var text = ""
  }

  enum Action: Equatable {
    case load
    case loaded(String)
    case failed
  }

  @Dependency(\.textClient) var textClient

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .load:
        state.loading = true
        return .run { send in
          await send(.loaded(try await textClient.load()))
        }
      case .loaded(let text):
        state.loading = false
        state.text = text
        return .none
      case .failed:
        state.loading = false
        return .none
      }
    }
  }
}

struct TextClient: Sendable {
  var load: @Sendable () async throws -> String
}

/// A client key with no test value: a test must set one.
enum TextClientKey: DependencyKey {
  static let liveValue = TextClient { "live text" }
}

extension DependencyValues {
  var textClient: TextClient {
    get { self[TextClientKey.self] }
    set { self[TextClientKey.self] = newValue }
  }
}
