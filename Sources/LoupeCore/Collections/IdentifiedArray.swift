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
///
/// **Storage.** The elements sit in chunks of about 16, gathered in pages, each a reference
/// shared between copies of the array until one of them writes to it (see
/// `IdentifiedArrayStorage`; up to 32 elements, one buffer with no pages); next to them, the ids in order and each id's position. Changing
/// an element in place (`todos[id: 3]?.isDone = true`) while a copy of the array is alive — as
/// it is while Loupe keeps the state before an action to diff it — copies only its chunk and
/// its page, and leaves the ids untouched; inserting or removing one element changes one
/// chunk and shifts no other element (the ids and positions after it are renumbered, O(n)
/// as in an array). The diff uses that: chunks that are the same reference hold the same
/// elements, so it looks only at the chunks an action wrote (see
/// `Differ.diffIdentifiedArrays`).
public struct IdentifiedArray<ID: Hashable, Element> {
  /// The ids in order.
  @usableFromInline var _ids: [ID]
  /// Each id's position in `_ids`.
  @usableFromInline var _positions: [ID: Int]
  /// The elements in order.
  var _storage: IdentifiedArrayStorage<Element>
  // Pure by contract (an id accessor), which is what makes the @unchecked Sendable below sound.
  @usableFromInline let _id: (Element) -> ID

  /// Elements per chunk when appended: an element change copies about this many elements.
  public static var chunkCapacity: Int { IdentifiedArrayStorage<Element>.chunkFill }

  /// An empty array identifying elements with `id`.
  public init(id: @escaping (Element) -> ID) {
    _ids = []
    _positions = [:]
    _storage = IdentifiedArrayStorage()
    _id = id
  }

  /// Builds an array from `elements`; a later element with an id already seen is dropped.
  public init(_ elements: some Sequence<Element>, id: @escaping (Element) -> ID) {
    self.init(id: id)
    var kept: [Element] = []
    for element in elements {
      let id = id(element)
      guard _positions[id] == nil else { continue }
      _positions[id] = _ids.count
      _ids.append(id)
      kept.append(element)
    }
    _storage = IdentifiedArrayStorage(kept)
  }

  /// The ids, in order.
  public var ids: [ID] { _ids }

  /// The element with `id`. Setting `nil` removes it; setting an element with a new id appends it.
  public subscript(id id: ID) -> Element? {
    get { _positions[id].map { element(at: $0) } }
    set {
      if let newValue {
        precondition(_id(newValue) == id, "IdentifiedArray: the element's id does not match the subscript's id")
        if let position = _positions[id] {
          setElement(newValue, at: position)
        } else {
          appendNew(newValue, id: id)
        }
      } else {
        remove(id: id)
      }
    }
  }

  /// Appends `element` unless its id is already present. Returns whether it was appended.
  @discardableResult
  public mutating func append(_ element: Element) -> Bool {
    let id = _id(element)
    guard _positions[id] == nil else { return false }
    appendNew(element, id: id)
    return true
  }

  /// Inserts `element` at `index` unless its id is already present.
  @discardableResult
  public mutating func insert(_ element: Element, at index: Int) -> Bool {
    let id = _id(element)
    guard _positions[id] == nil else { return false }
    precondition(index >= 0 && index <= _ids.count, "IdentifiedArray: index out of range")
    _storage.insert(element, at: index)
    _ids.insert(id, at: index)
    renumber(from: index)
    return true
  }

  /// Removes and returns the element with `id`, if present.
  @discardableResult
  public mutating func remove(id: ID) -> Element? {
    guard let position = _positions[id] else { return nil }
    return remove(at: position)
  }

  @discardableResult
  public mutating func remove(at index: Int) -> Element {
    precondition(index >= 0 && index < _ids.count, "IdentifiedArray: index out of range")
    let removed = _storage.remove(at: index)
    let id = _ids.remove(at: index)
    _positions[id] = nil
    renumber(from: index)
    return removed
  }

  public mutating func remove(atOffsets offsets: some Sequence<Int>) {
    let removing = Set(offsets)
    guard !removing.isEmpty else { return }
    var kept: [Element] = []
    kept.reserveCapacity(_ids.count - removing.count)
    for (position, element) in elements.enumerated() where !removing.contains(position) { kept.append(element) }
    for position in removing { _positions[_ids[position]] = nil }
    _ids = _ids.enumerated().filter { !removing.contains($0.offset) }.map(\.element)
    rebuild(kept, renumberFrom: removing.min()!)
  }

  public mutating func removeAll(where shouldRemove: (Element) throws -> Bool) rethrows {
    var kept: [Element] = []
    var keptIDs: [ID] = []
    kept.reserveCapacity(_ids.count)
    keptIDs.reserveCapacity(_ids.count)
    for (id, element) in zip(_ids, elements) {
      if try shouldRemove(element) { _positions[id] = nil } else { kept.append(element); keptIDs.append(id) }
    }
    guard keptIDs.count != _ids.count else { return }
    _ids = keptIDs
    rebuild(kept, renumberFrom: 0)
  }

  public mutating func removeAll() {
    _ids.removeAll()
    _positions.removeAll()
    _storage = IdentifiedArrayStorage()
  }

  /// The position of the element with `id`. O(1).
  public func index(id: ID) -> Int? { _positions[id] }

  public mutating func move(fromOffsets source: some Sequence<Int>, toOffset destination: Int) {
    let moving = Set(source)
    let all = elements
    let moved = moving.sorted().map { all[$0] }
    let before = (0..<destination).filter { moving.contains($0) }.count
    var rest = all.enumerated().filter { !moving.contains($0.offset) }.map(\.element)
    rest.insert(contentsOf: moved, at: destination - before)
    _ids = rest.map(_id)
    rebuild(rest, renumberFrom: 0)
  }

  public mutating func sort(by areInIncreasingOrder: (Element, Element) throws -> Bool) rethrows {
    let sorted = try elements.sorted(by: areInIncreasingOrder)
    _ids = sorted.map(_id)
    rebuild(sorted, renumberFrom: 0)
  }

  /// The elements as a plain array.
  public var elements: [Element] { _storage.elements }

  // MARK: Storage

  func element(at position: Int) -> Element { _storage.element(at: position) }

  mutating func setElement(_ element: Element, at position: Int) { _storage.set(element, at: position) }

  private mutating func appendNew(_ element: Element, id: ID) {
    _positions[id] = _ids.count
    _ids.append(id)
    _storage.append(element)
  }

  /// The positions of `_ids[start...]`.
  private mutating func renumber(from start: Int) {
    for position in start..<_ids.count { _positions[_ids[position]] = position }
  }

  /// New storage for `all` (in the order of `_ids`), and the positions of `_ids[start...]`.
  private mutating func rebuild(_ all: [Element], renumberFrom start: Int) {
    _storage = IdentifiedArrayStorage(all)
    renumber(from: start)
  }
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
    get { element(at: position) }
    set {
      precondition(_id(newValue) == _ids[position], "IdentifiedArray: an element's id cannot change in place")
      setElement(newValue, at: position)
    }
  }

  /// Walks the chunks: no lookup of each position.
  public func makeIterator() -> Iterator { Iterator(_storage) }
}

extension IdentifiedArray: ExpressibleByArrayLiteral where Element: Identifiable, ID == Element.ID {
  public init(arrayLiteral elements: Element...) { self.init(uniqueElements: elements) }
}

extension IdentifiedArray: Equatable where Element: Equatable {
  /// Equal ids in the same order and equal elements; chunks both arrays share are not looked
  /// into, and elements with the same bytes are not compared (as an array's `==` takes a
  /// shared buffer as equal: the same holds for a `Double.nan` in both).
  public static func == (lhs: Self, rhs: Self) -> Bool {
    guard lhs._ids == rhs._ids else { return false }
    if lhs._storage.isIdentical(to: rhs._storage) { return true }
    let ranges = lhs._storage.differingRanges(from: rhs._storage) ?? {
      let (prefix, suffix) = lhs._storage.sharedEnds(with: rhs._storage)
      return [prefix..<(lhs.count - suffix)]
    }()
    for range in ranges where !elementsEqual(lhs._storage.run(range), rhs._storage.run(range)) { return false }
    return true
  }

  /// `==` of two runs of elements, each pair's bytes compared first: this runs unspecialized,
  /// where every element's `==` is a call through its conformance.
  private static func elementsEqual(_ a: ContiguousArray<Element>, _ b: ContiguousArray<Element>) -> Bool {
    guard a.count == b.count else { return false }
    let info = TypeInfo.of(Element.self)
    let stride = MemoryLayout<Element>.stride
    return a.withUnsafeBytes { bytesA in
      b.withUnsafeBytes { bytesB in
        // No size: nothing to differ but what `==` says.
        guard let baseA = bytesA.baseAddress, let baseB = bytesB.baseAddress else { return a == b }
        for index in 0..<a.count {
          let (pa, pb) = (baseA + index * stride, baseB + index * stride)
          if info.sameBytes(pa, pb) { continue }
          if !Reflection.equal(pa, pb, as: Element.self) { return false }
        }
        return true
      }
    }
  }
}

extension IdentifiedArray: Hashable where Element: Hashable {
  public func hash(into hasher: inout Hasher) {
    hasher.combine(_ids.count)
    for element in self { hasher.combine(element) }
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
