/// Turns any Swift value into ``JSON``, by the rules of `protocol/values.md`.
///
/// Structs and classes become objects of their stored properties in declaration order, enums
/// their case name (`"idle"`) or `{"caseName": payload}`, optionals `null` or the wrapped
/// value, collections arrays and objects in a deterministic order, and Foundation values
/// their usual text forms. A type can choose its own rendering
/// (``CustomLoupeRepresentable``) or hide it (``LoupeRedacted``); ``RenderOptions`` caps the
/// size and redacts paths.
///
/// ```swift
/// struct State { var count = 1; var mode: Mode = .idle; var tags: Set<String> = ["b", "a"] }
/// ValueRenderer.render(State()).jsonText
/// // {"count":1,"mode":"idle","tags":["a","b"]}
/// ```
public enum ValueRenderer {
  /// Renders `value` as a whole state (at the root path).
  public static func render(_ value: Any, options: RenderOptions = .default) -> JSON {
    var renderer = Renderer(options: options)
    return renderer.render(value)
  }

  /// Renders `value` as the value found at `path` inside a larger state: redaction globs are
  /// matched against the full paths below `path`, the depth cap counts from the root, and
  /// cycle markers name full paths. This is how a scoped store renders its child state so
  /// that `LOUPE_REDACT` patterns written for the root state apply to it too.
  public static func render(_ value: Any, at path: StatePath, options: RenderOptions = .default) -> JSON {
    var renderer = Renderer(options: options, at: path)
    return renderer.render(value)
  }

  /// Renders `value` like ``render(_:at:options:)`` with nothing redacted: no path globs,
  /// ``LoupeRedacted`` values as what they hold, nothing noted in a ledger. Only for a tool's
  /// `loupe/setState` (CONTRACT §16), which keeps the current values at redacted paths: this
  /// rendering is decoded in the program and never leaves it.
  package static func renderRevealingRedacted(_ value: Any, at path: StatePath, options: RenderOptions) -> JSON {
    var revealing = options
    revealing.redactedPaths = []
    revealing.redactedTexts = nil
    var renderer = Renderer(options: revealing, at: path)
    renderer.rendersRedactedTypes = true
    return renderer.render(value)
  }

  /// Renders `value` like ``render(_:at:options:)`` and says where its enum cases and tuples
  /// are, so a reader can print it as Swift (`.loading(progress: 0.5)`, not
  /// `{loading: {progress: 0.5}}`). The shape is empty when there are none.
  ///
  /// ```swift
  /// let (json, shape) = ValueRenderer.renderWithShape(Mode.loading(progress: 0.5))
  /// // json: {"loading":{"progress":0.5}}, shape.enums: [""], shape.tuples: ["loading"]
  /// ```
  public static func renderWithShape(
    _ value: Any, at path: StatePath = .root, options: RenderOptions = .default
  ) -> (json: JSON, shape: ValueShape) {
    var renderer = Renderer(options: options, at: path)
    renderer.shapes = ShapeCollector(origin: path.components.count)
    let json = renderer.render(value)
    return (json, renderer.shapes!.shape)
  }

  /// An action's label (``actionLabel(_:)``), rendered value and shape
  /// (``renderWithShape(_:at:options:)``) at once: the label's case name is the one the
  /// rendering met at its root, when it met one (one question to the runtime less per action).
  public static func renderAction(_ action: Any, options: RenderOptions = .default) -> (label: String, json: JSON, shape: ValueShape) {
    if let rendered = renderPlainAction(action, options: options) { return rendered }
    var renderer = Renderer(options: options)
    renderer.shapes = ShapeCollector(origin: 0)
    renderer.notesRootCase = true
    let json = renderer.render(action)
    let shape = renderer.shapes!.shape
    guard let rootCase = renderer.rootCase, let unwrapped = Reflection.unwrap(action),
      ObjectIdentifier(type(of: unwrapped)) == rootCase.type
    else { return (actionLabel(action), json, shape) }
    return (rootCase.label ?? String(joining: TypeName.of(type(of: unwrapped)), ".", rootCase.name), json, shape)
  }

  /// ``renderAction(_:options:)`` of the commonest action, with no renderer: an enum whose
  /// cases are known (``EnumCases``), in a case with no payload or a scalar one (`.toggle(3)`),
  /// with no redaction and caps that let it render whole. `nil` for anything else.
  static func renderPlainAction(_ action: Any, options: RenderOptions) -> (label: String, json: JSON, shape: ValueShape)? {
    guard options.redactedPaths.isEmpty, options.maxDepth >= 1, options.maxNodes >= 2 else { return nil }
    let info = TypeInfo.of(type(of: action))
    guard info.kind == .enum, info.renderBuiltin == nil, !info.isRedacted, !info.isCustom, let cases = info.enumCases,
      let (found, payload) = TypeInfo.withAddress(of: action, { $0.flatMap(cases.caseAndScalarPayload(at:)) })
    else { return nil }
    let json = payload.map { JSON.object(JSONObject([JSONObject.Member(found.name, $0)])) } ?? .string(found.name)
    return (found.label, json, ValueShape.rootEnum)
  }

  /// The label of an action: its type name without the module (nesting and generic
  /// arguments kept), then its case: `PageFeature.Action.timerTicked`.
  ///
  /// Only the outermost case is named (`AppFeature.Action.pages` for
  /// `.pages(.element(id: 2, action: .timerTicked))`); the payload is in the rendered value.
  /// An action that is not an enum is labelled by its type name alone; an optional action by
  /// its wrapped value (`nil` is `Optional.none`).
  public static func actionLabel(_ action: Any) -> String {
    guard let action = Reflection.unwrap(action) else { return "Optional.none" }
    let typeName = TypeName.of(type(of: action))
    guard TypeKind(type(of: action)) == .enum, let caseName = Reflection.caseName(action) else { return typeName }
    return String(joining: typeName, ".", caseName)
  }

  /// The name of a type as the labels and store ids use it: nested and generic, without the
  /// module: `PageFeature.State`, `Box<Int>`.
  public static func typeName(_ type: Any.Type) -> String {
    TypeName.of(type)
  }
}
