import Loupe

/// A search that loads results, with a cancel id and a failure path (docs/store.md).
struct SearchFeature: Reducer {
  struct State: Equatable {
    var query = ""
    var results: [String] = []
    var errorMessage: String?
  }

  enum Action: Equatable {
    case queryChanged(String)
    case searchResponse([String])
    case searchFailed(String)
    case cleared
  }

  // Cancel ids cross into effects, so they must be Sendable: a `public enum` needs the
  // conformance spelled out (`public enum CancelID: Sendable`), or the compiler complains at
  // `.cancellable(id:)` about a non-Sendable `Hashable` value, not here.
  enum CancelID: Sendable { case search }

  struct SearchError: Error, CustomStringConvertible {
    var description: String { "offline" }
  }

  var search: @Sendable (String) async throws -> [String]

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .queryChanged(let query):
        state.query = query
        return .run { [search] send in
          await send(.searchResponse(try await search(query)))
        } catch: { error, send in
          // The effect is still reported as failed, with the error's text.
          await send(.searchFailed("\(error)"))
        }
        .cancellable(id: CancelID.search, cancelInFlight: true)
      case .searchResponse(let results):
        state.results = results
        return .none
      case .searchFailed(let message):
        state.errorMessage = message
        return .none
      case .cleared:
        state.query = ""
        // `.send` is an effect too: it starts and finishes at once, and shows in the stream.
        return .send(.searchResponse([]))
      }
    }
  }
}
