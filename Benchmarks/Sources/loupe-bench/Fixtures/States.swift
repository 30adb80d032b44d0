import Loupe

/// The states the diff and send benchmarks work on: shaped like a TCA feature's state.
enum Fixtures {
  // MARK: A nested app state

  struct AppState: Equatable {
    var user = User()
    var tabs = Tabs()
    var search = Search()
    var counter = Counter()
    var settings: [String: String] = ["theme": "dark", "language": "en", "region": "EU"]
    var destination: Destination? = .detail(Detail(id: 7, title: "Seven"))
  }

  struct User: Equatable {
    var id = 42
    var name = "Blob"
    var email = "blob@example.com"
    var preferences = Preferences()
  }

  struct Preferences: Equatable {
    var fontSize = 14
    var notifications = true
    var accent = "blue"
  }

  struct Tabs: Equatable {
    enum Tab: Equatable { case home, search, profile }
    var selected = Tab.home
    var badges = [0, 3, 1]
  }

  struct Search: Equatable {
    var query = "swift"
    var isLoading = false
    var results: [Result] = (1...20).map { Result(id: $0, title: "Result \($0)", score: Double($0) / 3) }
  }

  struct Result: Equatable, Identifiable {
    var id: Int
    var title: String
    var score: Double
  }

  struct Counter: Equatable {
    var count = 0
    var step = 1
    var history: [Int] = Array(0..<20)
  }

  struct Detail: Equatable {
    var id: Int
    var title: String
  }

  enum Destination: Equatable {
    case detail(Detail)
    case alert(String)
  }

  /// The nested state and a copy with one leaf changed deep inside.
  static func nestedPair() -> (AppState, AppState) {
    let old = AppState()
    var new = old
    new.user.preferences.fontSize += 1
    return (old, new)
  }

  // MARK: A list of identified elements

  struct Todo: Equatable, Identifiable {
    var id: Int
    var title: String
    var isDone: Bool
    var tags: [String]
  }

  struct TodosState: Equatable {
    var todos: IdentifiedArrayOf<Todo>
    var filter = "all"
  }

  /// A list of `count` todos and a copy with one element's field changed in the middle.
  static func todosPair(count: Int) -> (TodosState, TodosState) {
    todosPair(count: count, edit: .change)
  }

  enum Edit: String, CaseIterable { case change, insert, remove }

  /// One element of `count` changed, inserted or removed in the middle.
  static func todosPair(count: Int, edit: Edit) -> (TodosState, TodosState) {
    let todos = IdentifiedArrayOf<Todo>(
      uniqueElements: (0..<count).map { Todo(id: $0, title: "Todo number \($0)", isDone: $0 % 3 == 0, tags: ["home"]) })
    let old = TodosState(todos: todos)
    var new = old
    switch edit {
    case .change: new.todos[id: count / 2]!.isDone.toggle()
    case .insert: new.todos.insert(Todo(id: -1, title: "New", isDone: false, tags: []), at: count / 2)
    case .remove: new.todos.remove(id: count / 2)
    }
    return (old, new)
  }

  /// A plain array of `count` identifiable elements with `changed` of them changed, spread out.
  static func plainPair(count: Int, changed: Int) -> ([Todo], [Todo]) {
    let old = (0..<count).map { Todo(id: $0, title: "Todo number \($0)", isDone: false, tags: []) }
    var new = old
    for k in 0..<changed { new[k * (count / changed)].isDone = true }
    return (old, new)
  }
}
