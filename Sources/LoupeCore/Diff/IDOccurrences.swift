import Foundation

/// Whether the ids of a plain array's edited elements each occur once in the array, so that
/// an `[id: …]` path names one element. The diff asks it on every action that edits an
/// array of `Identifiable` elements in place, so its cost is one pass over the array:
///
/// - ids of a fixed-width type whose `==` is its bits (`Int`, `UInt`, `Int64`, `UInt64`,
///   `UUID`) stored in the element as a field `id` are read as bytes where they lie and
///   looked up in a small open-addressed table of the edited ones: no element is copied and
///   no `Hasher` runs (100,000 elements: ~3M instructions, against ~35M through `Set` and
///   copies of the elements);
/// - any other id is compared, or hashed, as itself.
enum IDOccurrences {
  /// Whether every id of `ids` is the id of exactly one element (an id listed twice is not
  /// once: `false`).
  static func eachOnce<T: Identifiable>(_ ids: [T.ID], in elements: [T]) -> Bool {
    if let answer = eachOnceByBits(ids, in: elements) { return answer }
    if ids.count <= 8 {
      for (index, id) in ids.enumerated() where ids[..<index].contains(id) { return false }  // edited twice
      var occurrences = 0
      for element in elements { for id in ids where id == element.id { occurrences += 1 } }
      return occurrences == ids.count
    }
    let set = Set(ids)
    guard set.count == ids.count else { return false }
    var occurrences = 0
    for element in elements where set.contains(element.id) { occurrences += 1 }
    return occurrences == ids.count
  }

  /// The answer read from the ids' bytes, or `nil` when the ids are not of a type that
  /// allows it, or not a stored field of the element.
  static func eachOnceByBits<T: Identifiable>(_ ids: [T.ID], in elements: [T]) -> Bool? {
    let idType = T.ID.self
    guard idType == Int.self || idType == UInt.self || idType == Int64.self || idType == UInt64.self || idType == UUID.self
    else { return nil }
    let info = TypeInfo.of(T.self)
    guard info.hasIDField(of: idType), let offset = info.idField?.offset else { return nil }
    let wide = MemoryLayout<T.ID>.size == 16
    var table = BitsTable(capacity: ids.count)
    for id in ids {
      let key = withUnsafeBytes(of: id) { Self.key($0.baseAddress!, wide: wide) }
      guard table.insert(key) else { return false }  // an id edited twice: not once
    }
    let stride = MemoryLayout<T>.stride
    elements.withUnsafeBytes { bytes in
      guard let base = bytes.baseAddress else { return }
      for index in 0..<elements.count { table.count(Self.key(base + (index &* stride &+ offset), wide: wide)) }
    }
    return table.eachCountedOnce
  }

  @inline(__always) static func key(_ p: UnsafeRawPointer, wide: Bool) -> (UInt64, UInt64) {
    (p.loadUnaligned(as: UInt64.self), wide ? p.loadUnaligned(fromByteOffset: 8, as: UInt64.self) : 0)
  }

  /// An open-addressed set of 16-byte keys, each with a count of the times it was met, and
  /// in front of it a bitmap of 64 bits per slot: a key not in the set (nearly every element's)
  /// is turned away by one bit, whatever the table's load. (Without it, a lookup that missed
  /// probed until an empty slot, longer the fuller the table: 64 edits in 100,000 elements
  /// cost more than 65, where the table doubled.)
  struct BitsTable {
    private var keys: [(UInt64, UInt64)]
    private var counts: [Int]  // -1: empty slot
    private let mask: Int
    private var filter: [UInt64]
    private let filterShift: UInt64

    init(capacity: Int) {
      var size = 16
      while size < capacity * 2 { size <<= 1 }
      keys = Array(repeating: (0, 0), count: size)
      counts = Array(repeating: -1, count: size)
      mask = size - 1
      // One word of filter per slot: 64 × size bits, addressed by the hash's top bits.
      filter = Array(repeating: 0, count: size)
      filterShift = UInt64(64 - 6 - size.trailingZeroBitCount)
    }

    @inline(__always) private static func hash(_ key: (UInt64, UInt64)) -> UInt64 {
      (key.0 ^ (key.1 &* 0xC2B2_AE3D_27D4_EB4F)) &* 0x9E37_79B9_7F4A_7C15
    }

    /// Adds `key`; `false` when it was there already.
    mutating func insert(_ key: (UInt64, UInt64)) -> Bool {
      let hash = Self.hash(key)
      var index = Int(truncatingIfNeeded: hash >> 20) & mask
      while counts[index] >= 0 {
        if keys[index] == key { return false }
        index = (index + 1) & mask
      }
      keys[index] = key
      counts[index] = 0
      let bit = Int(truncatingIfNeeded: hash >> filterShift)
      filter[bit >> 6] |= 1 << UInt64(bit & 63)
      return true
    }

    /// Counts one meeting with `key` if it is in the table.
    @inline(__always) mutating func count(_ key: (UInt64, UInt64)) {
      let hash = Self.hash(key)
      let bit = Int(truncatingIfNeeded: hash >> filterShift)
      guard filter[bit >> 6] & (1 << UInt64(bit & 63)) != 0 else { return }
      var index = Int(truncatingIfNeeded: hash >> 20) & mask
      while counts[index] >= 0 {
        if keys[index] == key {
          counts[index] += 1
          return
        }
        index = (index + 1) & mask
      }
    }

    var eachCountedOnce: Bool { !counts.contains { $0 >= 0 && $0 != 1 } }
  }
}
