/// Enum cases by name: a `CaseIterable` enum's case whose rendering is the name (a raw-value
/// enum renders its case's name, `"all"`, not its raw value `"All"`, which its own
/// `init(from:)` expects), and the failure for a case an enum does not have.
enum RenderedEnumCases {
  /// The case of `type` that renders as `name`, when `type` is `CaseIterable`.
  static func caseNamed<T>(_ name: String, in type: T.Type) -> T? {
    guard let iterable = type as? any CaseIterable.Type else { return nil }
    func find<C: CaseIterable>(_: C.Type) -> T? {
      for candidate in C.allCases where ValueRenderer.render(candidate) == .string(name) {
        return candidate as? T
      }
      return nil
    }
    return find(iterable)
  }

  /// Why `json` is no case of the enum `type`, when it is not: `no case 'fooTapped' in
  /// PageFeature.Action (cases: onAppear, …)`. `nil` when `type` is no enum, or when `json`
  /// names one of its cases (the failure lies elsewhere). For an enum whose cases cannot be
  /// listed (one with an `indirect` case), only when the error is the synthesized
  /// `init(from:)`'s for a key it does not know (`unknownKey`).
  static func reason<T>(decoding json: JSON, as type: T.Type, unknownKey: Bool) -> String? {
    guard TypeKind(type) == .enum else { return nil }
    let typeName = TypeName.of(type)
    let cases = TypeInfo.of(type).enumCases?.cases.map(\.name)
    let listed = cases.map { names in
      " (cases: \(names.prefix(12).joined(separator: ", "))\(names.count > 12 ? ", …" : ""))"
    } ?? ""
    let name: String
    switch json {
    case .string(let text): name = text
    case .object(let object) where object.count == 1: name = object[0].key
    default:
      return "expected a case of \(typeName) (a case name, or an object of one member: a case and its payload), found \(RenderedText.describe(json))\(listed)"
    }
    guard let cases else { return unknownKey ? "no case '\(name)' in \(typeName)" : nil }
    guard cases.contains(name) else { return "no case '\(name)' in \(typeName)\(listed)" }
    guard case .string = json, type is any RawRepresentable.Type, !(type is any CaseIterable.Type) else { return nil }
    return "'\(name)' is a case of \(typeName), but a raw-value enum reads its case name only when it is CaseIterable (its own init(from:) expects the raw value)"
  }
}
