import Loupe

/// A small feature for `TestStore`'s failure messages: a counter, a text loaded through a
/// client, and an effect that waits on something other than the test clock.
struct LoaderFeature: Reducer {
  struct State: Equatable {
    var count = 0
    var isLoading = false
    var text = ""
  }

  enum Action: Equatable {
    case increment
    case load
    case loaded(String)
    case waitForever
    case done
  }

  @Dependency(\.textClient) var textClient

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .increment:
        state.count += 1
        return .none
      case .load:
        state.isLoading = true
        return .run { send in
          await send(.loaded(try await textClient.load()))
        }
      case .loaded(let text):
        state.isLoading = false
        state.text = text
        return .none
      case .waitForever:
        return .run { send in
          // Not on the test clock: only the receive timeout can end the wait.
          try await Task.sleep(for: .seconds(3600))
          await send(.done)
        }
      case .done:
        return .none
      }
    }
  }
}
