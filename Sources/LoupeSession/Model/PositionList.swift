/// A growing, sorted list of event positions kept as varint gaps (a byte or two each instead of
/// four), with every ``groupSize``-th position kept whole beside where its group's bytes start,
/// so a search is a binary search over those plus one group's decoding. What ``SessionModel``
/// keeps for each store's events and actions and each source line's events.
package struct PositionList: Sendable {
  private struct Group: Sendable {
    var first: Int32
    /// Where the gaps after `first` start in `bytes`.
    var start: UInt32
  }

  static private let groupSize = 64
  private var groups: [Group] = []
  private var bytes: [UInt8] = []
  package private(set) var count = 0
  package private(set) var last: Int?

  package init() {}

  package var isEmpty: Bool { count == 0 }

  /// Adds `position`, which is above every position in the list.
  package mutating func append(_ position: Int) {
    if count % Self.groupSize == 0 {
      if groups.count == groups.capacity { groups.reserveCapacity(Self.grown(groups.count)) }
      groups.append(Group(first: Int32(position), start: UInt32(bytes.count)))
    } else {
      if bytes.count + 5 > bytes.capacity { bytes.reserveCapacity(Self.grown(bytes.count + 5)) }
      Varint.append(UInt64(position - last!), to: &bytes)
    }
    last = position
    count += 1
  }

  /// A list grows by an eighth (not by doubling, as an array does): a session's lists are its
  /// memory, and most of them are long.
  static private func grown(_ count: Int) -> Int { count + count / 8 + 16 }

  /// The position at `offset` in the list.
  package subscript(offset: Int) -> Int {
    let group = offset / Self.groupSize
    var result = 0
    walk(group: group) { index, position in
      result = position
      return index < offset - group * Self.groupSize
    }
    return result
  }

  /// How many positions are at or before `index`.
  package func count(atOrBefore index: Int) -> Int {
    // The last group whose first position is at or before `index`.
    var low = 0
    var high = groups.count
    while low < high {
      let mid = (low + high) / 2
      if Int(groups[mid].first) <= index { low = mid + 1 } else { high = mid }
    }
    guard low > 0 else { return 0 }
    let group = low - 1
    var counted = 0
    walk(group: group) { _, position in
      guard position <= index else { return false }
      counted += 1
      return true
    }
    return group * Self.groupSize + counted
  }

  /// The last position at or before `index`.
  package func last(atOrBefore index: Int) -> Int? {
    let before = count(atOrBefore: index)
    return before > 0 ? self[before - 1] : nil
  }

  /// The first position after `index`.
  package func first(after index: Int) -> Int? {
    let before = count(atOrBefore: index)
    return before < count ? self[before] : nil
  }

  /// The positions at the offsets in `range`, in order: one decoding from the start of the
  /// group of `range.lowerBound` on, not a search per position.
  package func positions(in range: Range<Int>) -> [Int] {
    let range = range.clamped(to: 0..<count)
    guard !range.isEmpty else { return [] }
    var result: [Int] = []
    result.reserveCapacity(range.count)
    var group = range.lowerBound / Self.groupSize
    while result.count < range.count {
      let base = group * Self.groupSize
      walk(group: group) { index, position in
        if base + index >= range.lowerBound { result.append(position) }
        return result.count < range.count
      }
      group += 1
    }
    return result
  }

  /// Every position, in order.
  package var all: [Int] {
    var result: [Int] = []
    result.reserveCapacity(count)
    for group in groups.indices {
      walk(group: group) { _, position in
        result.append(position)
        return true
      }
    }
    return result
  }

  /// Bytes of storage (capacity).
  package var storageBytes: Int { groups.capacity * MemoryLayout<Group>.stride + bytes.capacity }

  /// Calls `body` with each position of `group` and its index in the group while it returns
  /// true.
  private func walk(group: Int, _ body: (Int, Int) -> Bool) {
    let members = min(Self.groupSize, count - group * Self.groupSize)
    var position = Int(groups[group].first)
    guard body(0, position) else { return }
    var at = Int(groups[group].start)
    for index in 1..<max(1, members) {
      position += Int(Varint.read(bytes, at: &at))
      guard body(index, position) else { return }
    }
  }
}
