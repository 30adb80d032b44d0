/// Turns any Swift value into ``JSON`` by reflection.
///
/// BASELINE: structs, enums, optionals, collections and scalars via `Mirror`. Issue 2 replaces
/// this with the full documented rules (classes and cycles, sets, tuples, Date/UUID/URL/Data,
/// non-finite numbers, caps, redaction, custom rendering).
public enum ValueRenderer {
  public static func render(_ value: Any, options: RenderOptions = .default) -> JSON {
    render(value, path: .root, depth: 0, options: options)
  }

  static func render(_ value: Any, path: StatePath, depth: Int, options: RenderOptions) -> JSON {
    if depth > options.maxDepth { return .string("<truncated: depth>") }
    switch value {
    case let v as Bool: return .bool(v)
    case let v as Int: return .int(v)
    case let v as Double: return v.isFinite ? .double(v) : .string("\(v)")
    case let v as String: return .string(v)
    default: break
    }
    let mirror = Mirror(reflecting: value)
    switch mirror.displayStyle {
    case .optional:
      guard let wrapped = mirror.children.first?.value else { return .null }
      return render(wrapped, path: path, depth: depth, options: options)
    case .collection, .set:
      return .array(mirror.children.map { render($0.value, path: path, depth: depth + 1, options: options) })
    case .enum:
      guard let child = mirror.children.first else { return .string(String(describing: value)) }
      return .object([child.label ?? "case": render(child.value, path: path, depth: depth + 1, options: options)])
    case .struct, .class, .tuple, .dictionary:
      var object = JSONObject()
      for (offset, child) in mirror.children.enumerated() {
        let label = child.label ?? "\(offset)"
        object.append(label, render(child.value, path: path / .field(label), depth: depth + 1, options: options))
      }
      return .object(object)
    default:
      return .string(String(describing: value))
    }
  }

  /// The label of an action: its type name without the module, then its case.
  /// `PageFeature.Action.timerTicked`.
  public static func actionLabel(_ action: Any) -> String {
    let typeName = String(reflecting: type(of: action)).split(separator: ".").dropFirst().joined(separator: ".")
    let mirror = Mirror(reflecting: action)
    if mirror.displayStyle == .enum, let label = mirror.children.first?.label {
      return "\(typeName).\(label)"
    }
    return "\(typeName).\(action)"
  }
}
