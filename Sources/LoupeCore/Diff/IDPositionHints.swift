/// Where elements were last found by `[id: X]`, so that a rebuild applying change after
/// change to the same large identified arrays (`items[id: 483].rows[id: 7]`) finds an element
/// where it was, or one place off after an insert or removal before it, instead of searching
/// the array each time: a search reads every element's buffer, a cache miss each.
///
/// A hint is only a guess, checked before it is used. It is exact for the arrays Loupe writes
/// `[id: X]` paths into, whose ids are unique (the differ falls back to positions when they
/// are not; an insert of an id already present fails): there the element found is the only
/// one with that id, as the search would find. Integer ids only; any other id is searched.
///
/// Not thread-safe: one rebuild at a time (it belongs to a ``StateRebuilder`` caller's index).
package final class IDPositionHints {
  private struct Key: Hashable {
    var depth: Int
    var id: Int
  }

  private var positions: [Key: Int] = [:]
  /// At most this many hints are kept (then all are forgotten and found again).
  static let limit = 1 << 16

  package init() {}

  /// The position of the element of `array` whose `id` member is `id`; `depth` tells arrays
  /// apart (the number of path components before `[id: X]`).
  func position(of id: JSON, in array: [JSON], depth: Int) -> Int? {
    guard case .int(let wanted) = id else { return JSONEditing.position(of: id, in: array) }
    let key = Key(depth: depth, id: wanted)
    if let guess = positions[key] {
      for candidate in [guess, guess - 1, guess + 1] where array.indices.contains(candidate) {
        if JSONEditing.element(array[candidate], hasID: wanted) {
          if candidate != guess { positions[key] = candidate }
          return candidate
        }
      }
    }
    guard let found = JSONEditing.position(of: id, in: array) else { return nil }
    if positions.count >= Self.limit { positions.removeAll(keepingCapacity: true) }
    positions[key] = found
    return found
  }
}
