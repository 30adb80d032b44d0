import Foundation

/// The collection diffs: positional arrays, identified elements and dictionaries.
extension Differ {
  /// An array: by id when its elements are `Identifiable` (see ``diffIdentified``), else
  /// positionally with inserts and removals.
  mutating func diffArrays<E>(_ old: [E], _ new: [E]) {
    if Reflection.identicalBits(old, new) { return }
    if old.count == new.count, Self.positionsWithDifferentBits(old, new, limit: 0) == [] { return }
    if let identifiable = E.self as? any Identifiable.Type {
      func open<T: Identifiable>(_: T.Type) -> Bool {
        diffIdentifiable(unsafeBitCast(old, to: [T].self), unsafeBitCast(new, to: [T].self))
      }
      if open(identifiable) { return }
    }
    diffPositional(old, new)
  }

  /// A plain array of `Identifiable` elements, matched by id. Returns `false` (and records
  /// nothing) when ids are not unique or the elements do not show their id as an `id`
  /// member, where an `[id: …]` path could not be followed in the rendering.
  private mutating func diffIdentifiable<T: Identifiable>(_ old: [T], _ new: [T]) -> Bool {
    guard let sample = old.first ?? new.first, showsID(sample, id: sample.id) else { return false }
    // The common case: same ids in the same places, some elements changed in place. Only the
    // elements whose bytes differ are looked at, and only their ids checked for uniqueness
    // (one pass over the ids: ``IDOccurrences``).
    if old.count == new.count, let changed = Self.positionsWithDifferentBits(old, new, limit: .max),
      changed.allSatisfy({ old[$0].id == new[$0].id })
    {
      let same = Reflection.sameness(T.self)
      let edits = changed.filter { !same(old[$0], new[$0]) }
      if edits.isEmpty { return true }
      guard IDOccurrences.eachOnce(edits.map { old[$0].id }, in: old) else { return false }
      for position in edits {
        push(.id(Renderer.renderKey(old[position].id, options: options)))
        diff(old[position], new[position], at: position)
        pop()
      }
      return true
    }
    let oldIDs = old.map(\.id)
    let newIDs = new.map(\.id)
    guard Set(oldIDs).count == oldIDs.count, Set(newIDs).count == newIDs.count else { return false }
    diffIdentified(oldIDs: oldIDs, newIDs: newIDs, old: { old[$0] }, new: { new[$0] })
    return true
  }

  /// The positions where two arrays of the same length hold elements with different bytes,
  /// compared in place; `nil` when there are more than `limit`.
  static func positionsWithDifferentBits<E>(_ old: [E], _ new: [E], limit: Int = 64) -> [Int]? {
    let info = TypeInfo.of(E.self)
    let stride = MemoryLayout<E>.stride
    var positions: [Int] = []
    let withinLimit = old.withUnsafeBytes { a in
      new.withUnsafeBytes { b in
        guard !info.meaningfulBytes.isEmpty, let pa = a.baseAddress, let pb = b.baseAddress else { return true }
        for index in 0..<min(old.count, new.count) where !info.sameBytes(pa + index &* stride, pb + index &* stride) {
          positions.append(index)
          if positions.count > limit { return false }
        }
        return true
      }
    }
    return withinLimit ? positions : nil
  }

  /// The entries whose values differ between two dictionaries with the same keys, found by
  /// walking both in step — which works when one is a copy of the other with values changed
  /// (the same buckets in the same order), and needs no hashing. `nil` when the walks do not
  /// line up.
  static func changedValues<K, V>(_ old: [K: V], _ new: [K: V]) -> [(key: K, old: V, new: V)]? {
    guard old.count == new.count else { return nil }
    let same = Reflection.sameness(V.self)
    let spelledAlike = Reflection.wireEquality(K.self)
    var changed: [(key: K, old: V, new: V)] = []
    var a = old.makeIterator()
    var b = new.makeIterator()
    while let (oldKey, oldValue) = a.next(), let (newKey, newValue) = b.next() {
      guard oldKey == newKey, spelledAlike?(oldKey, newKey) ?? true else { return nil }
      if same(oldValue, newValue) { continue }
      changed.append((oldKey, oldValue, newValue))
    }
    return changed
  }

  /// Whether `element` renders its id as an `id` member equal to `id`'s rendering, so that
  /// a reader can find `[id: X]` in the rendered array.
  func showsID(_ element: Any, id: Any) -> Bool {
    let info = TypeInfo.of(type(of: element))
    guard info.kind == .struct || info.kind == .class, !info.isBuiltin, !info.isRedacted, !info.isCustom else { return false }
    // A struct's `id` field is loaded alone from its memory, with no other field boxed.
    if info.kind == .struct, let field = info.fields?.first(where: { $0.label == "id" }),
      let value = TypeInfo.withAddress(of: element, { $0.map { TypeInfo.load(field.type, at: $0 + field.offset) } })
    {
      return Renderer.renderKey(value, options: options) == Renderer.renderKey(id, options: options)
    }
    let fields: [(label: String, value: Any)]
    if info.fields != nil {
      fields = info.fieldValues(of: element)
    } else {
      let mirror = Mirror(reflecting: element)
      switch mirror.displayStyle {
      case nil, .struct?, .class?: break
      default: return false
      }
      fields = Reflection.fields(of: mirror)
    }
    guard let field = fields.first(where: { $0.label == "id" }) else { return false }
    return Renderer.renderKey(field.value, options: options) == Renderer.renderKey(id, options: options)
  }

  /// Identified elements, matched by id (unique on each side).
  ///
  /// Recorded in this order, which replays exactly:
  /// 1. `remove` for every element that vanished or moved, in old order;
  /// 2. walking the new order: `insert` (with `index`, the element's position in the new
  ///    array) for every element that appeared or moved, and the element diff of every
  ///    element that stayed in place and changed.
  ///
  /// Elements that "stayed" are the longest run of common elements that kept their relative
  /// order; the rest count as moved (a `remove` and an `insert`).
  mutating func diffIdentified<ID: Hashable, E>(oldIDs: [ID], newIDs: [ID], old: (Int) -> E, new: (Int) -> E) {
    diffIdentified(oldIDs: oldIDs[...], newIDs: newIDs[...], count: max(oldIDs.count, newIDs.count), old: old, new: new)
  }

  /// ``diffIdentified(oldIDs:newIDs:old:new:)`` of a run of two collections of up to `count`
  /// elements whose elements before and after the run are the same in both (same ids, same
  /// values, same positions counted from each end): positions are the slices' indices, so
  /// those of the whole collections.
  mutating func diffIdentified<ID: Hashable, E>(
    oldIDs: ArraySlice<ID>, newIDs: ArraySlice<ID>, count: Int, old: (Int) -> E, new: (Int) -> E
  ) {
    let same = Reflection.sameness(E.self)
    if oldIDs == newIDs {
      for position in oldIDs.indices {
        let a = old(position)
        let b = new(position)
        if same(a, b) { continue }
        push(.id(Renderer.renderKey(oldIDs[position], options: options)))
        diff(a, b, at: position)
        pop()
      }
      return
    }
    // An insert or a removal in a collection longer than the cap moves elements across the
    // cut: the capped rendering cannot follow it exactly.
    let shifts = count > options.maxCollectionCount
    let base = oldIDs.startIndex
    // Loops over positions (`Range<Int>`), never over the ids themselves: this code runs
    // unspecialized, where iterating a generic collection (`zip`, a slice's iterator) costs
    // thousands of instructions per element in witness calls and metadata lookups.
    var oldPositions: [ID: Int] = [:]
    oldPositions.reserveCapacity(oldIDs.count)
    for position in oldIDs.indices { oldPositions[oldIDs[position]] = position }
    var commonOld: [Int] = []
    commonOld.reserveCapacity(newIDs.count)
    for position in newIDs.indices { if let oldPosition = oldPositions[newIDs[position]] { commonOld.append(oldPosition) } }
    var stays = [Bool](repeating: false, count: oldIDs.count)
    for index in Self.longestIncreasingSubsequence(commonOld) { stays[commonOld[index] - base] = true }

    for position in oldIDs.indices where !stays[position - base] {
      push(.id(Renderer.renderKey(oldIDs[position], options: options)))
      record(.remove, old: renderOld(old(position)), truncated: shifts)
      pop()
    }
    for position in newIDs.indices {
      let id = newIDs[position]
      if let oldPosition = oldPositions[id], stays[oldPosition - base] {
        let a = old(oldPosition)
        let b = new(position)
        if same(a, b) { continue }
        push(.id(Renderer.renderKey(id, options: options)))
        diff(a, b, at: position)
        pop()
      } else {
        push(.id(Renderer.renderKey(id, options: options)))
        record(.insert, new: renderNew(new(position)), index: position, truncated: shifts)
        pop()
      }
    }
  }

  /// Indices into `values` of one longest strictly increasing subsequence. O(n log n).
  static func longestIncreasingSubsequence(_ values: [Int]) -> [Int] {
    var tails: [Int] = []  // tails[l] = index of the smallest tail of an increasing run of length l+1
    var previous = [Int](repeating: -1, count: values.count)
    for (index, value) in values.enumerated() {
      var low = 0
      var high = tails.count
      while low < high {
        let mid = (low + high) / 2
        if values[tails[mid]] < value { low = mid + 1 } else { high = mid }
      }
      if low > 0 { previous[index] = tails[low - 1] }
      if low == tails.count { tails.append(index) } else { tails[low] = index }
    }
    var result: [Int] = []
    var index = tails.last ?? -1
    while index >= 0 {
      result.append(index)
      index = previous[index]
    }
    return result.reversed()
  }

  /// Diffs an element at `position` of its collection: past ``RenderOptions/maxCollectionCount``
  /// its changes are `truncated` (a capped rendering does not hold it).
  mutating func diff(_ old: Any, _ new: Any, at position: Int) {
    let cut = position >= options.maxCollectionCount
    if cut { cuts += 1 }
    diff(old, new)
    if cut { cuts -= 1 }
  }

  /// Positional elements: aligned by equality (``SequenceDiff``), then per changed run:
  /// elements paired off in place are diffed (`[i].field`), extra old ones removed, extra new
  /// ones inserted. `[i]` is always the element's position at the moment the change is
  /// replayed, which is its position in the new array.
  mutating func diffPositional<E>(_ old: [E], _ new: [E]) {
    let equal: (Int, Int) -> Bool
    let info = TypeInfo.of(E.self)
    if info.trustedEquatable != nil || info.wireEquatable != nil {
      let same = Reflection.sameness(E.self)
      equal = { same(old[$0], new[$1]) }
    } else {
      // Not `Equatable`, or its `==` may call values equal that render differently: the
      // renderings, as the wire writes them, say.
      let renderings = ElementRenderings(differ: self, old: old, new: new)
      equal = { Reflection.identicalBits(old[$0], new[$1]) || renderings.old($0).isWireIdentical(to: renderings.new($1)) }
    }
    let shifts = max(old.count, new.count) > options.maxCollectionCount
    var cursor = 0
    for segment in SequenceDiff.segments(oldCount: old.count, newCount: new.count, equal: equal) {
      if segment.isEqual {
        cursor += segment.new.count
        continue
      }
      let paired = min(segment.old.count, segment.new.count)
      for offset in 0..<paired {
        push(.index(cursor))
        diff(old[segment.old.lowerBound + offset], new[segment.new.lowerBound + offset], at: cursor)
        pop()
        cursor += 1
      }
      for offset in paired..<segment.old.count {
        push(.index(cursor))
        record(.remove, old: renderOld(old[segment.old.lowerBound + offset]), truncated: shifts)
        pop()
      }
      for offset in paired..<segment.new.count {
        push(.index(cursor))
        record(.insert, new: renderNew(new[segment.new.lowerBound + offset]), truncated: shifts)
        pop()
        cursor += 1
      }
    }
  }

  /// Dictionaries by key: `remove` for vanished keys, then in the rendered key order the
  /// diff of changed values and an `insert` (with `index`, the member's position in the new
  /// rendering) for new keys.
  mutating func diffDictionaries<K, V>(_ old: [K: V], _ new: [K: V]) {
    if Reflection.identicalBits(old, new) { return }
    // Past the cap, which members a rendering shows depends on the order of all the keys:
    // every change in the dictionary is marked rather than each key ranked.
    let capped = max(old.count, new.count) > options.maxCollectionCount
    if capped { cuts += 1 }
    defer { if capped { cuts -= 1 } }
    let same = Reflection.sameness(V.self)
    // A copy with values changed in place walks in step with its original: no hashing.
    if old.count == new.count, let inStep = Self.changedValues(old, new) {
      var changed = inStep.map { (key: Renderer.renderKey($0.key, options: options), old: $0.old, new: $0.new) }
      changed.sort { JSONOrder.areInIncreasingOrder($0.key, $1.key) }
      for entry in changed {
        push(.key(Renderer.keyText(entry.key)))
        diff(entry.old, entry.new)
        pop()
      }
      return
    }
    // Keys `==` calls equal but spelled differently (`"é"` and `"e\u{301}"`, `0.0` and
    // `-0.0`) render as different members: the old one is removed, the new one inserted.
    let spelledAlike = Reflection.wireEquality(K.self)
    func lookup(_ key: K, in dictionary: [K: V]) -> V? {
      guard let index = dictionary.index(forKey: key) else { return nil }
      let found = dictionary[index]
      return spelledAlike?(found.key, key) ?? true ? found.value : nil
    }
    var removed: [(key: JSON, value: V)] = []
    var changed: [(key: JSON, old: V, new: V)] = []
    for (key, value) in old {
      if let other = lookup(key, in: new) {
        if !same(value, other) { changed.append((Renderer.renderKey(key, options: options), value, other)) }
      } else {
        removed.append((Renderer.renderKey(key, options: options), value))
      }
    }
    removed.sort { JSONOrder.areInIncreasingOrder($0.key, $1.key) }
    for entry in removed {
      push(.key(Renderer.keyText(entry.key)))
      record(.remove, old: renderOld(entry.value))
      pop()
    }
    if new.count == old.count - removed.count {
      changed.sort { JSONOrder.areInIncreasingOrder($0.key, $1.key) }
      for entry in changed {
        push(.key(Renderer.keyText(entry.key)))
        diff(entry.old, entry.new)
        pop()
      }
      return
    }
    var entries = new.map { (key: Renderer.renderKey($0.key, options: options), rawKey: $0.key, value: $0.value) }
    entries.sort { JSONOrder.areInIncreasingOrder($0.key, $1.key) }
    for (position, entry) in entries.enumerated() {
      if let previous = lookup(entry.rawKey, in: old) {
        if same(previous, entry.value) { continue }
        push(.key(Renderer.keyText(entry.key)))
        diff(previous, entry.value)
        pop()
      } else {
        push(.key(Renderer.keyText(entry.key)))
        record(.insert, new: renderNew(entry.value), index: position)
        pop()
      }
    }
  }
}

/// Lazily rendered elements of two arrays whose element type is not `Equatable`, each at its
/// own position, for aligning them by rendering.
private final class ElementRenderings<E> {
  let options: RenderOptions
  let base: StatePath
  let oldAncestors: [(object: ObjectIdentifier, depth: Int)]
  let newAncestors: [(object: ObjectIdentifier, depth: Int)]
  let oldValues: [E]
  let newValues: [E]
  var oldCache: [JSON?]
  var newCache: [JSON?]

  init(differ: Differ, old: [E], new: [E]) {
    options = differ.options
    base = differ.path.path
    oldAncestors = differ.oldAncestors
    newAncestors = differ.newAncestors
    oldValues = old
    newValues = new
    oldCache = Array(repeating: nil, count: old.count)
    newCache = Array(repeating: nil, count: new.count)
  }

  func old(_ index: Int) -> JSON {
    if let cached = oldCache[index] { return cached }
    var renderer = Renderer(options: options, at: base / .index(index), ancestors: oldAncestors)
    let json = renderer.render(oldValues[index])
    oldCache[index] = json
    return json
  }

  func new(_ index: Int) -> JSON {
    if let cached = newCache[index] { return cached }
    var renderer = Renderer(options: options, at: base / .index(index), ancestors: newAncestors)
    let json = renderer.render(newValues[index])
    newCache[index] = json
    return json
  }
}
