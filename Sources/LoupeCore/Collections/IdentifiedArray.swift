/// An ordered collection of `Identifiable` elements with O(1) lookup by id.
///
/// The state of a list feature: `forEach` reducers route actions to elements by id, the diff
/// matches elements by id (paths like `todos[id: 3].title`), and scoped child stores keep their
/// identity for as long as their element stays in the array.
///
/// ```swift
/// var todos: IdentifiedArrayOf<Todo> = [Todo(id: 1, title: "Milk")]
/// todos[id: 1]?.isDone = true
/// todos.remove(id: 1)
/// ```
///
/// Ids are unique: appending an element whose id is already present replaces nothing and
/// returns `false` from ``append(_:)``; use `self[id:] = element` to replace.
public struct IdentifiedArray<ID: Hashable, Element> {
  @usableFromInline var _ids: [ID]
  @usableFromInline var _storage: [ID: Element]
  // Pure by contract (an id accessor), which is what makes the @unchecked Sendable below sound.
  @usableFromInline let _id: (Element) -> ID

  /// An empty array identifying elements with `id`.
  public init(id: @escaping (Element) -> ID) {
    _ids = []
    _storage = [:]
    _id = id
  }

  /// Builds an array from `elements`; a later element with an id already seen is dropped.
  public init(_ elements: some Sequence<Element>, id: @escaping (Element) -> ID) {
    self.init(id: id)
    for element in elements { append(element) }
  }

  /// The ids, in order.
  public var ids: [ID] { _ids }

  /// The element with `id`. Setting `nil` removes it; setting an element with a new id appends it.
  public subscript(id id: ID) -> Element? {
    get { _storage[id] }
    set {
      if let newValue {
        precondition(_id(newValue) == id, "IdentifiedArray: the element's id does not match the subscript's id")
        if _storage.updateValue(newValue, forKey: id) == nil { _ids.append(id) }
      } else {
        remove(id: id)
      }
    }
  }

  /// Appends `element` unless its id is already present. Returns whether it was appended.
  @discardableResult
  public mutating func append(_ element: Element) -> Bool {
    let id = _id(element)
    guard _storage[id] == nil else { return false }
    _storage[id] = element
    _ids.append(id)
    return true
  }

  /// Inserts `element` at `index` unless its id is already present.
  @discardableResult
  public mutating func insert(_ element: Element, at index: Int) -> Bool {
    let id = _id(element)
    guard _storage[id] == nil else { return false }
    _storage[id] = element
    _ids.insert(id, at: index)
    return true
  }

  /// Removes and returns the element with `id`, if present.
  @discardableResult
  public mutating func remove(id: ID) -> Element? {
    guard let element = _storage.removeValue(forKey: id) else { return nil }
    if let index = _ids.firstIndex(of: id) { _ids.remove(at: index) }
    return element
  }

  @discardableResult
  public mutating func remove(at index: Int) -> Element {
    let id = _ids.remove(at: index)
    return _storage.removeValue(forKey: id)!
  }

  public mutating func remove(atOffsets offsets: some Sequence<Int>) {
    for index in Set(offsets).sorted(by: >) { remove(at: index) }
  }

  public mutating func removeAll(where shouldRemove: (Element) throws -> Bool) rethrows {
    var kept: [ID] = []
    kept.reserveCapacity(_ids.count)
    for id in _ids {
      if try shouldRemove(_storage[id]!) { _storage[id] = nil } else { kept.append(id) }
    }
    _ids = kept
  }

  public mutating func removeAll() {
    _ids.removeAll()
    _storage.removeAll()
  }

  /// The position of the element with `id`. O(n).
  public func index(id: ID) -> Int? { _ids.firstIndex(of: id) }

  public mutating func move(fromOffsets source: some Sequence<Int>, toOffset destination: Int) {
    let moving = Set(source)
    let moved = moving.sorted().map { _ids[$0] }
    let before = _ids.prefix(destination).enumerated().filter { moving.contains($0.offset) }.count
    _ids = _ids.enumerated().filter { !moving.contains($0.offset) }.map(\.element)
    _ids.insert(contentsOf: moved, at: destination - before)
  }

  public mutating func sort(by areInIncreasingOrder: (Element, Element) throws -> Bool) rethrows {
    try _ids.sort { try areInIncreasingOrder(_storage[$0]!, _storage[$1]!) }
  }

  /// The elements as a plain array.
  public var elements: [Element] { _ids.map { _storage[$0]! } }
}

extension IdentifiedArray where Element: Identifiable, ID == Element.ID {
  public init() { self.init(id: { $0.id }) }
  public init(uniqueElements elements: some Sequence<Element>) { self.init(elements, id: { $0.id }) }
}

/// An identified array of `Identifiable` elements.
public typealias IdentifiedArrayOf<Element: Identifiable> = IdentifiedArray<Element.ID, Element>

extension IdentifiedArray: RandomAccessCollection, MutableCollection {
  public var startIndex: Int { 0 }
  public var endIndex: Int { _ids.count }
  public subscript(position: Int) -> Element {
    get { _storage[_ids[position]]! }
    set {
      precondition(_id(newValue) == _ids[position], "IdentifiedArray: an element's id cannot change in place")
      _storage[_ids[position]] = newValue
    }
  }
}

extension IdentifiedArray: ExpressibleByArrayLiteral where Element: Identifiable, ID == Element.ID {
  public init(arrayLiteral elements: Element...) { self.init(uniqueElements: elements) }
}

extension IdentifiedArray: Equatable where Element: Equatable {
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs._ids == rhs._ids && lhs._storage == rhs._storage
  }
}

extension IdentifiedArray: Hashable where Element: Hashable {
  public func hash(into hasher: inout Hasher) {
    hasher.combine(_ids.count)
    for id in _ids { hasher.combine(_storage[id]!) }
  }
}

extension IdentifiedArray: @unchecked Sendable where ID: Sendable, Element: Sendable {}

extension IdentifiedArray: CustomReflectable {
  /// Reflects as its elements in order, like an array.
  public var customMirror: Mirror { Mirror(self, unlabeledChildren: elements, displayStyle: .collection) }
}

extension IdentifiedArray: CustomStringConvertible {
  public var description: String { elements.description }
}
