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
  let options: RenderOptions
  var path: PathStack
  var changes: [Change] = []
  /// When not `nil`, `paths[i]` is the path of `changes[i]` as components (see
  /// ``StateDiff/diffWithPaths(_:_:options:)``).
  var paths: [StatePath]?
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

  init(options: RenderOptions, at base: StatePath = .root, keepsPaths: Bool = false) {
    self.options = options
    paths = keepsPaths ? [] : nil
    redacting = !options.redactedPaths.isEmpty
    path = PathStack(base, tracksText: redacting)
  }

  var isRedactedHere: Bool { redacting && options.redactedPaths.anyMatches(path.text) }

  // MARK: - Rendering and recording

  /// Renders an old value at the current path; its nodes count against the budget.
  mutating func renderOld(_ value: Any) -> JSON {
    var renderer = Renderer(options: options, at: path.path, ancestors: oldAncestors)
    let json = renderer.render(value)
    spend(renderer.nodes)
    return json
  }

  /// Renders a new value at the current path; its nodes count against the budget.
  mutating func renderNew(_ value: Any) -> JSON {
    var renderer = Renderer(options: options, at: path.path, ancestors: newAncestors)
    let json = renderer.render(value)
    spend(renderer.nodes)
    return json
  }

  mutating func spend(_ count: Int) {
    visits += count
    if visits > options.maxNodes { isExhausted = true }
  }

  mutating func record(_ op: Change.Op, old: JSON? = nil, new: JSON? = nil, index: Int? = nil) {
    changes.append(Change(path: path.text, op: op, old: old, new: new, index: index))
    paths?.append(path.path)
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

  /// Renders both values here and records the JSON diff of the renderings: the answer for
  /// leaves, and the fallback wherever the structure cannot be followed.
  mutating func diffRenderings(_ old: Any, _ new: Any) {
    let a = renderOld(old)
    let b = renderNew(new)
    if a != b { JSONDiff.diff(a, b, at: path.path, into: &changes, paths: &paths) }
  }

  /// Records a `replace` here if two renderings made without a renderer (of scalars, whose
  /// rendering depends on nothing else) differ. They count against the budget as
  /// ``renderOld(_:)`` and ``renderNew(_:)`` would count them.
  mutating func replaceIfDifferent(rendered a: JSON, _ b: JSON) {
    spend(2)
    if a != b { record(.replace, old: a, new: b) }
  }

  /// Records a `replace` here if the renderings differ.
  mutating func replaceIfDifferent(_ old: Any, _ new: Any) {
    let a = renderOld(old)
    let b = renderNew(new)
    if a != b { record(.replace, old: a, new: b) }
  }

  /// Whether two values are equal without looking at redaction: `==`, identical bits, or
  /// equal unredacted renderings (kept in memory only to compare).
  func rawEqual(_ old: Any, _ new: Any) -> Bool {
    if let equal = Reflection.equatableEqual(old, new) { return equal }
    if Reflection.bitwiseEqual(old, new) { return true }
    var plain = options
    plain.redactedPaths = []
    var a = Renderer(options: plain, at: path.path)
    var b = Renderer(options: plain, at: path.path)
    return a.render(old) == b.render(new)
  }

  // MARK: - The walk

  /// Diffs the two values at the current path.
  mutating func diff(_ old: Any, _ new: Any) {
    spend(1)
    if isExhausted { return }
    if path.count >= options.maxDepth {
      diffRenderings(old, new)
      return
    }
    if isRedactedHere {
      if !rawEqual(old, new) { record(.replace, old: .string(RenderMarker.redacted), new: .string(RenderMarker.redacted)) }
      return
    }
    diffContent(old, new, substitutions: 0)
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
    if info.isRedacted {
      if !rawEqual(old, new) { record(.replace, old: .string(RenderMarker.redacted), new: .string(RenderMarker.redacted)) }
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
    if let fields = info.fields, let fieldBytes = info.fieldBytes {
      diffStoredFields(old, new, fields, fieldBytes)
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
      diffRenderings(old, new)
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
  private mutating func diffStoredFields(
    _ old: Any, _ new: Any, _ fields: [TypeInfo.Field], _ fieldBytes: [[Range<Int>]]
  ) {
    TypeInfo.withAddress(of: old) { a in
      TypeInfo.withAddress(of: new) { b in
        for index in fields.indices {
          if Reflection.sameBytes(a, b, fieldBytes[index]) {
            spend(1)  // visited, as the walk into it would count it
            continue
          }
          // Bytes differ, so the value has some: neither address is nil.
          let field = fields[index]
          push(.field(field.label))
          diff(TypeInfo.load(field.type, at: a! + field.offset), TypeInfo.load(field.type, at: b! + field.offset))
          pop()
        }
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
    let a = ObjectIdentifier(old as AnyObject)
    let b = ObjectIdentifier(new as AnyObject)
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
