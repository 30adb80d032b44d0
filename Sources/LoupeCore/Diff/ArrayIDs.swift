/// The integer ids of one identified array's elements, in the array's order (``IDDirectory``):
/// the id ``JSONEditing/position(of:in:)`` finds each element by, if it is an integer.
///
/// Looking for an element by id reads this column of integers, which lie together, instead
/// of every element's buffer (a cache miss each); an insert finds that its id is not there
/// yet the same way. The first element holding an id is found, as the plain search finds it.
final class ArrayIDs {
  // No dynamic exclusivity checks on the column read for every search by id: it belongs to
  // one directory (``IDDirectory``), used on one thread at a time.
  /// Per element, its integer id, or ``none``.
  @exclusivity(unchecked) private var column: [Int]
  /// Stands for an element without an integer id (an element holding this very integer is
  /// then looked for the plain way).
  private static let none = Int.min

  /// The number of elements.
  var count: Int { column.count }

  /// The ids of `array`, read once.
  init(_ array: [JSON]) {
    column = []
    column.reserveCapacity(array.count)
    for element in array { column.append(Self.id(of: element) ?? Self.none) }
  }

  /// The integer id `[id: X]` finds `element` by, if it has one.
  static func id(of element: JSON) -> Int? {
    guard case .object(let object) = element else { return nil }
    if let first = object.members.first, first.key.utf8.count == 2, first.key == "id" {
      if case .int(let value) = first.value { return value }
      return nil  // the first `id` member is not an integer
    }
    if case .int(let value)? = object["id"] { return value }
    return nil
  }

  /// The position of the first element of `array` (the array this column follows) holding `id`.
  func position(of id: Int, in array: [JSON]) -> Int? {
    if id == Self.none { return JSONEditing.position(of: .int(id), in: array) }
    return column.withUnsafeBufferPointer { ids -> Int? in
      var position = 0
      let count = ids.count
      // Four at a time, with one branch.
      while position + 4 <= count {
        let hits =
          (ids[position] == id ? 1 : 0) | (ids[position + 1] == id ? 1 : 0) | (ids[position + 2] == id ? 1 : 0)
          | (ids[position + 3] == id ? 1 : 0)
        if hits != 0 { break }
        position += 4
      }
      while position < count {
        if ids[position] == id { return position }
        position += 1
      }
      return nil
    }
  }

  /// `element` was put in the array at `position`.
  func inserted(_ element: JSON, at position: Int) {
    column.insert(Self.id(of: element) ?? Self.none, at: position)
  }

  /// The element at `position` was taken out of the array.
  func removed(at position: Int) {
    column.remove(at: position)
  }

  /// The element at `position` was replaced by `element`.
  func replaced(at position: Int, with element: JSON) {
    column[position] = Self.id(of: element) ?? Self.none
  }
}
