@_spi(Reflection) import Swift
import Synchronization

/// What rendering and diffing need to know about a type, worked out once per type.
///
/// A `Mirror` re-reads the type's reflection metadata (and demangles each field's type name)
/// on every child it returns, which dominates the cost of walking a state. Here a type's
/// stored properties — name, byte offset, type — are read once with the standard library's
/// `_forEachField`, and a value's fields are then loaded straight from its memory.
///
/// Direct loading is used only where it is certainly sound: structs and classes that do not
/// customize their mirror and whose stored properties cannot be `weak` or `unowned` (those
/// need the runtime's reference-storage handling). Everything else goes through `Mirror`.
// @unchecked: every stored property is a `let` set in `init`; the metatypes it holds are
// immutable runtime data (only the compiler's conservative view of `any Equatable.Type`
// keeps this from being checked `Sendable`).
final class TypeInfo: @unchecked Sendable {
  struct Field: Sendable {
    /// The name as rendered (see `Reflection.fields`).
    let label: String
    let offset: Int
    let type: any Any.Type
  }

  let kind: TypeKind
  let isBuiltin: Bool
  /// The built-in rule for this type, called without a conformance lookup per value.
  let renderBuiltin: ((Any, inout Renderer) -> JSON)?
  let diffBuiltin: ((Any, Any, inout Differ) -> Void)?
  let isRedacted: Bool
  let isCustom: Bool
  /// The type as `Equatable`, when it is.
  let equatable: (any Equatable.Type)?
  /// The stored properties in rendering order, when they can be loaded directly.
  let fields: [Field]?
  /// For enums: whether some case carries a payload (if not, a value is just its case name).
  let hasPayloadCases: Bool
  /// The byte ranges of a value that hold data, padding left out: two values with the same
  /// bytes there hold the same scalars and references (see `Reflection.identicalBits`).
  let meaningfulBytes: [Range<Int>]

  private init(_ type: any Any.Type) {
    kind = TypeKind(type)
    if let builtin = type as? any BuiltinRenderable.Type {
      func thunks<T: BuiltinRenderable>(_: T.Type) -> ((Any, inout Renderer) -> JSON, (Any, Any, inout Differ) -> Void) {
        ({ value, renderer in (value as! T).render(in: &renderer) }, { old, new, differ in (old as! T).diff(against: new, in: &differ) })
      }
      (renderBuiltin, diffBuiltin) = thunks(builtin)
      isBuiltin = true
    } else {
      (renderBuiltin, diffBuiltin) = (nil, nil)
      isBuiltin = false
    }
    isRedacted = type is any LoupeRedacted.Type
    isCustom = type is any CustomLoupeRepresentable.Type
    equatable = type as? any Equatable.Type
    let customMirror = type is any CustomReflectable.Type
    switch kind {
    case .struct where !customMirror && !isBuiltin: fields = Self.directFields(of: type, options: [])
    // `.classType` (a `static var`, hence spelled by its raw value): offsets from the object's
    // start, superclass properties included.
    case .class where !customMirror: fields = Self.directFields(of: type, options: _EachFieldOptions(rawValue: 1))
    // Tuple elements cannot be weak; unlabeled ones are named ".0", ".1", … here.
    case .tuple: fields = Self.directFields(of: type, options: [])
    default: fields = nil
    }
    hasPayloadCases = kind == .enum ? Self.enumHasPayloadCases(type) : false
    meaningfulBytes = Self.meaningfulBytes(of: type, kind: kind)
  }

  /// Whether two values of this type have the same meaningful bytes (then they render the
  /// same). A `false` proves nothing.
  func identicalBits(_ a: Any, _ b: Any) -> Bool {
    let ranges = meaningfulBytes
    func open<T>(_ a: T) -> Bool {
      guard let b = b as? T else { return false }
      return withUnsafeBytes(of: a) { pa in
        withUnsafeBytes(of: b) { pb in Reflection.sameBytes(pa.baseAddress, pb.baseAddress, ranges) }
      }
    }
    return _openExistential(a, do: open)
  }

  /// `a == b` for two values of this type, or `nil` when it is not `Equatable`.
  func equal(_ a: Any, _ b: Any) -> Bool? {
    guard let equatable else { return nil }
    func open<T: Equatable>(_: T.Type) -> Bool {
      guard let a = a as? T, let b = b as? T else { return false }
      return a == b
    }
    return open(equatable)
  }

  private static let cache = Mutex<[ObjectIdentifier: TypeInfo]>([:])

  static func of(_ type: any Any.Type) -> TypeInfo {
    let key = ObjectIdentifier(type)
    if let info = cache.withLock({ $0[key] }) { return info }
    let info = TypeInfo(type)
    cache.withLock { $0[key] = info }
    return info
  }

  // MARK: - Stored properties

  private static func directFields(of type: any Any.Type, options: _EachFieldOptions) -> [Field]? {
    var raw: [(name: String, offset: Int, type: any Any.Type)] = []
    var sound = true
    let isTuple = TypeKind(type) == .tuple
    let complete = _forEachField(of: type, options: options) { name, offset, fieldType, _ in
      if !isTuple, mayBeReferenceStorage(fieldType) {
        sound = false
        return false
      }
      raw.append((String(cString: name), offset, fieldType))
      return true
    }
    guard complete, sound else { return nil }
    if isTuple { return raw.map { Field(label: $0.name, offset: $0.offset, type: $0.type) } }
    let labels = Reflection.displayLabels(raw.map(\.name))
    return zip(labels, raw).compactMap { label, field in
      label.map { Field(label: $0, offset: field.offset, type: field.type) }
    }
  }

  /// Whether a stored property of this type could be `weak`, `unowned` or `unowned(unsafe)`:
  /// a class, a class-bound or any existential, or an optional of one.
  private static func mayBeReferenceStorage(_ type: any Any.Type) -> Bool {
    switch TypeKind(type) {
    case .class, .existential: return true
    case .optional:
      // Optional<Wrapped>: its generic argument follows the description pointer.
      let wrapped = unsafeBitCast(type, to: UnsafePointer<UnsafeRawPointer>.self)[2]
      return mayBeReferenceStorage(unsafeBitCast(wrapped, to: Any.Type.self))
    default: return false
    }
  }

  /// The values of `value`'s stored properties, loaded from its memory. Requires `fields`.
  func fieldValues(of value: Any) -> [(label: String, value: Any)] {
    guard let fields else { return [] }
    if kind == .class {
      let object = value as AnyObject
      return withExtendedLifetime(object) {
        let base = UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque())
        return fields.map { ($0.label, Self.load($0.type, at: base + $0.offset)) }
      }
    }
    func open<T>(_ value: T) -> [(label: String, value: Any)] {
      withUnsafeBytes(of: value) { bytes in
        fields.map { ($0.label, Self.load($0.type, at: bytes.baseAddress! + $0.offset)) }
      }
    }
    return _openExistential(value, do: open)
  }

  private static func load(_ type: any Any.Type, at pointer: UnsafeRawPointer) -> Any {
    func load<F>(_: F.Type) -> Any { pointer.assumingMemoryBound(to: F.self).pointee }
    return _openExistential(type, do: load)
  }

  // MARK: - Layout

  static func size(of type: any Any.Type) -> Int {
    func size<T>(_: T.Type) -> Int { MemoryLayout<T>.size }
    return _openExistential(type, do: size)
  }

  /// A struct's or tuple's fields' meaningful bytes at their offsets (padding between and
  /// inside fields excluded); any other value's bytes in full.
  private static func meaningfulBytes(of type: any Any.Type, kind: TypeKind) -> [Range<Int>] {
    let size = size(of: type)
    guard size > 0 else { return [] }
    guard kind == .struct || kind == .tuple else { return [0..<size] }
    var ranges: [Range<Int>] = []
    let complete = _forEachField(of: type) { _, offset, fieldType, _ in
      for range in TypeInfo.of(fieldType).meaningfulBytes {
        let shifted = (range.lowerBound + offset)..<(range.upperBound + offset)
        if let last = ranges.last, last.upperBound == shifted.lowerBound {
          ranges[ranges.count - 1] = last.lowerBound..<shifted.upperBound
        } else {
          ranges.append(shifted)
        }
      }
      return true
    }
    return complete ? ranges : [0..<size]
  }

  // MARK: - Enums

  /// Whether some case of the enum carries a payload, from its nominal type descriptor
  /// (stable ABI): `Flags`, `Parent`, `Name`, `AccessFunction`, `Fields` (five 32-bit words),
  /// then `NumPayloadCasesAndPayloadSizeOffset`, whose low 24 bits count the payload cases.
  ///
  /// That count is the *layout's*: a case whose payload is known at compile time to take no
  /// bytes (`case tapped(Child)` with `enum Child { case tapped }`, an empty struct, `Void`)
  /// is laid out — and counted — as a case without one, yet it has a payload that `Mirror`
  /// shows. So when the count is 0, the field records are read too: a case with a payload
  /// has a payload type there.
  private static func enumHasPayloadCases(_ type: any Any.Type) -> Bool {
    let metadata = unsafeBitCast(type, to: UnsafePointer<UnsafeRawPointer>.self)
    let descriptor = metadata[1]
    let payloadCases = descriptor.load(fromByteOffset: 20, as: UInt32.self) & 0x00FF_FFFF
    return payloadCases != 0 || someFieldRecordHasType(descriptor: descriptor)
  }

  /// Reads the field descriptor the type descriptor's `Fields` points to (stable ABI):
  /// `MangledTypeName`, `Superclass` (relative pointers), `Kind` (16 bits), `FieldRecordSize`
  /// (16 bits), `NumFields` (32 bits), then the records: `Flags`, `MangledTypeName`,
  /// `FieldName` (32 bits each). An enum case's record has a type name exactly when the case
  /// has a payload. With no reflection metadata (`-disable-reflection-metadata`) there are no
  /// records — and `Mirror` shows no payloads either.
  private static func someFieldRecordHasType(descriptor: UnsafeRawPointer) -> Bool {
    let fieldsOffset = descriptor.load(fromByteOffset: 16, as: Int32.self)
    guard fieldsOffset != 0 else { return false }
    let fields = descriptor + 16 + Int(fieldsOffset)
    let recordSize = Int(fields.load(fromByteOffset: 10, as: UInt16.self))
    let count = Int(fields.load(fromByteOffset: 12, as: UInt32.self))
    guard recordSize >= 12 else { return false }
    let records = fields + 16
    for index in 0..<count {
      let record = records + index * recordSize
      if record.load(fromByteOffset: 4, as: Int32.self) != 0 { return true }
    }
    return false
  }
}
