/// Loupe's ``IdentifiedArray``s diffed by their storage (``IdentifiedArrayStorage``): what an
/// action wrote, not the array's length.
extension Differ {
  /// Loupe's identified arrays, compared by the chunks and pages of their storage: those that
  /// are the very same reference in both hold the same elements and are not looked into, so
  /// the cost follows what the action wrote, not the array's length. With the ids in the same
  /// order, only the chunks that differ are walked; otherwise (inserts, removals, moves) the
  /// elements both hold in the same chunks at the start and at the end are left out and the
  /// rest is diffed by id (``diffIdentified(oldIDs:newIDs:count:old:new:)``).
  mutating func diffIdentifiedArrays<ID, E>(_ old: IdentifiedArray<ID, E>, _ new: IdentifiedArray<ID, E>) {
    withUnsafePointer(to: old) { old in withUnsafePointer(to: new) { new in diffIdentifiedArrays(at: old, new) } }
  }

  /// ``diffIdentifiedArrays(_:_:)`` of two arrays read where they lie (this runs unspecialized:
  /// a copy of each array would cost its three members' copies and their types' metadata).
  ///
  /// The common case — the same ids in the same order, elements changed in place — asks the
  /// runtime for no type made of `ID` or `E` (an `ID?` anywhere in this function had the
  /// runtime look up `Optional<ID>`'s metadata on every call, ~450 instructions); the other
  /// cases are in functions of their own.
  mutating func diffIdentifiedArrays<ID, E>(at old: UnsafePointer<IdentifiedArray<ID, E>>, _ new: UnsafePointer<IdentifiedArray<ID, E>>) {
    // Each member read once: every access through the pointers would copy it (retains).
    let (oldStorage, newStorage) = (old.pointee._storage, new.pointee._storage)
    // The same id buffer: the same ids in the same order (an array is one reference).
    let sameOrder = unsafeBitCast(old.pointee._ids, to: UInt.self) == unsafeBitCast(new.pointee._ids, to: UInt.self)
    if sameOrder, oldStorage.isIdentical(to: newStorage) { return }
    if old.pointee._ids.count == 0 && new.pointee._ids.count == 0 { return }
    let info = TypeInfo.of(E.self)
    // A struct with a stored `id` of the id's type shows it; anything else is checked on an element.
    if !info.hasIDField(of: ID.self), !showsIDs(old, new) {
      diffPositional(old.pointee.elements, new.pointee.elements)
      return
    }
    if sameOrder || old.pointee._ids == new.pointee._ids {
      if oldStorage.isSmall && newStorage.isSmall {
        // One buffer each, of as many elements as ids (what ``differingRanges(from:)`` says
        // of two small storages, without making an array of one range).
        if oldStorage.small !== newStorage.small {
          diffRun(oldStorage.smallElements, newStorage.smallElements, from: 0, ids: old, info)
        }
        return
      }
      if let ranges = oldStorage.differingRanges(from: newStorage) {
        for range in ranges { diffRun(oldStorage.run(range), newStorage.run(range), from: range.lowerBound, ids: old, info) }
        return
      }
    }
    diffReorderedIdentifiedArrays(at: old, new)
  }

  /// Elements of two runs at `start` of identified arrays with the same ids there, compared
  /// where they lie: those with the same bytes are skipped unread, the others diffed in place
  /// (their own `==` is asked there).
  private mutating func diffRun<ID, E>(
    _ old: ContiguousArray<E>, _ new: ContiguousArray<E>, from start: Int, ids: UnsafePointer<IdentifiedArray<ID, E>>, _ info: TypeInfo
  ) {
    let stride = MemoryLayout<E>.stride
    old.withUnsafeBytes { a in
      new.withUnsafeBytes { b in
        // No size: no bytes to differ.
        guard let a = a.baseAddress, let b = b.baseAddress else { return }
        for offset in 0..<old.count {
          let (pa, pb) = (a + offset * stride, b + offset * stride)
          if info.sameBytes(pa, pb) { continue }
          let position = start + offset
          let id = ids.pointee._ids[position]
          // The commonest ids without a renderer, nor a copy of the options (or, through a
          // method of `self`, of the whole differ), which in this unspecialized code cost
          // more than the rest of the element's visit.
          let key: JSON =
            if ID.self == Int.self {
              .int(unsafeBitCast(id, to: Int.self))
            } else if ID.self == String.self {
              .string(unsafeBitCast(id, to: String.self))
            } else {
              Renderer.renderKey(typed: id, options: options)
            }
          push(.id(key))
          diff(at: pa, pb, info, position: position)
          pop()
        }
      }
    }
  }

  /// Whether the elements of two identified arrays show their ids as an `id` member (asked
  /// of the first element), for elements without a stored `id` of the id's type.
  private func showsIDs<ID, E>(_ old: UnsafePointer<IdentifiedArray<ID, E>>, _ new: UnsafePointer<IdentifiedArray<ID, E>>) -> Bool {
    let sample = old.pointee._ids.isEmpty ? new.pointee._storage.run(0..<1)[0] : old.pointee._storage.run(0..<1)[0]
    return showsID(sample, id: old.pointee._ids.first ?? new.pointee._ids[0])
  }

  /// Two identified arrays whose ids differ (inserts, removals, moves) or whose storages are
  /// not of one shape: the elements both hold in the same chunks at the start and at the end
  /// are left out and the rest is diffed by id.
  private mutating func diffReorderedIdentifiedArrays<ID, E>(
    at old: UnsafePointer<IdentifiedArray<ID, E>>, _ new: UnsafePointer<IdentifiedArray<ID, E>>
  ) {
    let (oldStorage, newStorage) = (old.pointee._storage, new.pointee._storage)
    let (prefix, suffix) = oldStorage.sharedEnds(with: newStorage)
    let oldMiddle = oldStorage.elements(in: prefix..<(old.pointee.count - suffix))
    let newMiddle = newStorage.elements(in: prefix..<(new.pointee.count - suffix))
    diffIdentified(
      oldIDs: old.pointee._ids[prefix..<(old.pointee.count - suffix)], newIDs: new.pointee._ids[prefix..<(new.pointee.count - suffix)],
      count: max(old.pointee.count, new.pointee.count), old: { oldMiddle[$0 - prefix] }, new: { newMiddle[$0 - prefix] })
  }
}
