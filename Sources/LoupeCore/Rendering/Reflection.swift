import Foundation

/// What the runtime knows about a value's type, read without building a `Mirror`.
///
/// The rendering and the diff dispatch on this first: it is one load from the type's metadata
/// (its "kind", part of Swift's stable ABI), where a `Mirror` allocates.
enum TypeKind: Equatable {
  case `struct`, `enum`, optional, `class`, tuple, function, metatype, existential, other

  init(_ type: Any.Type) {
    let raw = unsafeBitCast(type, to: UnsafePointer<Int>.self).pointee
    switch raw {
    case 0x200: self = .struct
    case 0x201: self = .enum
    case 0x202: self = .optional
    case 0x301: self = .tuple
    case 0x302: self = .function
    case 0x303: self = .existential
    case 0x304, 0x306: self = .metatype
    // 0 is a Swift class without Objective-C interop; above the last enumerated kind (0x7FF)
    // the word is an Objective-C isa pointer, i.e. a class; 0x203 foreign, 0x305 ObjC wrapper.
    case 0, 0x203, 0x305: self = .class
    case 0x800...: self = .class
    default: self = .other
    }
  }
}

/// Unwraps an optional held in an `Any` without a `Mirror`.
protocol AnyOptional {
  var wrappedAny: Any? { get }
}

extension Optional: AnyOptional {
  var wrappedAny: Any? {
    switch self {
    case .some(let wrapped): wrapped
    case .none: nil
    }
  }
}

@_silgen_name("swift_EnumCaseName")
private func _swiftEnumCaseName<T>(_ value: T) -> UnsafePointer<CChar>?

// The runtime's reflection entry points behind `Mirror` (the standard library declares them
// the same way): an enum's payload is its one child, named by its case.
@_silgen_name("swift_reflectionMirror_count")
private func _reflectionChildCount<T>(_ value: T, type: Any.Type) -> Int

private typealias ReflectionNameFree = @convention(c) (UnsafePointer<CChar>?) -> Void

@_silgen_name("swift_reflectionMirror_subscript")
private func _reflectionChild<T>(
  of value: T, type: Any.Type, index: Int, outName: UnsafeMutablePointer<UnsafePointer<CChar>?>,
  outFreeFunc: UnsafeMutablePointer<ReflectionNameFree?>
) -> Any

enum Reflection {
  /// The case name and payload of an enum value whose case carries one — what
  /// `Mirror(reflecting:)` gives as its one child — without building the `Mirror` (a recorded
  /// `send` renders its action this way: ~10,000 instructions less). `nil` for a case without
  /// a payload. Only for types without a custom mirror (`CustomReflectable`), which a
  /// `Mirror` must be asked for.
  ///
  /// With `everyCaseHasPayload` (``TypeInfo/everyCaseHasPayload``) the count is not asked.
  static func caseAndPayload(_ value: Any, everyCaseHasPayload: Bool = false) -> (name: String, payload: Any)? {
    labelledCaseAndPayload(value, everyCaseHasPayload: everyCaseHasPayload).map { ($0.name, $0.payload) }
  }

  /// ``caseAndPayload(_:everyCaseHasPayload:)``, with the action label of the case when the
  /// enum's cases are known (``EnumCases``): read with the enum's value witnesses then.
  static func labelledCaseAndPayload(
    _ value: Any, everyCaseHasPayload: Bool = false
  ) -> (name: String, payload: Any, label: String?)? {
    let value = opened(value)
    if let cases = TypeInfo.of(type(of: value)).enumCases,
      let found = TypeInfo.withAddress(of: value, { $0.flatMap(cases.caseAndPayload(at:)) })
    {
      guard let payload = found.payload else { return nil }
      return (found.case.name, payload, found.case.label)
    }
    return reflectedCaseAndPayload(value, everyCaseHasPayload: everyCaseHasPayload).map { ($0.name, $0.payload, nil) }
  }

  /// ``caseAndPayload(_:everyCaseHasPayload:)`` asked of the runtime's reflection.
  static func reflectedCaseAndPayload(_ value: Any, everyCaseHasPayload: Bool = false) -> (name: String, payload: Any)? {
    func open<T>(_ value: T) -> (name: String, payload: Any)? {
      guard everyCaseHasPayload || _reflectionChildCount(value, type: T.self) == 1 else { return nil }
      var name: UnsafePointer<CChar>?
      var free: ReflectionNameFree?
      let payload = _reflectionChild(of: value, type: T.self, index: 0, outName: &name, outFreeFunc: &free)
      defer { free?(name) }
      guard let name else { return nil }
      return (String(cString: name), payload)
    }
    // Opened to the enum itself: an `Any` boxed in generic code can hold another existential,
    // and the runtime reflects the type it is handed, which would then be the existential's.
    return _openExistential(opened(value), do: open)
  }

  /// The case name of an enum value, whatever its `description` says. `nil` for non-enums.
  static func caseName(_ value: Any) -> String? {
    func open<T>(_ value: T) -> String? {
      _swiftEnumCaseName(value).map { String(cString: $0) }
    }
    return _openExistential(value, do: open)
  }

  /// `value` as its dynamic type. An `Any` can hold another existential — an `any Error` or
  /// `any P` from a mirror's child or an optional's payload, an `AnyObject` — and then the
  /// value's bytes are that existential's box, not the value: reading a class's fields there,
  /// or taking `value as AnyObject` (which boxes the box), reads the wrong memory (an
  /// `NSError` in an `(any Error)?` crashed the host this way). Cheap when nothing is nested:
  /// one load of the held type's kind.
  static func opened(_ value: Any) -> Any {
    func heldKind<T>(_: T) -> Int { unsafeBitCast(T.self, to: UnsafePointer<Int>.self).pointee }
    var value = value
    // Existential (0x303) or existential metatype (0x306) held: cast it out, maybe repeatedly.
    var depth = 0
    while depth < 8, case let kind = _openExistential(value, do: heldKind), kind == 0x303 || kind == 0x306 {
      func cast<U>(_: U.Type) -> Any { value as! U }
      value = _openExistential(Swift.type(of: value), do: cast)
      depth += 1
    }
    return value
  }

  /// `value` with every level of optional removed; `nil` when some level is `nil`.
  static func unwrap(_ value: Any) -> Any? {
    var current = value
    while TypeKind(type(of: current)) == .optional {
      let info = TypeInfo.of(type(of: current))
      let wrapped = info.unwrapOptional.map { $0(current) } ?? (current as? any AnyOptional)?.wrappedAny
      guard let wrapped else { return nil }
      current = wrapped
    }
    return current
  }

  /// A struct's or class's stored properties in declaration order (a class's superclass
  /// properties first), with the names a reader expects:
  ///
  /// - `@Observable` classes: the macro's `_name` storage shows as `name`, and its
  ///   `_$observationRegistrar` is left out;
  /// - `lazy var name`: its `$__lazy_storage_$_name` storage shows as `name`.
  static func fields(_ value: Any) -> [(label: String, value: Any)] {
    fields(of: Mirror(reflecting: value))
  }

  static func fields(of mirror: Mirror) -> [(label: String, value: Any)] {
    var result: [(label: String, value: Any)] = []
    if let superclass = mirror.superclassMirror { result = fields(of: superclass) }
    let children = Array(mirror.children)
    let labels = displayLabels(children.enumerated().map { $0.element.label ?? "\($0.offset)" })
    for (label, child) in zip(labels, children) {
      if let label { result.append((label, child.value)) }
    }
    return result
  }

  /// The rendered names for stored property names, `nil` for a property left out.
  static func displayLabels(_ names: [String]) -> [String?] {
    let observed = names.contains("_$observationRegistrar")
    return names.map { name in
      if name == "_$observationRegistrar" { return nil }
      if name.hasPrefix("$__lazy_storage_$_") { return String(name.dropFirst("$__lazy_storage_$_".count)) }
      if observed, name.hasPrefix("_"), name.count > 1 { return String(name.dropFirst()) }
      return name
    }
  }

  /// A tuple's elements: labels `nil` for unlabeled positions.
  static func tupleElements(_ value: Any) -> [(label: String?, value: Any)] {
    let info = TypeInfo.of(type(of: value))
    if info.fields != nil {
      return info.fieldValues(of: value).map { ($0.label.hasPrefix(".") ? nil : $0.label, $0.value) }
    }
    return Mirror(reflecting: value).children.map { child in
      let label = child.label.flatMap { $0.hasPrefix(".") ? nil : $0 }
      return (label, child.value)
    }
  }

  /// Whether two values have identical bits (padding aside): then they render identically
  /// right now — they hold the same scalars and the same references. Used as the "identical
  /// storage" short cut: copies of an array, a dictionary, a string or a struct of them
  /// compare in O(1). A `false` proves nothing.
  static func bitwiseEqual(_ a: Any, _ b: Any) -> Bool {
    func open<T>(_ a: T) -> Bool {
      guard let b = b as? T else { return false }
      return identicalBits(a, b)
    }
    return _openExistential(a, do: open)
  }

  /// ``bitwiseEqual(_:_:)`` with the type known.
  static func identicalBits<T>(_ a: T, _ b: T) -> Bool {
    let info = TypeInfo.of(T.self)
    return withUnsafeBytes(of: a) { pa in
      withUnsafeBytes(of: b) { pb in info.sameBytes(pa, pb) }
    }
  }

  /// `a == b` for two values of type `T` where they lie. Read through `pointee`, each would
  /// be copied before a generic `==` is called (a retain and a release of every reference in
  /// it: ~600 instructions for a state holding an array); passed `inout`, both go by address.
  /// Neither is written. The two may be the same memory: raw pointers' accesses are not
  /// checked for exclusivity.
  @inline(__always)
  static func equal<T: Equatable>(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, as _: T.Type) -> Bool {
    @inline(__always) func equal(_ a: inout T, _ b: inout T) -> Bool { a == b }
    return equal(
      &UnsafeMutableRawPointer(mutating: a).assumingMemoryBound(to: T.self).pointee,
      &UnsafeMutableRawPointer(mutating: b).assumingMemoryBound(to: T.self).pointee)
  }

  /// Whether the bytes at `a` and `b` agree in `ranges`.
  static func sameBytes(_ a: UnsafeRawPointer?, _ b: UnsafeRawPointer?, _ ranges: [Range<Int>]) -> Bool {
    guard let a, let b else { return true }
    for range in ranges where LibC.memcmp(a + range.lowerBound, b + range.lowerBound, range.count) != 0 {
      return false
    }
    return true
  }

  /// `==` for `T` when it is `Equatable`, found once so a loop over elements pays no casts.
  static func equality<T>(_: T.Type) -> ((T, T) -> Bool)? {
    guard let equatable = T.self as? any Equatable.Type else { return nil }
    func open<U: Equatable>(_: U.Type) -> (T, T) -> Bool {
      { unsafeBitCast($0, to: U.self) == unsafeBitCast($1, to: U.self) }
    }
    return open(equatable)
  }

  /// Identical bits, else what the wire sees for strings and numbers (`WireEquatable`), else
  /// `==` when `T`'s is trusted (``TypeInfo/trustedEquatable``): a sound "nothing changed here".
  static func sameness<T>(_: T.Type) -> (T, T) -> Bool {
    // The conformances come from the type's cached `TypeInfo`: no protocol lookup per call.
    let info = TypeInfo.of(T.self)
    let bits: (T, T) -> Bool = { a, b in
      withUnsafeBytes(of: a) { pa in withUnsafeBytes(of: b) { pb in info.sameBytes(pa, pb) } }
    }
    if let wire = info.wireEquatable {
      func open<U: WireEquatable>(_: U.Type) -> (T, T) -> Bool {
        { unsafeBitCast($0, to: U.self).wireEquals(unsafeBitCast($1, to: U.self)) }
      }
      let wireEqual = open(wire)
      return { bits($0, $1) || wireEqual($0, $1) }
    }
    guard let equatable = info.trustedEquatable else { return bits }
    func openEquatable<U: Equatable>(_: U.Type) -> (T, T) -> Bool {
      { unsafeBitCast($0, to: U.self) == unsafeBitCast($1, to: U.self) }
    }
    let equality = openEquatable(equatable)
    return { bits($0, $1) || equality($0, $1) }
  }

  /// `a == b` when both are of one type whose `==` is trusted to skip the diff
  /// (``TypeInfo/trustedEquatable``), else `nil`.
  static func trustedEqual(_ a: Any, _ b: Any) -> Bool? {
    let a = opened(a), b = opened(b)
    guard type(of: a) == type(of: b) else { return nil }
    return TypeInfo.of(type(of: a)).equal(a, b)
  }

  /// `a == b` when the dynamic type is `Equatable`, else `nil`.
  static func equatableEqual(_ a: Any, _ b: Any) -> Bool? {
    guard let a = a as? any Equatable else { return nil }
    return a.isEqual(toAny: b)
  }
}

extension Equatable {
  fileprivate func isEqual(toAny other: Any) -> Bool {
    guard let other = other as? Self else { return false }
    return self == other
  }
}
