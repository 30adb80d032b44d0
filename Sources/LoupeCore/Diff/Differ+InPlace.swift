/// The walk over values where they lie: fields inside the values being diffed, elements in a
/// collection's buffer. Structs are compared field by field at their offsets and built-in
/// values by their rule reading both addresses, so nothing is boxed into an `Any` (an
/// allocation, a copy and a release each) until it must be rendered. Every other kind is
/// loaded and takes the general walk (``Differ/diff(_:_:)``), which gives the same changes.
extension Differ {
  /// ``diff(_:_:)`` of two values of `info`'s type at `old` and `new`.
  mutating func diff(at old: UnsafeRawPointer, _ new: UnsafeRawPointer, _ info: TypeInfo) {
    spend(1)
    if collectsShapes { pendingShapes = (nil, nil) }
    if isExhausted { return }
    // The depth cap and redaction decide from the path alone; the general walk has their rules.
    if info.inPlace == .boxed || path.count >= options.maxDepth || isRedactedHere {
      diffVisited(info.load(old), info.load(new))
      return
    }
    // Identical bytes: nothing to see (for scalars the only comparison before rendering).
    if info.sameBytes(old, new) { return }
    if info.inPlace == .builtin {
      info.diffBuiltinInPlace!(old, new, &self)
      return
    }
    if let equal = info.equalInPlace, equal(old, new) { return }
    diffFields(at: old, new, info)
  }

  /// A struct's stored fields compared in place: a field whose meaningful bytes are the same
  /// holds the same scalars and references (it renders the same), so it is skipped without
  /// being read; the others are diffed where they lie.
  mutating func diffFields(at old: UnsafeRawPointer, _ new: UnsafeRawPointer, _ info: TypeInfo) {
    // Callers pass structs with `fields`, whose `fieldBytes` and `fieldInfos` are set.
    let fields = info.fields!
    let fieldBytes = info.fieldBytes!
    let fieldInfos = info.fieldInfos!
    for index in fields.indices {
      if Reflection.sameBytes(old, new, fieldBytes[index]) {
        spend(1)  // visited, as the walk into it would count it
        continue
      }
      let offset = fields[index].offset
      push(.field(fields[index].label))
      diff(at: old + offset, new + offset, fieldInfos[index])
      pop()
    }
  }

  /// ``diff(at:_:_:)`` of an element at `position` of its collection: past
  /// ``RenderOptions/maxCollectionCount`` its changes are `truncated`.
  mutating func diff(at old: UnsafeRawPointer, _ new: UnsafeRawPointer, _ info: TypeInfo, position: Int) {
    let cut = position >= options.maxCollectionCount
    if cut { cuts += 1 }
    diff(at: old, new, info)
    if cut { cuts -= 1 }
  }
}
