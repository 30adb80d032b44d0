import Foundation
import LoupeCore

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
@dynamicMemberLookup
public struct CasePath<Root, Value> {
  /// Puts a value into the case.
  public let embed: (Value) -> Root
  /// The value in the case, or `nil` when `root` is another case.
  public let extract: (Root) -> Value?
  /// The case's path below `Root` as a reader writes it (`factResponse.success`,
  /// `rows[id: 2].addTapped`), when known: what failure messages name.
  package var _caseName: String?

  /// A case path with both directions given explicitly.
  public init(embed: @escaping (Value) -> Root, extract: @escaping (Root) -> Value?) {
    self.embed = embed
    self.extract = extract
  }

  init(embed: @escaping (Value) -> Root, extract: @escaping (Root) -> Value?, name: String?) {
    self.embed = embed
    self.extract = extract
    self._caseName = name
  }

  /// A case path from an enum case constructor, e.g. `CasePath(Action.counter)`.
  public init(_ embed: @escaping (Value) -> Root) {
    let cache = CaseNameCache()
    self.embed = embed
    self.extract = { root in CaseReflection.extract(from: root, embed: embed, cache: cache) }
  }
}

extension CasePath {
  /// A case path from the constructor of a case with two payload values:
  /// `CasePath(Action.forecastResponse)` for `case forecastResponse(Int, Result<…>)`.
  public init<A, B>(_ embed: @escaping (A, B) -> Root) where Value == (A, B) {
    self.init { (value: (A, B)) in embed(value.0, value.1) }
  }

  /// A case path from the constructor of a case with three payload values.
  public init<A, B, C>(_ embed: @escaping (A, B, C) -> Root) where Value == (A, B, C) {
    self.init { (value: (A, B, C)) in embed(value.0, value.1, value.2) }
  }
}

extension CasePath where Value == Void {
  /// A case path to a case without a payload, from the case itself:
  /// `CasePath(case: Action.finished)` (unlabelled, it would be ambiguous with the
  /// constructor form when `Root` is not known from the context).
  public init(case value: @autoclosure @escaping () -> Root) {
    self.init { (_: Void) in value() }
  }
}

/// Remembers the case an embed function produces, once learned.
final class CaseNameCache: Sendable {
  /// The case's name as the runtime stores it: a pointer into the enum's metadata, the same
  /// for every value of that case.
  let name = Lock<CaseName?>(nil)
}

/// A case name pointer from the runtime's reflection metadata (immortal, never freed).
struct CaseName: @unchecked Sendable {
  let pointer: UnsafePointer<CChar>
}

/// The Swift runtime's case-name lookup (what `String(describing:)` uses for enums): the name
/// of `value`'s case without building a `Mirror`. Exported by the runtime on every platform.
@_silgen_name("swift_EnumCaseName")
private func _enumCaseName<T>(_ value: T) -> UnsafePointer<CChar>?

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
    if Value.self == Void.self {
      // A case without a payload has no `Mirror` child: compare its name with the one the
      // constructor's value has.
      let known = cache.name.withLock({ $0 }) ?? {
        let pointer = _enumCaseName(embed(() as! Value)).map(CaseName.init(pointer:))
        cache.name.withLock { $0 = pointer }
        return pointer
      }()
      guard let known, let name = _enumCaseName(root), name == known.pointer || LibC.equalCStrings(name, known.pointer)
      else { return nil }
      return (() as! Value)
    }
    if let known = cache.name.withLock({ $0 }) {
      // Fast path: reject other cases by comparing the runtime's case name pointers; only
      // the matching case pays for a `Mirror` to project its payload.
      guard let name = _enumCaseName(root), name == known.pointer || LibC.equalCStrings(name, known.pointer) else { return nil }
      return caseAndPayload(of: root)?.payload as? Value
    }
    guard let (name, payload) = caseAndPayload(of: root), let value = payload as? Value else { return nil }
    // Learn which case `embed` builds by embedding the payload again.
    let embedded = embed(value)
    guard let embeddedName = caseAndPayload(of: embedded)?.name else { return nil }
    if let pointer = _enumCaseName(embedded) {
      cache.name.withLock { $0 = CaseName(pointer: pointer) }
    }
    return embeddedName == name ? value : nil
  }
}

extension CasePath {
  /// How a failure message names the case: `Feature.Action.fetched(…)`,
  /// `Feature.Action.finished`, `Feature.Action.factResponse.success(…)`; `nil` when the
  /// case cannot be told without a value of it.
  ///
  /// A case path built from a constructor learns its case by embedding a value made from
  /// nothing: `()` for a case without a payload, an empty literal for a payload that can be
  /// written as one (`0`, `""`, `false`, `[]`, `nil`, …).
  package var caseText: String? {
    let type = ValueRenderer.typeName(Root.self)
    if let name = _caseName { return "\(type).\(name)" + (Value.self == Void.self ? "" : "(…)") }
    guard let sample = EmptyValue.make(Value.self), let caseName = CaseReflection.caseName(of: embed(sample)) else {
      return nil
    }
    return "\(type).\(caseName)" + (Value.self == Void.self ? "" : "(…)")
  }
}

/// Values made from nothing, to learn which case a constructor builds.
enum EmptyValue {
  static func make<Value>(_ type: Value.Type) -> Value? {
    if Value.self == Void.self { return (() as! Value) }
    switch type {
    case let type as any ExpressibleByNilLiteral.Type: return nilLiteral(type) as? Value
    case let type as any ExpressibleByBooleanLiteral.Type: return boolean(type) as? Value
    case let type as any ExpressibleByIntegerLiteral.Type: return integer(type) as? Value
    case let type as any ExpressibleByStringLiteral.Type: return string(type) as? Value
    case let type as any ExpressibleByArrayLiteral.Type: return array(type) as? Value
    case let type as any ExpressibleByDictionaryLiteral.Type: return dictionary(type) as? Value
    default: return nil
    }
  }

  private static func nilLiteral<T: ExpressibleByNilLiteral>(_: T.Type) -> T { nil }
  private static func boolean<T: ExpressibleByBooleanLiteral>(_: T.Type) -> T { false }
  private static func integer<T: ExpressibleByIntegerLiteral>(_: T.Type) -> T { 0 }
  private static func string<T: ExpressibleByStringLiteral>(_: T.Type) -> T { "" }
  private static func array<T: ExpressibleByArrayLiteral>(_: T.Type) -> T { [] }
  private static func dictionary<T: ExpressibleByDictionaryLiteral>(_: T.Type) -> T { [:] }
}
