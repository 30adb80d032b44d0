import Synchronization

/// Embeds a child value into an enum case and extracts it again: how scope operators route a
/// parent action to a child feature and lift the child's actions back up.
///
/// Build one from the case constructor alone, which is what scope operators take:
///
/// ```swift
/// enum Action { case counter(CounterFeature.Action), reset }
/// Scope(state: \.counter, action: Action.counter) { CounterFeature() }
/// ```
///
/// `embed` is the case constructor. `extract` works by reflection, as swift-case-paths did
/// before macros: it takes the parent value's payload with `Mirror`, casts it to the child
/// type, and accepts it only when embedding it again produces the same case (so two cases
/// with the same payload type are told apart). The case name is learned on first use and
/// checked cheaply afterwards. Where an action is hot, spell both directions out:
///
/// ```swift
/// CasePath(embed: Action.counter, extract: { if case .counter(let a) = $0 { a } else { nil } })
/// ```
public struct CasePath<Root, Value> {
  /// Puts a value into the case.
  public let embed: (Value) -> Root
  /// The value in the case, or `nil` when `root` is another case.
  public let extract: (Root) -> Value?

  /// A case path with both directions given explicitly.
  public init(embed: @escaping (Value) -> Root, extract: @escaping (Root) -> Value?) {
    self.embed = embed
    self.extract = extract
  }

  /// A case path from an enum case constructor, e.g. `CasePath(Action.counter)`.
  public init(_ embed: @escaping (Value) -> Root) {
    let cache = CaseNameCache()
    self.embed = embed
    self.extract = { root in CaseReflection.extract(from: root, embed: embed, cache: cache) }
  }
}

/// Remembers the case name an embed function produces, once learned.
final class CaseNameCache: Sendable {
  let name = Mutex<String?>(nil)
}

enum CaseReflection {
  /// The case name and payload of an enum value, or `nil` when it is not an enum case with a
  /// payload.
  static func caseAndPayload(of value: Any) -> (name: String, payload: Any)? {
    let mirror = Mirror(reflecting: value)
    guard mirror.displayStyle == .enum, let child = mirror.children.first, let name = child.label else { return nil }
    return (name, child.value)
  }

  static func caseName(of value: Any) -> String? {
    let mirror = Mirror(reflecting: value)
    guard mirror.displayStyle == .enum else { return nil }
    if let label = mirror.children.first?.label { return label }
    return String(describing: value)
  }

  static func extract<Root, Value>(from root: Root, embed: (Value) -> Root, cache: CaseNameCache) -> Value? {
    guard let (name, payload) = caseAndPayload(of: root) else { return nil }
    if let known = cache.name.withLock({ $0 }) {
      guard known == name else { return nil }
      return payload as? Value
    }
    guard let value = payload as? Value else { return nil }
    // Learn which case `embed` builds by embedding the payload again.
    guard let embeddedName = caseAndPayload(of: embed(value))?.name else { return nil }
    cache.name.withLock { $0 = embeddedName }
    return embeddedName == name ? value : nil
  }
}
