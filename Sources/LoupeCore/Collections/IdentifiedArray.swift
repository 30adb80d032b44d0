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
/// **Storage.** The elements sit in chunks of up to ``chunkCapacity``, each a reference of
/// its own, next to the ids in order and each id's position. Changing an element in place
/// (`todos[id: 3]?.isDone = true`) copies only its chunk and the list of chunk references
/// when a copy of the array is alive — as it is while Loupe keeps the state before an
/// action to diff it — never the other elements, and leaves the ids untouched. The diff
/// uses that: chunks that are the same reference hold the same elements, so it looks only
/// at the chunks an action wrote (see `Differ.diffIdentifiedArrays`). Inserting, removing
/// or reordering costs O(n), as in an array.
public struct IdentifiedArray<ID: Hashable, Element> {
  /// The ids in order.
  @usableFromInline var _ids: [ID]
  /// Each id's position in `_ids`.
  @usableFromInline var _positions: [ID: Int]
  /// The elements in order, `chunkCapacity` per chunk (the last may hold fewer).
  @usableFromInline var _chunks: [IdentifiedArrayChunk<Element>]
  // Pure by contract (an id accessor), which is what makes the @unchecked Sendable below sound.
  @usableFromInline let _id: (Element) -> ID

  /// Elements per chunk: an element change copies at most this many elements.
  public static var chunkCapacity: Int { identifiedArrayChunkCapacity }

  /// An empty array identifying elements with `id`.
  public init(id: @escaping (Element) -> ID) {
    _ids = []
    _positions = [:]
    _chunks = []
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
    if index == _ids.count {
      appendNew(element, id: id)
      return true
    }
    var all = elements
    all.insert(element, at: index)
    _ids.insert(id, at: index)
    rebuild(all, renumberFrom: index)
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
    let removed = element(at: index)
    let id = _ids.remove(at: index)
    _positions[id] = nil
    if index == _ids.count {
      // The last element: only the last chunk changes.
      let chunk = _chunks.count - 1
      if _chunks[chunk].elements.count == 1 {
        _chunks.removeLast()
      } else {
        uniqueChunk(chunk).elements.removeLast()
      }
    } else {
      var all = elements
      all.remove(at: index)
      rebuild(all, renumberFrom: index)
    }
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
    rebuild(kept, renumberFrom: 0)
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
    _chunks.removeAll()
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
  public var elements: [Element] {
    var result: [Element] = []
    result.reserveCapacity(_ids.count)
    for chunk in _chunks { result.append(contentsOf: chunk.elements) }
    return result
  }

  // MARK: Storage

  /// The indices of the chunks that are not the same reference in `other` (an array with
  /// as many chunks): compared as plain references, with no generic metadata to look up
  /// per chunk.
  func differingChunks(from other: Self) -> [Int] {
    let a = unsafeBitCast(_chunks, to: [AnyObject].self)
    let b = unsafeBitCast(other._chunks, to: [AnyObject].self)
    var result: [Int] = []
    a.withUnsafeBufferPointer { pa in
      b.withUnsafeBufferPointer { pb in
        for index in 0..<Swift.min(pa.count, pb.count) where pa[index] !== pb[index] { result.append(index) }
      }
    }
    return result
  }

  @inlinable func element(at position: Int) -> Element {
    _chunks[position / identifiedArrayChunkCapacity].elements[position % identifiedArrayChunkCapacity]
  }

  mutating func setElement(_ element: Element, at position: Int) {
    uniqueChunk(position / identifiedArrayChunkCapacity).elements[position % identifiedArrayChunkCapacity] = element
  }

  /// The chunk at `index`, copied first if another array shares it.
  private mutating func uniqueChunk(_ index: Int) -> IdentifiedArrayChunk<Element> {
    if !isKnownUniquelyReferenced(&_chunks[index]) { _chunks[index] = IdentifiedArrayChunk(_chunks[index].elements) }
    return _chunks[index]
  }

  private mutating func appendNew(_ element: Element, id: ID) {
    _positions[id] = _ids.count
    _ids.append(id)
    if let last = _chunks.indices.last, _chunks[last].elements.count < identifiedArrayChunkCapacity {
      uniqueChunk(last).elements.append(element)
    } else {
      var elements = ContiguousArray<Element>()
      elements.reserveCapacity(identifiedArrayChunkCapacity)
      elements.append(element)
      _chunks.append(IdentifiedArrayChunk(elements))
    }
  }

  /// New chunks for `all` (in the order of `_ids`), and the positions of `_ids[start...]`.
  private mutating func rebuild(_ all: [Element], renumberFrom start: Int) {
    _chunks = stride(from: 0, to: all.count, by: identifiedArrayChunkCapacity).map {
      IdentifiedArrayChunk(ContiguousArray(all[$0..<Swift.min($0 + identifiedArrayChunkCapacity, all.count)]))
    }
    for position in start..<_ids.count { _positions[_ids[position]] = position }
  }
}

/// Elements per chunk of an ``IdentifiedArray`` (not a static of the generic type: code that
/// is generic at run time would look up the type's metadata to read it).
@usableFromInline let identifiedArrayChunkCapacity = 64

/// A run of an ``IdentifiedArray``'s elements, shared between copies of the array until one
/// of them writes to it.
// @unchecked: written only through `IdentifiedArray`, which copies a chunk before writing
// when it is not the chunk's only owner.
@usableFromInline final class IdentifiedArrayChunk<Element>: @unchecked Sendable {
  @usableFromInline var elements: ContiguousArray<Element>
  @usableFromInline init(_ elements: ContiguousArray<Element>) { self.elements = elements }
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
}

extension IdentifiedArray: ExpressibleByArrayLiteral where Element: Identifiable, ID == Element.ID {
  public init(arrayLiteral elements: Element...) { self.init(uniqueElements: elements) }
}

extension IdentifiedArray: Equatable where Element: Equatable {
  public static func == (lhs: Self, rhs: Self) -> Bool {
    guard lhs._ids == rhs._ids else { return false }
    for index in lhs.differingChunks(from: rhs) where lhs._chunks[index].elements != rhs._chunks[index].elements {
      return false
    }
    return true
  }
}

extension IdentifiedArray: Hashable where Element: Hashable {
  public func hash(into hasher: inout Hasher) {
    hasher.combine(_ids.count)
    for chunk in _chunks { for element in chunk.elements { hasher.combine(element) } }
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
