/// Every effect a session saw start, as positions only: where it started and where it ended
/// (about 6 bytes an effect where an ``EffectLife`` with its strings took ~250). The rest of an
/// ``EffectLife`` (store, cancel id, source, times, outcome) is in its `effect.started` and
/// end events, read back when asked (``SessionModel/effect(_:)``).
///
/// Effect ids come in increasing order from one program, so an id is found by a binary search
/// over them; an id that comes out of order (two programs' ids, a reused id) switches to a
/// dictionary.
package struct EffectTable: Sendable {
  /// Ids in the order the effects started, while each is above the one before (and fits
  /// in 32 bits), as varint gaps.
  private var increasingIDs = PositionList()
  /// Every id in the order the effects started, once one came out of order, and each id's
  /// (latest) ordinal.
  private var otherIDs: [Int]?
  private var ordinals: [Int: Int32]?
  /// Where each started, as varint gaps (they start in order).
  private var started = PositionList()
  /// The end's position, or -1 while it runs.
  private var ended: [Int32] = []

  package init() {}

  package var count: Int { ended.count }

  /// Ids in the order the effects started.
  package var ids: [Int] { otherIDs ?? increasingIDs.all }

  /// The id of the effect with this ordinal.
  package func id(_ ordinal: Int) -> Int { otherIDs?[ordinal] ?? increasingIDs[ordinal] }

  /// Records effect `id` started at `position`; returns its ordinal.
  @discardableResult
  package mutating func start(_ id: Int, at position: Int) -> Int {
    let ordinal = count
    if otherIDs == nil, id > (increasingIDs.last ?? -1), id <= Int(Int32.max) {
      increasingIDs.append(id)
    } else {
      if otherIDs == nil {
        let ids = increasingIDs.all
        otherIDs = ids
        ordinals = Dictionary(uniqueKeysWithValues: ids.enumerated().map { ($1, Int32($0)) })
        increasingIDs = PositionList()
      }
      otherIDs?.append(id)
      ordinals?[id] = Int32(ordinal)
    }
    started.append(position)
    if ended.count == ended.capacity { ended.reserveCapacity(ended.count + ended.count / 8 + 16) }
    ended.append(-1)
    return ordinal
  }

  /// Records the end of effect `id` at `position` (a later end replaces an earlier one).
  package mutating func end(_ id: Int, at position: Int) {
    guard let ordinal = ordinal(of: id) else { return }
    ended[ordinal] = Int32(position)
  }

  /// The ordinal of effect `id`'s (latest) start.
  package func ordinal(of id: Int) -> Int? {
    if let ordinals { return ordinals[id].map(Int.init) }
    guard id <= Int(Int32.max) else { return nil }
    let before = increasingIDs.count(atOrBefore: id)
    return before > 0 && increasingIDs[before - 1] == id ? before - 1 : nil
  }

  /// Where the effect with this ordinal started and ended.
  package func span(_ ordinal: Int) -> (start: Int, end: Int?) {
    (started[ordinal], ended[ordinal] >= 0 ? Int(ended[ordinal]) : nil)
  }

  /// Whether the effect with this ordinal had started and not ended right after `index`.
  package func isRunning(_ ordinal: Int, at index: Int) -> Bool {
    // The end first: it is an array read, the start a group's decoding.
    (ended[ordinal] < 0 || Int(ended[ordinal]) > index) && started[ordinal] <= index
  }

  /// Bytes of storage (capacity).
  package var bytes: Int {
    increasingIDs.storageBytes + started.storageBytes + ended.capacity * MemoryLayout<Int32>.stride
      + (otherIDs?.capacity ?? 0) * MemoryLayout<Int>.stride
      + (ordinals?.capacity ?? 0) * (MemoryLayout<Int>.stride + MemoryLayout<Int32>.stride)
  }
}
