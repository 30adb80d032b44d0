@_spi(Reflection) import Swift
import Foundation

/// Whether a type's `==` can stand for "renders the same", so that the diff may skip two values
/// it calls equal.
///
/// `==` is trusted (see `protocol/values.md`, "Equatable is trusted") except where the
/// standard library's own `==` calls values equal that render differently: floating-point
/// numbers (`0.0 == -0.0`) and strings (`"é" == "e\u{301}"`, canonically equivalent, different
/// UTF-8). A type that holds any of them — a field, a payload, an element, at any depth — may
/// be called equal by a synthesized `==` while its rendering changed, so for it `==` is never a
/// reason to skip: the diff walks it and compares what is rendered. (`nan == nan` is `false`,
/// which only makes the diff look; it never hides a change.)
///
/// Worked out once per type from its layout: stored fields, enum payloads, optionals and the
/// standard containers' element types. What cannot be seen into (an existential, a struct
/// whose fields cannot be read) counts as holding one; a class's `==` is its own and is
/// trusted.
enum TrustedEquality {
  private static let cache = Lock<[ObjectIdentifier: Bool]>([:])

  /// Whether `==` on values of `type` may call two values equal that render differently.
  static func mayHideRenderedDifferences(_ type: any Any.Type) -> Bool {
    let key = ObjectIdentifier(type)
    if let known = cache.withLock({ $0[key] }) { return known }
    var visiting: Set<ObjectIdentifier> = []
    let answer = holdsLooseEquality(type, &visiting)
    cache.withLock { $0[key] = answer }
    return answer
  }

  private static func holdsLooseEquality(_ type: any Any.Type, _ visiting: inout Set<ObjectIdentifier>) -> Bool {
    if type is any BinaryFloatingPoint.Type || type is any StringProtocol.Type || type == Character.self { return true }
    if type is any WireEquatable.Type || type == AnyHashable.self || type == JSON.self || type == JSONObject.self { return true }
    if type == AttributedString.self || type == NSAttributedString.self { return true }
    if let container = type as? any ElementTypes.Type {
      return container.elementTypes.contains { holdsLooseEquality($0, &visiting) }
    }
    if let vector = type as? any SIMD.Type {
      func scalar<V: SIMD>(_: V.Type) -> any Any.Type { V.Scalar.self }
      return holdsLooseEquality(scalar(vector), &visiting)
    }
    let key = ObjectIdentifier(type)
    // A type met again on the way down (a tree of itself through an array): what else it
    // holds decides.
    guard visiting.insert(key).inserted else { return false }
    defer { visiting.remove(key) }
    switch TypeKind(type) {
    case .optional:
      let wrapped = unsafeBitCast(type, to: UnsafePointer<UnsafeRawPointer>.self)[2]
      return holdsLooseEquality(unsafeBitCast(wrapped, to: Any.Type.self), &visiting)
    case .struct, .tuple:
      // Other built-in values (`Int`, `Date`, `UUID`, `Data`…) compare what they render.
      if type is any BuiltinRenderable.Type { return false }
      var fieldTypes: [any Any.Type] = []
      let complete = _forEachField(of: type, options: []) { _, _, fieldType, _ in
        fieldTypes.append(fieldType)
        return true
      }
      guard complete else { return true }
      return fieldTypes.contains { holdsLooseEquality($0, &visiting) }
    case .enum:
      guard TypeInfo.enumHasPayloadCases(type) else { return false }
      guard let cases = EnumCases(type) else { return true }
      return cases.cases.contains { $0.payload.map { holdsLooseEquality($0, &visiting) } ?? false }
    case .existential, .other:
      // The runtime's own builtin types (`Builtin.Int64` inside `Int`) are plain bits.
      return unsafeBitCast(type, to: UnsafePointer<Int>.self).pointee != 0x300
    case .class, .function, .metatype:
      return false
    }
  }
}

/// The types a standard container holds, for ``TrustedEquality``.
protocol ElementTypes {
  static var elementTypes: [any Any.Type] { get }
}

extension Array: ElementTypes { static var elementTypes: [any Any.Type] { [Element.self] } }
extension ContiguousArray: ElementTypes { static var elementTypes: [any Any.Type] { [Element.self] } }
extension ArraySlice: ElementTypes { static var elementTypes: [any Any.Type] { [Element.self] } }
extension Set: ElementTypes { static var elementTypes: [any Any.Type] { [Element.self] } }
extension Dictionary: ElementTypes { static var elementTypes: [any Any.Type] { [Key.self, Value.self] } }
extension IdentifiedArray: ElementTypes { static var elementTypes: [any Any.Type] { [ID.self, Element.self] } }
extension Range: ElementTypes { static var elementTypes: [any Any.Type] { [Bound.self] } }
extension ClosedRange: ElementTypes { static var elementTypes: [any Any.Type] { [Bound.self] } }
extension PartialRangeFrom: ElementTypes { static var elementTypes: [any Any.Type] { [Bound.self] } }
extension PartialRangeUpTo: ElementTypes { static var elementTypes: [any Any.Type] { [Bound.self] } }
extension PartialRangeThrough: ElementTypes { static var elementTypes: [any Any.Type] { [Bound.self] } }
extension Measurement: ElementTypes { static var elementTypes: [any Any.Type] { [Double.self] } }
