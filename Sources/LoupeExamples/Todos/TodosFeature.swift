import Loupe

/// Seed 004's to-do list, Verge style: one store over a large normalized database, a search
/// that runs as a keyed task, and bulk edits.
///
/// The search is Verge's `store.task(key: "search", mode: .dropCurrent)`: each keystroke
/// starts a new search and drops the one still in flight. In Loupe's store that is an effect
/// with a cancel id and `cancelInFlight`:
///
/// ```swift
/// return .run { send in
///   let ids = try await search.search(query, in: todos, clock: send.clock)
///   await send(.searchResponse(ids))
/// }
/// .cancellable(id: CancelID.search, cancelInFlight: true)
/// ```
///
/// and every dropped search shows up as `effect.cancelled` with reason `cancelInFlight`.
///
/// The database holds thousands of to-dos, so what the store's diff costs matters: toggling
/// one to-do is reported as the single change `database.todos[id: 734].isDone` (the diff
/// matches identified elements by id and skips equal subtrees), and completing everything of
/// one person as a few hundred such changes.
struct TodosFeature: Reducer {
  struct State: Equatable, Codable {
    var database: TodoDatabase
    var query = ""
    /// The ids the last search found.
    var searchResults: [Todo.ID] = []
    var isSearching = false
  }

  enum Action: Equatable, Codable {
    case queryChanged(String)
    case searchResponse([Todo.ID])
    case toggleDoneTapped(Todo.ID)
    case renamed(Todo.ID, String)
    case personRenamed(Person.ID, String)
    /// Marks every open to-do of a person done.
    case completeAllTapped(assignee: Person.ID)
  }

  enum CancelID { case search }

  var search = TodoSearch()
  /// A deliberately changed reducer (`loupe-examples todos --mutant`): a rename upper-cases
  /// the title.
  var mutant = false

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .queryChanged(let query):
        state.query = query
        guard !query.isEmpty else {
          state.searchResults = []
          state.isSearching = false
          return .cancel(id: CancelID.search)
        }
        state.isSearching = true
        let todos = state.database.todos
        return .run { [search] send in
          let ids = try await search.search(query, in: todos, clock: send.clock)
          await send(.searchResponse(ids))
        }
        .cancellable(id: CancelID.search, cancelInFlight: true)

      case .searchResponse(let ids):
        state.searchResults = ids
        state.isSearching = false
        return .none

      case .toggleDoneTapped(let id):
        state.database.todos[id: id]?.isDone.toggle()
        return .none

      case .renamed(let id, let title):
        state.database.todos[id: id]?.title = mutant ? title.uppercased() : title
        return .none

      case .personRenamed(let id, let name):
        state.database.people[id: id]?.name = name
        return .none

      case .completeAllTapped(let assignee):
        for index in state.database.todos.indices
        where state.database.todos[index].assigneeID == assignee && !state.database.todos[index].isDone {
          state.database.todos[index].isDone = true
        }
        return .none
      }
    }
  }
}
