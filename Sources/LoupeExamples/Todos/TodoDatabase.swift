import Loupe

/// A to-do item. Its assignee is a reference into the people table, not a copy.
struct Todo: Equatable, Identifiable, Sendable, Codable {
  let id: Int
  var title: String
  var isDone = false
  var assigneeID: Person.ID
}

/// Someone to-dos are assigned to.
struct Person: Equatable, Identifiable, Sendable, Codable {
  let id: Int
  var name: String
}

/// Normalized storage (seed 004's `VergeNormalization`): one table per entity, relations by
/// id, so renaming a person is one change and not one per to-do.
struct TodoDatabase: Equatable, Sendable, Codable {
  var todos: IdentifiedArrayOf<Todo> = []
  var people: IdentifiedArrayOf<Person> = []

  /// The assignee of `todo`.
  func assignee(of todo: Todo) -> Person? { people[id: todo.assigneeID] }

  /// A deterministic database of `count` to-dos shared among a few people.
  static func sample(count: Int) -> TodoDatabase {
    let names = ["Alice", "Bob", "Chen", "Dana", "Emil", "Fatima", "Goro", "Hana"]
    let verbs = ["Buy", "Call", "Fix", "Pay", "Plan", "Read", "Review", "Write", "Book", "Clean"]
    let things = [
      "milk", "the landlord", "the bike", "rent", "the trip", "chapter 3", "the pull request", "the report",
      "a table", "the garage", "tickets", "the budget", "the slides", "a dentist", "the roof",
    ]
    var database = TodoDatabase()
    for (index, name) in names.enumerated() {
      database.people.append(Person(id: index + 1, name: name))
    }
    for id in 1...max(count, 1) {
      let verb = verbs[(id * 7) % verbs.count]
      let thing = things[(id * 11 + id / verbs.count) % things.count]
      database.todos.append(
        Todo(id: id, title: "\(verb) \(thing) #\(id)", isDone: id % 5 == 0, assigneeID: (id * 3) % names.count + 1))
    }
    return database
  }
}
