import Loupe

/// Seed 004 (Verge): todos with a filter, derived values, and a keyed search task.
struct TodosFeature: Reducer {
  struct Todo: Equatable, Identifiable {
    let id: Int
    var title: String
    var isDone = false
  }
  enum Filter: Equatable { case all, active, done }
  struct State: Equatable {
    var todos: [Todo] = []
    var filter = Filter.all
    var unrelated = 0
    var query = ""
    var results: [String] = []
  }
  enum Action: Equatable {
    case add(Int, String)
    case toggle(Int)
    case setFilter(Filter)
    case bumpUnrelated
    case search(String)
    case searchResults([String])
  }
  enum CancelID { case search }

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .add(let id, let title):
        state.todos.append(Todo(id: id, title: title))
        return .none
      case .toggle(let id):
        if let index = state.todos.firstIndex(where: { $0.id == id }) { state.todos[index].isDone.toggle() }
        return .none
      case .setFilter(let filter):
        state.filter = filter
        return .none
      case .bumpUnrelated:
        state.unrelated += 1
        return .none
      case .search(let query):
        state.query = query
        // Verge's keyed task with `.dropCurrent`: a new search drops the one in flight.
        return .run { send in
          try await send.clock.sleep(for: .seconds(1))
          await send(.searchResults(["\(query)1", "\(query)2"]))
        }
        .cancellable(id: CancelID.search, cancelInFlight: true)
      case .searchResults(let results):
        state.results = results
        return .none
      }
    }
  }
}

/// The input of the visible-todos selector: only what it reads.
struct VisibleInput: Equatable {
  var todos: [TodosFeature.Todo]
  var filter: TodosFeature.Filter
}
