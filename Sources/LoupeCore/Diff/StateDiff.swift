/// Structural diff of two values of the same type into ``Change``s (CONTRACT §6).
///
/// ```swift
/// var new = state
/// new.count += 1
/// new.todos[id: 3]?.isDone = true
/// StateDiff.diff(state, new)
/// // [{path: "count", op: replace, old: 1, new: 2},
/// //  {path: "todos[id: 3].isDone", op: replace, old: false, new: true}]
/// ```
///
/// - Structs and classes diff field by field (`settings.theme`).
/// - An enum that switches case is one `replace` at its path; the same case diffs its
///   payloads below the case name (`mode.playing.speed`).
/// - An optional that appears is an `insert` (only `new`), one that vanishes a `remove`
///   (only `old`) — at fields and at the root; inside collections it is a `replace` with
///   `null`, since there `insert`/`remove` change the collection's shape.
/// - Dictionaries diff by key (`settings["theme"]`): `remove`, `insert` (with `index`, the
///   member's position in the new rendering) or the diff of the value.
/// - Arrays of `Identifiable` elements (and ``IdentifiedArray``) match elements by id
///   (`todos[id: 3]`): `remove`, `insert` with `index` (the position after the change), moved
///   elements as a `remove` and an `insert`, changed elements diffed below their id.
/// - Other arrays are aligned by equality (Myers), with `insert` and `remove` at `[i]`, and
///   elements paired off in place diffed below `[i]`.
/// - Sets diff as their sorted renderings.
///
/// Applying the changes in order to the rendering of `old` gives the rendering of `new`
/// exactly (``Change/apply(to:)``), as long as neither rendering was cut short by a cap.
///
/// Equal subtrees are skipped without being rendered (`===`, identical storage, `==` of an
/// `Equatable` type — whose `==` is trusted), so the cost follows what changed. A diff that
/// would visit more than ``RenderOptions/maxNodes`` values reports the whole value as one
/// `replace` of its (capped) renderings instead.
public enum StateDiff {
  /// The changes from `old` to `new`, with paths from the root of the state.
  public static func diff<Value>(_ old: Value, _ new: Value, options: RenderOptions = .default) -> [Change] {
    diff(old, new, at: .root, options: options)
  }

  /// The changes from `old` to `new`, two values found at `base` inside a larger state (a
  /// scoped store's child state): every change path starts with `base`, redaction globs are
  /// matched against those full paths, and depth counts from the root. Use
  /// ``Change/relative(to:)`` to report the paths from the child state's own root.
  public static func diff<Value>(_ old: Value, _ new: Value, at base: StatePath, options: RenderOptions = .default) -> [Change] {
    diff(old, new, at: base, options: options, keepsPaths: false).changes
  }

  /// ``diff(_:_:at:options:)``, each change with the shapes of its `old` and `new`
  /// (``Change/oldShape``, ``Change/newShape``): where their enum cases and tuples are, so a
  /// reader prints them as Swift.
  public static func diffWithShapes<Value>(
    _ old: Value, _ new: Value, at base: StatePath = .root, options: RenderOptions = .default
  ) -> [Change] {
    diff(old, new, at: base, options: options, keepsPaths: false, shapes: true).changes
  }

  /// ``diff(_:_:options:)``, with each change's path also as components (`paths[i]` is the
  /// path of `changes[i]`): the store assigns changes to the stores that own their paths
  /// and summarizes them without parsing the text back.
  package static func diffWithPaths<Value>(
    _ old: Value, _ new: Value, options: RenderOptions, shapes: Bool = false, pathTexts: PathTexts? = nil
  ) -> (changes: [Change], paths: [StatePath]) {
    let (changes, paths, _) = diff(old, new, at: .root, options: options, keepsPaths: true, shapes: shapes, pathTexts: pathTexts)
    return (changes, paths ?? [])
  }

  /// ``diffWithPaths(_:_:options:shapes:)`` with only the first component of each path
  /// (`nil` for the root): all a store with no child stores needs to summarize its changes.
  package static func diffWithFirstComponents<Value>(
    _ old: Value, _ new: Value, options: RenderOptions, shapes: Bool = false, pathTexts: PathTexts? = nil
  ) -> (changes: [Change], firsts: [StatePath.Component?]) {
    let (changes, _, firsts) = diff(
      old, new, at: .root, options: options, keepsPaths: false, keepsFirsts: true, shapes: shapes, pathTexts: pathTexts)
    return (changes, firsts ?? [])
  }

  private static func diff<Value>(
    _ old: Value, _ new: Value, at base: StatePath, options: RenderOptions, keepsPaths: Bool, keepsFirsts: Bool = false,
    shapes: Bool = false, pathTexts: PathTexts? = nil
  ) -> (changes: [Change], paths: [StatePath]?, firsts: [StatePath.Component?]?) {
    var differ = Differ(options: options, at: base, keepsPaths: keepsPaths, keepsFirsts: keepsFirsts)
    differ.collectsShapes = shapes
    if let pathTexts {
      differ.pathTexts = pathTexts
      differ.path.adopt(pathTexts.takeComponents())
      if keepsFirsts { differ.firsts = pathTexts.takeFirsts() }
    }
    walk(old, new, &differ)
    pathTexts?.giveBack(components: differ.path.takeBuffer())
    if differ.isExhausted {
      // More values to visit than a rendering may hold (shared instances make a state a DAG
      // that renders — and diffs — every path to them): one replace of the capped renderings.
      let (a, oldShape) = ValueRenderer.renderWithShape(old, at: base, options: options)
      let (b, newShape) = ValueRenderer.renderWithShape(new, at: base, options: options)
      // Equal capped renderings: a change found before the budget ran out is still said.
      if a.isWireIdentical(to: b), differ.changes.isEmpty { return ([], keepsPaths ? [] : nil, keepsFirsts ? [] : nil) }
      let truncated = a.isWireIdentical(to: b)
      var change = Change(path: base.description, op: .replace, old: a, new: b, truncated: truncated)
      if shapes {
        change.oldShape = oldShape.nonEmpty
        change.newShape = newShape.nonEmpty
      }
      return ([change], keepsPaths ? [base] : nil, keepsFirsts ? [base.components.first] : nil)
    }
    return (differ.changes, differ.paths, differ.firsts)
  }

  /// Walks two values with `differ`: in place for a struct or built-in value, through `Any`
  /// for anything else.
  private static func walk<Value>(_ old: Value, _ new: Value, _ differ: inout Differ) {
    let info = TypeInfo.of(Value.self)
    guard info.inPlace != .boxed, MemoryLayout<Value>.size > 0 else {
      differ.diff(old as Any, new as Any)
      return
    }
    // A struct or built-in value of a static type: walked where it lies, nothing boxed.
    withUnsafeBytes(of: old) { a in withUnsafeBytes(of: new) { b in differ.diff(at: a.baseAddress!, b.baseAddress!, info) } }
  }
}

extension Change {
  /// This change with `base` removed from the front of its path: `pages[id: 2].count`
  /// relative to `pages[id: 2]` is `count`. A path outside `base` is returned unchanged.
  public func relative(to base: StatePath) -> Change {
    guard !base.isRoot, let path = try? StatePath(parsing: path), path.hasPrefix(base) else { return self }
    var copy = self
    copy.path = StatePath(Array(path.components.dropFirst(base.components.count))).description
    return copy
  }
}
