/// One structural diff pass: walks two values of the same type side by side and records a
/// ``Change`` wherever their renderings differ, in an order that ``Change/apply(to:)`` can
/// replay on the old rendering to get the new one.
///
/// Equal subtrees are skipped before anything is rendered: class instances that are `===`,
/// values with identical bits (copies of the same array, dictionary or string storage), and
/// values whose type is `Equatable` and `==`. Only what changed is ever rendered, by a
/// ``Renderer`` positioned at the change's path, so the change carries exactly the JSON the
/// whole state renders there.
struct Differ {
  // (The initializer is in an extension so that the memberwise one stays: see there.)
  let options: RenderOptions
  var path: PathStack
  var changes: [Change] = []
  /// When not `nil`, `paths[i]` is the path of `changes[i]` as components (see
  /// ``StateDiff/diffWithPaths(_:_:options:)``).
  var paths: [StatePath]?
  /// When not `nil`, `firsts[i]` is the first component of `changes[i]`'s path (`nil` for the
  /// root): all a store without child stores needs to summarize its changes, at no cost of a
  /// path per change (see ``StateDiff/diffWithFirstComponents(_:_:options:shapes:)``).
  var firsts: [StatePath.Component?]?
  /// Class instances entered on each side, with the path length where each sits, so the
  /// renderings of changed subtrees mark cycles exactly as a whole rendering does.
  var oldAncestors: [(object: ObjectIdentifier, depth: Int)] = []
  var newAncestors: [(object: ObjectIdentifier, depth: Int)] = []
  let redacting: Bool
  /// Values visited so far. Past ``RenderOptions/maxNodes`` the walk stops and
  /// ``isExhausted`` is set: a value whose diff would cost more than its rendering is
  /// reported as replaced whole (see ``StateDiff``).
  var visits = 0
  var isExhausted = false
  /// How many elements past ``RenderOptions/maxCollectionCount`` (or dictionaries over it)
  /// enclose the current path: changes recorded while it is positive are marked `truncated`.
  var cuts = 0
  /// A probe only asks whether anything differs, with no caps and no redaction: it stops at
  /// the first change (see ``rawEqual(_:_:)``).
  var isProbe = false
  /// Whether changes carry the shapes of their `old` and `new` (``ValueShape``): each
  /// rendering made here collects one, and ``record(_:old:new:index:truncated:)`` attaches it.
  var collectsShapes = false
  /// The shapes of the last renderings of each side, until a change takes them.
  var pendingShapes: (old: ValueShape?, new: ValueShape?) = (nil, nil)
  /// Where changes' path texts are found when made before (a store's runtime keeps one
  /// across actions); `nil`: each is written.
  var pathTexts: PathTexts?

  var isRedactedHere: Bool { redacting && options.redactedPaths.anyMatches(path.text) }

  // MARK: - Rendering and recording

  /// Renders an old value at the current path; its nodes count against the budget.
  mutating func renderOld(_ value: Any) -> JSON {
    var renderer = Renderer(options: options, at: path.path, ancestors: oldAncestors)
    if collectsShapes { renderer.shapes = ShapeCollector(origin: path.count) }
    let json = renderer.render(value)
    spend(renderer.nodes)
    if collectsShapes { pendingShapes.old = renderer.shapes?.shape.nonEmpty }
    return json
  }

  /// Renders a new value at the current path; its nodes count against the budget.
  mutating func renderNew(_ value: Any) -> JSON {
    var renderer = Renderer(options: options, at: path.path, ancestors: newAncestors)
    if collectsShapes { renderer.shapes = ShapeCollector(origin: path.count) }
    let json = renderer.render(value)
    spend(renderer.nodes)
    if collectsShapes { pendingShapes.new = renderer.shapes?.shape.nonEmpty }
    return json
  }

  mutating func spend(_ count: Int) {
    visits += count
    if visits > options.maxNodes { isExhausted = true }
  }

  mutating func record(_ op: Change.Op, old: JSON? = nil, new: JSON? = nil, index: Int? = nil, truncated: Bool = false) {
    if isProbe {
      isExhausted = true  // found one: the probe's answer is known
      changes.append(Change(path: "", op: op))
      return
    }
    // The renderings just made here are this change's `old` and `new` (a value made without a
    // renderer — a scalar, `null`, a marker — has no enum or tuple in it).
    var shapes: (old: ValueShape?, new: ValueShape?) = (nil, nil)
    if collectsShapes {
      if old != nil && old != .null { shapes.old = pendingShapes.old }
      if new != nil && new != .null { shapes.new = pendingShapes.new }
      pendingShapes = (nil, nil)
    }
    // Made in the array, not beside it: a change is a large value, and a copy and a destroy of
    // it cost more than the rest of recording it.
    changes.append(
      Change(
        path: pathTexts.map { path.text(using: $0) } ?? path.text, op: op, old: old, new: new, index: index, truncated: truncated || cuts > 0, oldShape: shapes.old,
        newShape: shapes.new))
    paths?.append(path.path)
    firsts?.append(path.components.first)
  }

  /// Gives the changes from `first` on — made by ``JSONDiff`` from the last two renderings —
  /// the parts of those renderings' shapes below their paths.
  mutating func shapeRenderingDiff(from first: Int) {
    guard collectsShapes else { return }
    defer { pendingShapes = (nil, nil) }
    guard pendingShapes.old != nil || pendingShapes.new != nil else { return }
    let base = path.count
    for index in first..<changes.count {
      guard let full = paths?[index].components ?? (try? StatePath(parsing: changes[index].path).components) else { continue }
      let relative = Array(full.dropFirst(base))
      // JSONDiff names array elements by their position in the new rendering.
      if changes[index].old != nil { changes[index].oldShape = pendingShapes.old?.descending(relative, positionsHold: false) }
      if changes[index].new != nil { changes[index].newShape = pendingShapes.new?.descending(relative, positionsHold: true) }
    }
  }

  /// Records a `replace` here whose renderings do not show the change (a cap hides it):
  /// `old` and `new` are the capped renderings, maybe equal, and the change is `truncated`.
  mutating func recordHidden(_ old: Any, _ new: Any) {
    record(.replace, old: renderOld(old), new: renderNew(new), truncated: true)
  }

  /// Whether an optional appearing or vanishing here is an `insert` or `remove`: at the root
  /// and at named members (struct fields, labelled tuple elements, enum payloads), where the
  /// member stays and only its value turns `null`. Inside collections it is a `replace`,
  /// because there `insert` and `remove` change the collection's shape.
  var isMemberPosition: Bool {
    switch path.components.last {
    case nil, .field?: true
    case .index?, .id?, .key?: false
    }
  }

  mutating func push(_ component: StatePath.Component) { path.push(component) }
  mutating func pop() { path.pop() }

  /// Records the JSON diff of two renderings made here, with their paths and shapes; returns
  /// the index of its first change.
  private mutating func recordRenderingDiff(_ a: JSON, _ b: JSON) -> Int {
    let first = changes.count
    JSONDiff.diff(a, b, at: path.path, into: &changes, paths: &paths)
    if firsts != nil {
      // Below the root every change here starts with the path's first component.
      let here = path.components.first
      for index in first..<changes.count {
        firsts!.append(here ?? (try? StatePath(parsing: changes[index].path))?.components.first)
      }
    }
    shapeRenderingDiff(from: first)
    return first
  }

  /// Renders both values here and records the JSON diff of the renderings: the answer for
  /// leaves, and the fallback wherever the structure cannot be followed.
  mutating func diffRenderings(_ old: Any, _ new: Any) {
    let a = renderOld(old)
    let b = renderNew(new)
    if !a.isWireIdentical(to: b) {
      if isProbe { return record(.replace) }
      let first = recordRenderingDiff(a, b)
      if cuts > 0 { for index in first..<changes.count { changes[index].truncated = true } }
    }
  }

  /// ``diffRenderings(_:_:)`` for two values known to differ (a set, a JSON value, a value at
  /// the depth cap) whose capped renderings may hide the difference: then one `truncated`
  /// `replace` says that something changed here.
  mutating func diffRenderingsOfDifferentValues(_ old: Any, _ new: Any) {
    let a = renderOld(old)
    let b = renderNew(new)
    if a.isWireIdentical(to: b) {
      // A probe renders with no caps: equal renderings are equal values.
      if !isProbe { record(.replace, old: a, new: b, truncated: true) }
    } else {
      if isProbe { return record(.replace) }
      let first = recordRenderingDiff(a, b)
      if cuts > 0 { for index in first..<changes.count { changes[index].truncated = true } }
    }
  }

  /// Records a `replace` here if two renderings made without a renderer (of scalars, whose
  /// rendering depends on nothing else) differ. They count against the budget as
  /// ``renderOld(_:)`` and ``renderNew(_:)`` would count them.
  mutating func replaceIfDifferent(rendered a: JSON, _ b: JSON) {
    spend(2)
    pendingShapes = (nil, nil)
    if !a.isWireIdentical(to: b) { record(.replace, old: a, new: b) }
  }

  /// Records a `replace` of two renderings of values known to differ: `truncated` when a cap
  /// (a string's length) made the renderings equal.
  mutating func replaceDifferent(rendered a: JSON, _ b: JSON) {
    spend(2)
    pendingShapes = (nil, nil)
    record(.replace, old: a, new: b, truncated: a.isWireIdentical(to: b))
  }

  /// Records a `replace` here if the renderings differ, or a `truncated` one if they are
  /// equal only because a cap cut them (`Data` past ``RenderOptions/maxStringLength``): for
  /// built-in values, whose `==` (or bytes) say what they hold.
  mutating func replaceIfDifferentOrHidden(_ old: Any, _ new: Any) {
    let a = renderOld(old)
    let b = renderNew(new)
    if !a.isWireIdentical(to: b) {
      record(.replace, old: a, new: b)
    } else if !isProbe, !(Reflection.wireEqual(old, new) ?? Reflection.equatableEqual(old, new) ?? true) {
      record(.replace, old: a, new: b, truncated: true)
    }
  }

  /// Records a `replace` of two hidden values if they differ; the session's ledger notes both
  /// (see ``RedactedTexts``).
  mutating func recordRedacted(_ old: Any, _ new: Any) {
    guard !rawEqual(old, new) else { return }
    if let ledger = options.redactedTexts {
      ledger.note(old)
      ledger.note(new)
    }
    record(.replace, old: .string(RenderMarker.redacted), new: .string(RenderMarker.redacted))
  }

  /// Records a `replace` here if the renderings differ.
  mutating func replaceIfDifferent(_ old: Any, _ new: Any) {
    let a = renderOld(old)
    let b = renderNew(new)
    if !a.isWireIdentical(to: b) { record(.replace, old: a, new: b) }
  }

  /// Whether two values are equal with no cap and no redaction applied: identical bits, the
  /// wire's equality for strings and numbers, `==`, or else a probe — a diff with no caps
  /// that looks inside `LoupeRedacted` values and stops at the first difference. Its
  /// renderings are kept in memory only to compare. A probe that runs out of its node budget
  /// answers "not equal": a change is reported rather than lost.
  func rawEqual(_ old: Any, _ new: Any) -> Bool {
    if Reflection.bitwiseEqual(old, new) { return true }
    if let equal = Reflection.wireEqual(old, new) { return equal }
    if let equal = Reflection.trustedEqual(old, new) { return equal }
    var probe = Differ(options: Self.probeOptions(options), at: path.path)
    probe.isProbe = true
    probe.oldAncestors = oldAncestors
    probe.newAncestors = newAncestors
    probe.diff(old, new)
    return !probe.isExhausted && probe.changes.isEmpty
  }

  /// The options of a probe: the node budget kept, no other cap, no redaction.
  static func probeOptions(_ options: RenderOptions) -> RenderOptions {
    // Deep enough for any state a cap was made for; shallow enough for any thread's stack.
    RenderOptions(
      maxDepth: max(options.maxDepth, 32) * 8, maxCollectionCount: Int.max, maxStringLength: Int.max, maxNodes: options.maxNodes,
      redactedPaths: [])
  }

  // MARK: - The walk

  /// Diffs the two values at the current path.
  mutating func diff(_ old: Any, _ new: Any) {
    spend(1)
    if collectsShapes { pendingShapes = (nil, nil) }
    if isExhausted { return }
    diffVisited(old, new)
  }

  /// ``diff(_:_:)`` once the visit is counted.
  mutating func diffVisited(_ old: Any, _ new: Any) {
    if path.count >= options.maxDepth {
      // A probe this deep cannot tell: it answers "different", so a change is never lost.
      if isProbe { return record(.replace) }
      // The walk stops here; what lies below renders as depth markers. A difference hidden
      // below them is still reported: one `truncated` replace of the capped renderings.
      if !rawEqual(old, new) { diffAtDepthCap(old, new) }
      return
    }
    if isRedactedHere {
      recordRedacted(old, new)
      return
    }
    diffContent(old, new, substitutions: 0)
  }

  /// Two different values at the depth cap: the diff of their capped renderings, every
  /// change `truncated` when a depth marker stands for what lies below (something hidden may
  /// have changed there too); one `truncated` replace when the renderings are equal.
  private mutating func diffAtDepthCap(_ old: Any, _ new: Any) {
    let a = renderOld(old)
    let b = renderNew(new)
    if a.isWireIdentical(to: b) {
      record(.replace, old: a, new: b, truncated: true)
      return
    }
    let first = recordRenderingDiff(a, b)
    if cuts > 0 || a.contains(string: RenderMarker.maxDepth) || b.contains(string: RenderMarker.maxDepth) {
      for index in first..<changes.count { changes[index].truncated = true }
    }
  }

  private mutating func diffContent(_ old: Any, _ new: Any, substitutions: Int) {
    let type = Swift.type(of: old)
    guard type == Swift.type(of: new) else {
      replaceIfDifferent(old, new)
      return
    }
    let info = TypeInfo.of(type)
    if info.kind == .optional {
      diffOptionals(old, new)
      return
    }
    // Identical bytes: nothing to see. (For scalars this is also the only comparison made
    // before rendering: `==` would call 0.0 and -0.0 equal although they render differently.)
    if info.identicalBits(old, new) { return }
    if let diffBuiltin = info.diffBuiltin {
      diffBuiltin(old, new, &self)
      return
    }
    if info.isRedacted, !isProbe {
      recordRedacted(old, new)
      return
    }
    if info.isCustom, substitutions < 16 {
      let a = (old as! any CustomLoupeRepresentable).customLoupeValue
      let b = (new as! any CustomLoupeRepresentable).customLoupeValue
      diffContent(a, b, substitutions: substitutions + 1)
      return
    }
    if info.equal(old, new) == true { return }
    switch info.kind {
    case .enum: diffEnums(old, new, info)
    case .struct: diffFields(old, new, info)
    case .class: diffObjects(old, new, info)
    case .tuple: diffTuples(old, new)
    default: diffRenderings(old, new)
    }
  }

  private mutating func diffOptionals(_ old: Any, _ new: Any) {
    switch (Reflection.unwrap(old), Reflection.unwrap(new)) {
    case (nil, nil):
      return
    case (nil, _?):
      if isMemberPosition {
        record(.insert, new: renderNew(new))
      } else {
        record(.replace, old: .null, new: renderNew(new))
      }
    case (_?, nil):
      if isMemberPosition {
        record(.remove, old: renderOld(old))
      } else {
        record(.replace, old: renderOld(old), new: .null)
      }
    case (let a?, let b?):
      diffContent(a, b, substitutions: 0)
    }
  }

  /// A switch of case is one `replace`; the same case diffs its payloads below
  /// `.caseName`.
  private mutating func diffEnums(_ old: Any, _ new: Any, _ info: TypeInfo) {
    if !info.hasPayloadCases {
      replaceIfDifferent(old, new)
      return
    }
    // Both of this type (see `diffContent`): their cases read with its value witnesses.
    if let cases = info.enumCases,
      let a = TypeInfo.withAddress(of: old, { $0.flatMap(cases.caseAndPayload(at:)) }),
      let b = TypeInfo.withAddress(of: new, { $0.flatMap(cases.caseAndPayload(at:)) })
    {
      guard a.case.name == b.case.name else { return replaceIfDifferent(old, new) }
      switch (a.payload, b.payload) {
      case (nil, nil): return
      case (let x?, let y?):
        push(.field(a.case.name))
        diff(x, y)
        pop()
      default: replaceIfDifferent(old, new)
      }
      return
    }
    let oldMirror = Mirror(reflecting: old)
    let newMirror = Mirror(reflecting: new)
    guard oldMirror.displayStyle == .enum, newMirror.displayStyle == .enum,
      let name = Reflection.caseName(old), name == Reflection.caseName(new)
    else {
      replaceIfDifferent(old, new)
      return
    }
    switch (oldMirror.children.first, newMirror.children.first) {
    case (nil, nil):
      return
    case (let a?, let b?):
      push(.field(name))
      diff(a.value, b.value)
      pop()
    default:
      replaceIfDifferent(old, new)
    }
  }

  private mutating func diffFields(_ old: Any, _ new: Any, _ info: TypeInfo) {
    if let fields = info.fields, info.fieldBytes != nil {
      diffStoredFields(old, new, fields, info)
      return
    }
    if info.fields != nil {
      for (fa, fb) in zip(info.fieldValues(of: old), info.fieldValues(of: new)) {
        push(.field(fa.label))
        diff(fa.value, fb.value)
        pop()
      }
      return
    }
    let oldMirror = Mirror(reflecting: old)
    let newMirror = Mirror(reflecting: new)
    guard Self.isPlainObject(oldMirror), Self.isPlainObject(newMirror) else {
      diffMirrored(old, new, oldMirror, newMirror)
      return
    }
    let a = Reflection.fields(of: oldMirror)
    let b = Reflection.fields(of: newMirror)
    guard a.count == b.count, zip(a, b).allSatisfy({ $0.label == $1.label }) else {
      diffRenderings(old, new)
      return
    }
    for (fa, fb) in zip(a, b) {
      push(.field(fa.label))
      diff(fa.value, fb.value)
      pop()
    }
  }

  /// A struct's stored fields, compared in the two values' memory: a field whose meaningful
  /// bytes are the same holds the same scalars and references (it renders the same), so it
  /// is skipped without being loaded — only the fields that differ are boxed and diffed.
  private mutating func diffStoredFields(_ old: Any, _ new: Any, _ fields: [TypeInfo.Field], _ info: TypeInfo) {
    TypeInfo.withAddress(of: old) { a in
      TypeInfo.withAddress(of: new) { b in
        // No size, no address: no bytes to differ.
        guard let a, let b else { return spend(fields.count) }
        diffFields(at: a, b, info)
      }
    }
  }

  private static func isPlainObject(_ mirror: Mirror) -> Bool {
    switch mirror.displayStyle {
    case nil, .struct?, .class?: true
    default: false
    }
  }

  private mutating func diffObjects(_ old: Any, _ new: Any, _ info: TypeInfo) {
    let a = ObjectIdentifier(Reflection.opened(old) as AnyObject)
    let b = ObjectIdentifier(Reflection.opened(new) as AnyObject)
    // A cycle back to an instance being diffed renders as a `$ref`: compare renderings.
    if oldAncestors.contains(where: { $0.object == a }) || newAncestors.contains(where: { $0.object == b }) {
      diffRenderings(old, new)
      return
    }
    oldAncestors.append((a, path.count))
    newAncestors.append((b, path.count))
    diffFields(old, new, info)
    oldAncestors.removeLast()
    newAncestors.removeLast()
  }

  private mutating func diffTuples(_ old: Any, _ new: Any) {
    let a = Reflection.tupleElements(old)
    let b = Reflection.tupleElements(new)
    guard a.count == b.count, zip(a, b).allSatisfy({ $0.label == $1.label }) else {
      diffRenderings(old, new)
      return
    }
    let positional = a.allSatisfy { $0.label == nil }
    for (offset, (ea, eb)) in zip(a, b).enumerated() {
      push(positional ? .index(offset) : .field(ea.label ?? "\(offset)"))
      diff(ea.value, eb.value)
      pop()
    }
  }
}

extension Differ {
  /// A differ for values at `base`. Every member is given to the memberwise initializer at
  /// once: assigned one by one, the new differ was built in a temporary that the optimizer
  /// then copied into the caller's variable and destroyed (~950 instructions a diff).
  @inline(__always)
  init(options: RenderOptions, at base: StatePath = .root, keepsPaths: Bool = false, keepsFirsts: Bool = false) {
    let redacting = !options.redactedPaths.isEmpty
    self.init(
      options: options, path: PathStack(base, tracksText: redacting), paths: keepsPaths ? [] : nil,
      firsts: keepsFirsts ? [] : nil, redacting: redacting)
  }
}
