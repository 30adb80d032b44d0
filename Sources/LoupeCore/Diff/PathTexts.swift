/// The texts of the paths a store's changes were recorded at lately, kept by the store's
/// runtime from one action to the next: a program's actions mostly change the same few
/// fields (`rows[id: 3].isDone`), and a change's path is then the text made last time, not a
/// new string. At 10 rows, writing the text (a string of its own, freed again by the trace
/// writer) was ~900 of a recorded send's instructions; finding it here costs ~100.
///
/// 64 slots, each found from its path's components (the bits of their strings and numbers);
/// a slot keeps the components it was made of, and its text is given only when they are
/// `==` to those asked for, so a text is always the one ``StatePath`` writes. Paths of more
/// than ``maxComponents`` components are written each time.
///
/// It also keeps the two buffers a diff fills as it walks, for the next diff: the path's
/// components (``PathStack``) and the changes' first components (what the summary line is
/// made of), which were two allocations and two frees per recorded action.
///
/// Not thread-safe: one runtime's diffs use it, one at a time (on the main actor).
package final class PathTexts {
  static let slots = 64
  static let maxComponents = 8

  // No dynamic exclusivity checks (they were a third of a lookup): only the one diff using
  // it at a time touches these.
  /// Empty until the first text is asked for (a store that is never recorded makes none).
  @exclusivity(unchecked) private var keys: [[StatePath.Component]?] = []
  @exclusivity(unchecked) private var texts: [String] = []

  @exclusivity(unchecked) private var spareComponents: [StatePath.Component] = []
  @exclusivity(unchecked) private var spareFirsts: [StatePath.Component?] = []

  package init() {}

  /// The components buffer the last diff gave back, emptied (its capacity kept).
  func takeComponents() -> [StatePath.Component] {
    var buffer: [StatePath.Component] = []
    swap(&buffer, &spareComponents)
    Self.empty(&buffer)
    return buffer
  }

  func giveBack(components: consuming [StatePath.Component]) { spareComponents = components }

  /// The first-components buffer the last diff's caller gave back, emptied.
  package func takeFirsts() -> [StatePath.Component?] {
    var buffer: [StatePath.Component?] = []
    swap(&buffer, &spareFirsts)
    Self.empty(&buffer)
    return buffer
  }

  /// Removes every element, keeping the capacity: one `removeLast()` at a time for the
  /// few a diff leaves (`removeAll(keepingCapacity:)` costs ~100–230 instructions even then).
  static func empty<T>(_ buffer: inout [T]) {
    guard buffer.count <= 16 else { return buffer.removeAll(keepingCapacity: true) }
    while !buffer.isEmpty { buffer.removeLast() }
  }

  /// Keeps `firsts` (from ``StateDiff/diffWithFirstComponents(_:_:options:shapes:pathTexts:)``,
  /// once read) for the next diff.
  package func giveBack(firsts: consuming [StatePath.Component?]) { spareFirsts = firsts }

  /// `StatePath(components).description`.
  func text(of components: [StatePath.Component]) -> String {
    guard components.count <= Self.maxComponents else { return StatePath.text(of: components) }
    if keys.isEmpty {
      keys = Array(repeating: nil, count: Self.slots)
      texts = Array(repeating: "", count: Self.slots)
    }
    let slot = Self.slot(of: components)
    if let key = keys[slot], key == components { return texts[slot] }
    let text = StatePath.text(of: components)
    // A copy of its own: kept here, the caller's array (a path stack that goes on) would be
    // copied at its next change instead.
    var key: [StatePath.Component] = []
    key.reserveCapacity(components.count)
    key.append(contentsOf: components)
    keys[slot] = key
    texts[slot] = text
    return text
  }

  /// The slot of `components`: from their cases, numbers and the bits of their strings (a
  /// field's name is the same string at every action, from its type's cached ``TypeInfo``).
  /// Equal paths with differently stored strings may land in different slots: then the
  /// text is written again, never a wrong one given.
  static func slot(of components: [StatePath.Component]) -> Int {
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325 ^ UInt64(components.count)
    func mix(_ value: UInt64) { hash = (hash ^ value) &* 0x0000_0100_0000_01B3 }
    func mix(_ string: String) {
      guard MemoryLayout<String>.size == 16 else { return mix(UInt64(string.utf8.count)) }
      let (a, b) = unsafeBitCast(string, to: (UInt64, UInt64).self)
      mix(a)
      mix(b)
    }
    for component in components {
      switch component {
      case .field(let name): mix(name)
      case .index(let index): mix(UInt64(bitPattern: Int64(index)) ^ 0x1)
      case .key(let key): mix(key); mix(0x2)
      case .id(let id):
        switch id {
        case .int(let int): mix(UInt64(bitPattern: Int64(int)) ^ 0x3)
        case .string(let string): mix(string); mix(0x4)
        default: mix(0x5)
        }
      }
    }
    return Int(truncatingIfNeeded: (hash >> 32) ^ hash) & (slots - 1)
  }
}
