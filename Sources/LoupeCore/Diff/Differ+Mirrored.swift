/// Collections that Loupe knows only by their mirror — swift-identified-collections'
/// `IdentifiedArray`, swift-collections' `Deque`, `OrderedSet` and `OrderedDictionary`, any
/// type whose `customMirror` has a collection display style — diff as the collections they
/// render as: element by element (by id when the elements are `Identifiable`), entry by
/// entry, so that a change anywhere is found, past the rendering's caps too. The package
/// depends on none of them: they are recognised by shape.
extension Differ {
  /// A value whose mirror is not a plain object: a collection, a dictionary or a set by its
  /// display style; anything else by its renderings.
  mutating func diffMirrored(_ old: Any, _ new: Any, _ oldMirror: Mirror, _ newMirror: Mirror) {
    switch (oldMirror.displayStyle, newMirror.displayStyle) {
    case (.collection?, .collection?):
      guard let a = boundedChildren(oldMirror), let b = boundedChildren(newMirror) else { return }
      diffElements(a.map(\.value), b.map(\.value))
    case (.dictionary?, .dictionary?):
      guard let oldChildren = boundedChildren(oldMirror), let newChildren = boundedChildren(newMirror) else { return }
      guard let a = renderedEntries(oldChildren), let b = renderedEntries(newChildren) else {
        diffRenderingsOfDifferentValues(old, new)
        return
      }
      diffEntries(a, b)
    case (.set?, .set?):
      // Rendered sorted by content: positional over the renderings, like `Set`.
      diffRenderingsOfDifferentValues(old, new)
    default:
      diffRenderings(old, new)
    }
  }

  /// A mirror's children, read no further than the node budget left: a mirror may compute
  /// them on demand (ten million virtual elements), and diffing them would visit each. With
  /// more than that, `nil`, and the walk is exhausted (the state is reported as one replace of
  /// its capped renderings, see ``StateDiff``).
  mutating func boundedChildren(_ mirror: Mirror) -> [Mirror.Child]? {
    let limit = max(0, options.maxNodes - visits)
    var children: [Mirror.Child] = []
    for child in mirror.children {
      if children.count == limit {
        isExhausted = true
        return nil
      }
      children.append(child)
    }
    return children
  }

  /// Elements held as `Any`: when they all have one type, as an array of it (by id when
  /// `Identifiable`, see ``diffArrays(_:_:)``); otherwise positionally.
  mutating func diffElements(_ old: [Any], _ new: [Any]) {
    guard let sample = old.first ?? new.first else { return }
    let type = Swift.type(of: sample)
    guard old.allSatisfy({ Swift.type(of: $0) == type }), new.allSatisfy({ Swift.type(of: $0) == type }) else {
      diffPositional(old, new)
      return
    }
    func open<T>(_: T.Type) {
      diffArrays(old.map { $0 as! T }, new.map { $0 as! T })
    }
    _openExistential(type, do: open)
  }

  /// A dictionary's entries from its mirror (children that are `(key, value)` pairs), keyed
  /// by the text of their rendered keys; `nil` when a child is not a pair or two keys render
  /// alike.
  private func renderedEntries(_ children: [Mirror.Child]) -> [Spelling: (key: JSON, value: Any)]? {
    var entries: [Spelling: (key: JSON, value: Any)] = [:]
    for child in children {
      let parts = Array(Mirror(reflecting: child.value).children)
      guard parts.count == 2 else { return nil }
      let key = Renderer.renderKey(parts[0].value, options: options)
      let text = Spelling(Renderer.keyText(key))
      guard entries.updateValue((key, parts[1].value), forKey: text) == nil else { return nil }
    }
    return entries
  }

  /// Entries by rendered key, as ``diffDictionaries(_:_:)`` diffs a dictionary.
  private mutating func diffEntries(_ old: [Spelling: (key: JSON, value: Any)], _ new: [Spelling: (key: JSON, value: Any)]) {
    let capped = max(old.count, new.count) > options.maxCollectionCount
    if capped { cuts += 1 }
    defer { if capped { cuts -= 1 } }
    let removed = old.filter { new[$0.key] == nil }.map(\.value).sorted { JSONOrder.areInIncreasingOrder($0.key, $1.key) }
    for entry in removed {
      push(.key(Renderer.keyText(entry.key)))
      record(.remove, old: renderOld(entry.value))
      pop()
    }
    let sorted = new.values.sorted { JSONOrder.areInIncreasingOrder($0.key, $1.key) }
    for (position, entry) in sorted.enumerated() {
      let text = Renderer.keyText(entry.key)
      push(.key(text))
      if let previous = old[Spelling(text)] {
        if !Reflection.bitwiseEqual(previous.value, entry.value) { diff(previous.value, entry.value) }
      } else {
        record(.insert, new: renderNew(entry.value), index: position)
      }
      pop()
    }
  }
}

extension JSON {
  /// Whether this value is, or holds at any depth, the string `text`.
  func contains(string text: String) -> Bool {
    switch self {
    case .string(let string): string == text
    case .array(let elements): elements.contains { $0.contains(string: text) }
    case .object(let object): object.members.contains { $0.value.contains(string: text) }
    default: false
    }
  }
}
