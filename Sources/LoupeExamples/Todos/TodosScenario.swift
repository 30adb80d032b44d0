import Loupe

/// `loupe-examples todos`: seed 004, someone searching and editing a big to-do list.
///
/// They type a query letter by letter, faster than the search answers (each keystroke drops
/// the search in flight), tick off what they found, rename it, complete everything of one
/// person, rename a person, clear the search, and start over with another query.
///
/// What to look for: `effect.cancelled` with reason `cancelInFlight` for every dropped
/// search; `derived.recomputed` for `workload` after every action, mostly with
/// `outputChanged: false` (`loupe doctor` reports it), while `openCount` recomputes only when
/// a to-do changed; and single-path changes like `database.todos[id: 734].isDone` in a state
/// of thousands of to-dos.
@MainActor
final class TodosScenario: Scenario {
  typealias TodosStore = Store<TodosFeature.State, TodosFeature.Action>

  let store: TodosStore
  let model: TodoListModel
  /// The pause between keystrokes.
  let keystroke: Duration
  /// The pause between other steps.
  let step: Duration
  private let queries = ["pay", "roof", "ticket"]
  private var round = 0

  init(
    todoCount: Int = 5_000, keystroke: Duration = .milliseconds(150), step: Duration = .milliseconds(600),
    search: TodoSearch = TodoSearch(), mutant: Bool = false, bus: EventBus = .shared, clock: AnyClock
  ) {
    store = Store(initialState: TodosFeature.State(database: .sample(count: todoCount)), bus: bus, clock: clock) {
      TodosFeature(search: search, mutant: mutant)
    }
    model = TodoListModel(store: store)
    self.keystroke = keystroke
    self.step = step
  }

  func start() -> String? {
    "\(store.database.todos.count) to-dos, \(model.openCount.value) open"
  }

  var beats: [Beat] {
    let longest = queries.map(\.count).max() ?? 1
    let typing = (1...longest).map { length in
      Beat(after: length == 1 ? step : keystroke) { self.type(prefixLength: length) }
    }
    return typing + [
      Beat(after: step) { self.showResults() },
      Beat(after: step) { self.toggleFirstResult() },
      Beat(after: step) { self.renameFirstResult() },
      Beat(after: step) { self.completeAllOfFirstAssignee() },
      Beat(after: step) { self.renamePerson() },
      Beat(after: step) { self.clearSearch() },
    ]
  }

  func finish() {
    store.send(.queryChanged(""))
    store.invalidate()
  }

  var inspectedStores: [(id: String, state: () -> Any)] {
    [(store.storeID, { [store] in store.state })]
  }

  // MARK: The user

  private var query: String { queries[round % queries.count] }

  private func type(prefixLength length: Int) -> String? {
    guard length <= query.count else { return nil }
    let text = String(query.prefix(length))
    store.send(.queryChanged(text))
    return "typed \"\(text)\""
  }

  private func showResults() -> String? {
    let rows = model.visibleRows.value
    let shown = rows.prefix(2).joined(separator: ", ")
    return "found \(rows.count) for \"\(store.query)\": \(shown)\(rows.count > 2 ? ", …" : "")"
  }

  private func toggleFirstResult() -> String? {
    guard let id = store.searchResults.first else { return nil }
    store.send(.toggleDoneTapped(id))
    return "ticked #\(id)  (open: \(model.openCount.value))"
  }

  private func renameFirstResult() -> String? {
    guard let id = store.searchResults.first, let todo = store.database.todos[id: id] else { return nil }
    let title = todo.title.hasSuffix("!") ? String(todo.title.dropLast()) : todo.title + "!"
    store.send(.renamed(id, title))
    return "renamed #\(id) to \"\(title)\""
  }

  private func completeAllOfFirstAssignee() -> String? {
    guard let id = store.searchResults.first, let todo = store.database.todos[id: id],
      let person = store.database.assignee(of: todo)
    else { return nil }
    let before = model.openCount.value
    store.send(.completeAllTapped(assignee: person.id))
    return "completed all of \(person.name)'s to-dos  (open: \(before) → \(model.openCount.value))"
  }

  private func renamePerson() -> String? {
    guard let person = store.database.people.first else { return nil }
    let name = person.name == "Alice" ? "Alice B." : "Alice"
    store.send(.personRenamed(person.id, name))
    return "renamed \(person.name) to \(name)"
  }

  private func clearSearch() -> String? {
    round += 1
    store.send(.queryChanged(""))
    return "cleared the search"
  }
}
