/// One rendering pass: the path being visited, the caps' counters and the class instances
/// on the way down (to spot cycles).
///
/// ``ValueRenderer`` is the public face; the diff uses a `Renderer` positioned at a change's
/// path so a changed subtree renders exactly as it does inside the whole state.
struct Renderer {
  let options: RenderOptions
  var path: PathStack
  /// Values rendered so far, against ``RenderOptions/maxNodes``.
  var nodes = 0
  /// Class instances being rendered, outermost first, with the path length where each sits.
  var ancestors: [(object: ObjectIdentifier, depth: Int)] = []
  /// How many `$ref` markers were written; lets a caller see whether a rendering depended on
  /// where it was made.
  var references = 0
  let redacting: Bool
  /// Where the enum cases and tuples are, when the caller asked (see ``ValueShape``).
  var shapes: ShapeCollector?
  /// Whether ``LoupeRedacted`` values render as what they hold (only to learn their texts,
  /// see ``RedactedTexts``).
  var revealsRedacted = false
  /// Whether ``LoupeRedacted`` values render as what they hold, otherwise as usual (only for a
  /// tool's `setState`, to put redacted values back; see
  /// ``ValueRenderer/renderRevealingRedacted(_:at:options:)``).
  var rendersRedactedTypes = false
  /// Whether to note the root value's case (``rootCase``).
  var notesRootCase = false
  /// The type and case name of the root value, when it is an enum rendered as itself (no
  /// custom representation, mirror or redaction): what an action's label needs, without asking
  /// the runtime again (``ValueRenderer/renderAction(_:options:)``).
  var rootCase: (type: ObjectIdentifier, name: String, label: String?)?
  /// The path's depth at the root value.
  let rootDepth: Int
  /// The last type looked up, for runs of elements of one type.
  private var lastInfo: (type: ObjectIdentifier, info: TypeInfo)?

  init(options: RenderOptions, at base: StatePath = .root, ancestors: [(object: ObjectIdentifier, depth: Int)] = []) {
    self.options = options
    redacting = !options.redactedPaths.isEmpty
    path = PathStack(base, tracksText: redacting)
    rootDepth = base.components.count
    self.ancestors = ancestors
  }

  /// Whether the current path matches a redaction glob.
  var isRedactedHere: Bool { redacting && options.redactedPaths.anyMatches(path.text) }

  /// Renders `value` as the value at the current path.
  mutating func render(_ value: Any) -> JSON {
    if path.count > options.maxDepth { return .string(RenderMarker.maxDepth) }
    nodes += 1
    if nodes > options.maxNodes { return .string(RenderMarker.maxSize) }
    if isRedactedHere { return redacted(value) }
    return renderContent(value)
  }

  /// Renders `value` at `component` below the current path.
  mutating func render(_ value: Any, at component: StatePath.Component) -> JSON {
    path.push(component)
    defer { path.pop() }
    return render(value)
  }

  /// The marker that stands for `value`, which the session's ledger notes.
  private func redacted(_ value: Any) -> JSON {
    options.redactedTexts?.note(value)
    return .string(RenderMarker.redacted)
  }

  /// Whether the node budget is spent, so collections stop early.
  var isOverBudget: Bool { nodes >= options.maxNodes }

  /// Renders `value` at the current path without counting it as another node: for a value
  /// that stands for what it wraps (an optional, an `AnyHashable`).
  mutating func renderContent(_ value: Any) -> JSON {
    var value = value
    var substitutions = 0
    while true {
      let info = typeInfo(type(of: value))
      if info.kind == .optional {
        guard let wrapped = (value as? any AnyOptional)?.wrappedAny else { return .null }
        value = wrapped
        continue
      }
      if let renderBuiltin = info.renderBuiltin { return renderBuiltin(value, &self) }
      if info.isRedacted && !revealsRedacted && !rendersRedactedTypes { return redacted(value) }
      if info.isCustom, substitutions < 16 {
        value = (value as! any CustomLoupeRepresentable).customLoupeValue
        substitutions += 1
        continue
      }
      switch info.kind {
      case .enum: return renderEnum(value, info, substituted: substitutions > 0)
      case .struct:
        if info.fields != nil {
          let fields = info.fieldValues(of: value)
          // An error with no stored properties (`struct Offline: Error {}`) is told by its
          // type, not as `{}`, like every other error would be.
          if fields.isEmpty, value is any Error { return opaque(value) }
          return renderFields(fields)
        }
        return renderMirrored(Mirror(reflecting: value), of: value)
      case .class: return renderObject(value, info)
      case .tuple: return renderTuple(value)
      case .function: return .string(RenderMarker.function)
      case .metatype: return .string(TypeName.of(value as! Any.Type))
      case .optional, .existential, .other:
        let mirror = Mirror(reflecting: value)
        if mirror.children.isEmpty && mirror.displayStyle == nil { return opaque(value) }
        return renderMirrored(mirror, of: value)
      }
    }
  }

  private mutating func typeInfo(_ type: any Any.Type) -> TypeInfo {
    let key = ObjectIdentifier(type)
    if let lastInfo, lastInfo.type == key { return lastInfo.info }
    let info = TypeInfo.of(type)
    lastInfo = (key, info)
    return info
  }

  // MARK: - Shapes

  private mutating func renderEnum(_ value: Any, _ info: TypeInfo, substituted: Bool) -> JSON {
    let atRoot = notesRootCase && !substituted && path.count == rootDepth
    // Case names are names, not values: a hidden value's texts leave them out.
    if !info.hasPayloadCases, let name = Reflection.caseName(value) {
      if atRoot { rootCase = (ObjectIdentifier(type(of: value)), name, nil) }
      if revealsRedacted { return .null }
      shapes?.mark(.enumCase, at: path)
      return .string(name)
    }
    if !info.hasCustomMirror {
      // What the `Mirror` below would give, from the runtime directly.
      shapes?.mark(.enumCase, at: path)
      if let (name, payload, label) = Reflection.labelledCaseAndPayload(value, everyCaseHasPayload: info.everyCaseHasPayload) {
        if atRoot { rootCase = (ObjectIdentifier(type(of: value)), name, label) }
        return .object(JSONObject([JSONObject.Member(name, render(payload, at: .field(name)))]))
      }
      if revealsRedacted { return .null }
      return .string(Reflection.caseName(value) ?? opaqueText(value))
    }
    let mirror = Mirror(reflecting: value)
    if mirror.children.isEmpty, Self.showsNoStructure(mirror) {
      // A mirror that shows nothing (`Mirror(self, children: [:])`) would render every case
      // as `{}`, and a change of case as none: the case is the runtime's, and shows.
      shapes?.mark(.enumCase, at: path)
      if revealsRedacted { return .null }
      return .string(Reflection.caseName(value) ?? opaqueText(value))
    }
    guard mirror.displayStyle == .enum else { return renderMirrored(mirror, of: value) }
    shapes?.mark(.enumCase, at: path)
    // A case with a payload reflects as one child labelled with the case name.
    if let payload = mirror.children.first, let name = payload.label {
      return .object(JSONObject([JSONObject.Member(name, render(payload.value, at: .field(name)))]))
    }
    if revealsRedacted { return .null }
    return .string(Reflection.caseName(value) ?? opaqueText(value))
  }

  /// Whether a mirror's display style is a plain object's (or an enum's): not a collection,
  /// a dictionary, a set, a tuple or an optional, whose empty rendering means something.
  static func showsNoStructure(_ mirror: Mirror) -> Bool {
    switch mirror.displayStyle {
    case nil, .struct?, .class?, .enum?: true
    default: false
    }
  }

  /// A value with no visible structure. Its `description` is user code that may trap (or
  /// block, or be slow), so it is asked only of the runtime's own builtin types (opaque
  /// kind: raw pointers and the like, described by the runtime). Anything else shows as its
  /// type name: `"<Foo>"`.
  func opaque(_ value: Any) -> JSON { string(opaqueText(value)) }

  func opaqueText(_ value: Any) -> String {
    let type = Swift.type(of: value)
    if unsafeBitCast(type, to: UnsafePointer<Int>.self).pointee == 0x300 { return String(describing: value) }
    return "<" + TypeName.of(type) + ">"
  }

  private mutating func renderObject(_ value: Any, _ info: TypeInfo) -> JSON {
    let object = ObjectIdentifier(Reflection.opened(value) as AnyObject)
    // An ancestor at this very depth is this node itself, rendered again (the diff renders
    // an instance it has entered when it falls back to renderings): not a cycle.
    if let ancestor = ancestors.first(where: { $0.object == object && $0.depth < path.count }) {
      references += 1
      return .object(["$ref": .string(path.text(prefix: ancestor.depth))])
    }
    ancestors.append((object, path.count))
    defer { ancestors.removeLast() }
    if info.fields != nil { return renderFields(info.fieldValues(of: value)) }
    return renderMirrored(Mirror(reflecting: value), of: value)
  }

  /// A value seen through its mirror: collections by their display style, anything else as
  /// an object of its stored properties.
  mutating func renderMirrored(_ mirror: Mirror, of value: Any) -> JSON {
    switch mirror.displayStyle {
    case .collection?:
      return renderElements(mirror.children.lazy.map(\.value), count: mirror.children.count)
    case .set?:
      // No more elements are read than the node budget can render (a mirror may compute
      // them on demand); the count says how many there are.
      return renderSet(mirror.children.prefix(budgetLeft).map(\.value), count: mirror.children.count)
    case .dictionary?:
      // Its first entries, as many as the budget can render, sorted (see `renderSet`).
      let pairs = mirror.children.prefix(budgetLeft).map { child -> (Any, Any) in
        let parts = Array(Mirror(reflecting: child.value).children)
        return parts.count == 2 ? (parts[0].value, parts[1].value) : (child.label ?? "", child.value)
      }
      return renderDictionary(pairs, count: mirror.children.count)
    case .tuple?:
      return renderTuple(value)
    case .optional?:
      guard let wrapped = mirror.children.first?.value else { return .null }
      return renderContent(wrapped)
    case .enum?:
      shapes?.mark(.enumCase, at: path)
      guard let child = mirror.children.first else { return .string(Reflection.caseName(value) ?? opaqueText(value)) }
      let name = child.label ?? Reflection.caseName(value) ?? "case"
      return .object(JSONObject([JSONObject.Member(name, render(child.value, at: .field(name)))]))
    default:
      return renderFields(Reflection.fields(of: mirror))
    }
  }

  mutating func renderFields(_ fields: [(label: String, value: Any)]) -> JSON {
    var object = JSONObject()
    object.members.reserveCapacity(fields.count)
    for field in fields {
      object.append(field.label, render(field.value, at: .field(field.label)))
    }
    return .object(object)
  }

  /// Unlabeled tuples render as arrays, tuples with any label as objects (unlabeled positions
  /// keyed `"0"`, `"1"`, …).
  mutating func renderTuple(_ value: Any) -> JSON {
    shapes?.mark(.tuple, at: path)
    let elements = Reflection.tupleElements(value)
    if elements.allSatisfy({ $0.label == nil }) {
      var array: [JSON] = []
      array.reserveCapacity(elements.count)
      for (offset, element) in elements.enumerated() { array.append(render(element.value, at: .index(offset))) }
      return .array(array)
    }
    return renderFields(elements.enumerated().map { ($0.element.label ?? "\($0.offset)", $0.element.value) })
  }

  // MARK: - Collections

  /// An array of the first ``RenderOptions/maxCollectionCount`` elements, then `"… N more"`.
  mutating func renderElements(_ elements: some Sequence, count: Int) -> JSON {
    let shown = min(count, options.maxCollectionCount)
    var array: [JSON] = []
    array.reserveCapacity(shown + 1)
    var index = 0
    shapes?.beginCollection(at: path)
    for element in elements {
      if index == shown || isOverBudget { break }
      array.append(render(element, at: .index(index)))
      shapes?.endElement(.index(index))
      index += 1
    }
    shapes?.endCollection(at: path)
    if index < count { array.append(.string(RenderMarker.moreElements(count - index))) }
    return .array(array)
  }

  /// How many more values the node budget can render.
  var budgetLeft: Int { max(0, options.maxNodes - nodes) }

  /// A set: its elements rendered, sorted by ``JSONOrder``, then capped like an array.
  /// `count`: how many elements the set has, when `elements` are only the first of them.
  mutating func renderSet(_ elements: [Any], count: Int? = nil) -> JSON {
    let total = max(count ?? elements.count, elements.count)
    var rendered: [(json: JSON, element: Any, placed: Int, dependsOnPath: Bool)] = []
    rendered.reserveCapacity(elements.count)
    shapes?.beginCollection(at: path)
    for (offset, element) in elements.enumerated() {
      if isOverBudget { break }
      let before = references
      let json = render(element, at: .index(offset))
      shapes?.endElement(.index(offset))
      rendered.append((json, element, offset, references != before))
    }
    rendered.sort { JSONOrder.areInIncreasingOrder($0.json, $1.json) }
    let shown = min(rendered.count, options.maxCollectionCount)
    if shapes != nil {
      // Elements are named by their position after sorting; the ones past the cap not at all.
      let final = Dictionary(uniqueKeysWithValues: (0..<shown).map { (rendered[$0].placed, $0) })
      shapes?.endCollection(at: path) { component in
        guard case .index(let placed) = component, let index = final[placed] else { return nil }
        return .index(index)
      }
      shapes?.suspend()
    }
    defer { shapes?.resume() }
    var array: [JSON] = []
    array.reserveCapacity(shown + 1)
    for index in 0..<shown {
      let item = rendered[index]
      // A rendering that depends on its path (redaction globs, `$ref` markers) is redone at
      // the element's final position.
      if item.placed != index && (redacting || item.dependsOnPath) {
        array.append(render(item.element, at: .index(index)))
      } else {
        array.append(item.json)
      }
    }
    if shown < total { array.append(.string(RenderMarker.moreElements(total - shown))) }
    return .array(array)
  }

  /// A dictionary: an object keyed by the rendered keys, sorted by ``JSONOrder`` of the keys.
  /// `count`: how many entries the dictionary has, when `pairs` are only the first of them.
  mutating func renderDictionary(_ pairs: [(key: Any, value: Any)], count: Int? = nil) -> JSON {
    let total = max(count ?? pairs.count, pairs.count)
    var keyed = pairs.map { (key: Self.renderKey($0.key, options: options), value: $0.value) }
    keyed.sort { JSONOrder.areInIncreasingOrder($0.key, $1.key) }
    let shown = min(keyed.count, options.maxCollectionCount)
    var object = JSONObject()
    object.members.reserveCapacity(shown + 1)
    var index = 0
    shapes?.beginCollection(at: path)
    while index < shown, !isOverBudget {
      let key = Self.keyText(keyed[index].key)
      object.append(key, render(keyed[index].value, at: .key(key)))
      shapes?.endElement(.key(key))
      index += 1
    }
    shapes?.endCollection(at: path)
    if index < total { object.append(RenderMarker.truncatedKey, .string(RenderMarker.moreMembers(total - index))) }
    return .object(object)
  }

  /// A dictionary key rendered on its own (keys are not state values: never redacted).
  /// ``renderKey(_:options:)`` of a key whose static type is known: the commonest ids,
  /// `Int` and `String`, are told from the type alone, with no cast.
  static func renderKey<Key>(typed key: Key, options: RenderOptions) -> JSON {
    if Key.self == Int.self { return .int(unsafeBitCast(key, to: Int.self)) }
    if Key.self == String.self { return .string(unsafeBitCast(key, to: String.self)) }
    return renderKey(key as Any, options: options)
  }

  static func renderKey(_ key: Any, options: RenderOptions) -> JSON {
    if let string = key as? String { return .string(string) }
    // The commonest id, as its builtin rendering writes it, without a renderer.
    if type(of: key) == Int.self, let int = key as? Int { return .int(int) }
    var keyOptions = options
    keyOptions.redactedPaths = []
    var renderer = Renderer(options: keyOptions)
    return renderer.render(key)
  }

  /// The member name for a rendered key: a string as is, anything else as its JSON text.
  static func keyText(_ key: JSON) -> String {
    if case .string(let text) = key { return text }
    return key.jsonText
  }

  // MARK: - Scalars

  /// A string, cut at ``RenderOptions/maxStringLength`` characters.
  func string(_ text: some StringProtocol) -> JSON {
    Self.string(text, maxLength: options.maxStringLength)
  }

  /// A string, cut at `limit` characters.
  static func string(_ text: some StringProtocol, maxLength limit: Int) -> JSON {
    if text.utf8.count <= limit { return .string(String(text)) }
    guard let cut = text.index(text.startIndex, offsetBy: limit, limitedBy: text.endIndex), cut < text.endIndex else {
      return .string(String(text))
    }
    let rest = text[cut...].count
    return .string(String(text[..<cut]) + RenderMarker.moreCharacters(rest))
  }
}
