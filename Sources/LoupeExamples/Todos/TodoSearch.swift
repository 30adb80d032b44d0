import Loupe

/// The search backend: finds to-dos whose title contains the query, after a delay, the way a
/// request to a server would.
struct TodoSearch: Sendable {
  /// How long a search takes.
  var latency: Duration = .milliseconds(300)
  /// The most results returned.
  var limit = 20

  /// The ids of the to-dos matching `query` (case-insensitive), after ``latency`` on `clock`.
  func search(_ query: String, in todos: IdentifiedArrayOf<Todo>, clock: AnyClock) async throws -> [Todo.ID] {
    try await clock.sleep(for: latency)
    let needle = query.lowercased()
    var found: [Todo.ID] = []
    for todo in todos where todo.title.lowercased().contains(needle) {
      found.append(todo.id)
      if found.count == limit { break }
    }
    return found
  }
}
