import Loupe

/// What the to-do screen shows, as derived values over the store (seed 004's `Derived`).
///
/// Two of them compute summaries of the whole database, and they show the difference
/// memoization makes:
///
/// - ``openCount`` is memoized on the to-dos table: `store.derived("openCount", select:
///   \.database.todos) { … }` computes again only when a to-do changes.
/// - ``workload`` is not: `store.map("workload") { … }` computes after every action, so each
///   search keystroke and search response walks all the to-dos again for an output that has
///   not changed. Its `derived.recomputed` events say `outputChanged: false`, and `loupe
///   doctor` reports "Derived value recomputed with unchanged output". The fix is to select
///   what it reads: `store.derived("workload", select: \.database) { … }`.
@MainActor
final class TodoListModel {
  /// How many to-dos are not done. Memoized.
  let openCount: Derived<Int>
  /// Open to-dos per person's name. Recomputed after every action: the wasteful one.
  let workload: Derived<[String: Int]>
  /// The to-dos the search found, joined with their assignees. Memoized on the results and
  /// the database.
  let visibleRows: Derived<[String]>

  init(store: Store<TodosFeature.State, TodosFeature.Action>) {
    openCount = store.derived("openCount", select: \.database.todos) { todos in
      todos.count(where: { !$0.isDone })
    }
    workload = store.map("workload") { state in
      var open: [String: Int] = [:]
      for todo in state.database.todos where !todo.isDone {
        open[state.database.assignee(of: todo)?.name ?? "nobody", default: 0] += 1
      }
      return open
    }
    visibleRows = store.derived("visibleRows", select: { SearchPage(results: $0.searchResults, database: $0.database) }) {
      page in
      page.results.compactMap { id in
        guard let todo = page.database.todos[id: id] else { return nil }
        let name = page.database.assignee(of: todo)?.name ?? "nobody"
        return "\(todo.isDone ? "☑" : "☐") \(todo.title) (\(name))"
      }
    }
  }

  /// The input of ``visibleRows``.
  private struct SearchPage: Equatable {
    var results: [Todo.ID]
    var database: TodoDatabase
  }
}
