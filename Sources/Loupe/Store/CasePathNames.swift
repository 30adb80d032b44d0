import LoupeCore

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
