/// Every effect a session saw start, as positions only: where it started and where it ended
/// (16 bytes an effect where an ``EffectLife`` with its strings took ~250). The rest of an
/// ``EffectLife`` (store, cancel id, source, times, outcome) is in its `effect.started` and
/// end events, read back when asked (``SessionModel/effect(_:)``).
///
/// Effect ids come in increasing order from one program, so an id is found by a binary search
/// over them; an id that comes out of order (two programs' ids, a reused id) switches to a
/// dictionary.
package struct EffectTable: Sendable {
  /// Ids in the order the effects started.
  package private(set) var ids: [Int] = []
  private var started: [Int32] = []
  /// The end's position, or -1 while it runs.
  private var ended: [Int32] = []
  /// Id → ordinal, once an id came out of order (the latest start of a reused id).
  private var ordinals: [Int: Int32]?

  package init() {}

  package var count: Int { ids.count }

  /// Records effect `id` started at `position`; returns its ordinal.
  @discardableResult
  package mutating func start(_ id: Int, at position: Int) -> Int {
    let ordinal = ids.count
    if ordinals == nil, let last = ids.last, id <= last {
      ordinals = Dictionary(ids.enumerated().map { ($1, Int32($0)) }, uniquingKeysWith: { _, latest in latest })
    }
    ordinals?[id] = Int32(ordinal)
    ids.append(id)
    started.append(Int32(position))
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
    var low = 0
    var high = ids.count
    while low < high {
      let mid = (low + high) / 2
      if ids[mid] < id { low = mid + 1 } else { high = mid }
    }
    return low < ids.count && ids[low] == id ? low : nil
  }

  /// Where the effect with this ordinal started and ended.
  package func span(_ ordinal: Int) -> (start: Int, end: Int?) {
    (Int(started[ordinal]), ended[ordinal] >= 0 ? Int(ended[ordinal]) : nil)
  }

  /// Whether the effect with this ordinal had started and not ended right after `index`.
  package func isRunning(_ ordinal: Int, at index: Int) -> Bool {
    Int(started[ordinal]) <= index && (ended[ordinal] < 0 || Int(ended[ordinal]) > index)
  }

  /// Bytes of storage (capacity).
  package var bytes: Int {
    ids.capacity * MemoryLayout<Int>.stride + (started.capacity + ended.capacity) * MemoryLayout<Int32>.stride
      + (ordinals?.capacity ?? 0) * (MemoryLayout<Int>.stride + MemoryLayout<Int32>.stride)
  }
}
