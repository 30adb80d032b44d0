@_spi(Reflection) import Swift

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

  /// The type this describes.
  let type: any Any.Type
  let kind: TypeKind
  let isBuiltin: Bool
  /// The built-in rule for this type, called without a conformance lookup per value.
  let renderBuiltin: ((Any, inout Renderer) -> JSON)?
  let diffBuiltin: ((Any, Any, inout Differ) -> Void)?
  let isRedacted: Bool
  let isCustom: Bool
  /// The type as `Equatable`, when it is.
  let equatable: (any Equatable.Type)?
  /// The type as `Equatable` when its `==` may skip the diff: not when it holds a number or
  /// a string, which `==` can call equal while they render differently (``TrustedEquality``).
  let trustedEquatable: (any Equatable.Type)?
  /// The type as `WireEquatable` (strings, numbers and containers of them), when it is: the
  /// diff compares these by what the wire shows, not by `==`.
  let wireEquatable: (any WireEquatable.Type)?
  /// The stored properties in rendering order, when they can be loaded directly.
  let fields: [Field]?
  /// For enums: whether some case carries a payload (if not, a value is just its case name).
  let hasPayloadCases: Bool
  /// For enums: whether every case carries a payload that reflection shows (no empty cases, field
  /// records present), so a value's payload count need not be asked.
  let everyCaseHasPayload: Bool
  /// For enums without a custom mirror: their cases, when their metadata can be read (see
  /// ``EnumCases``).
  let enumCases: EnumCases?
  /// Whether the type supplies its own `Mirror` (`CustomReflectable`): then only a `Mirror`
  /// shows what it wants seen.
  let hasCustomMirror: Bool
  /// The byte ranges of a value that hold data, padding left out: two values with the same
  /// bytes there hold the same scalars and references (see `Reflection.identicalBits`).
  let meaningfulBytes: [Range<Int>]
  /// ``meaningfulBytes`` as the 8-byte words of the value that hold them, each with the mask
  /// of its meaningful bytes (``sameBytes(_:_:)``). Held outside any array so that reading it
  /// once per element of a long array costs no retain; freed with the `TypeInfo`.
  private let words: UnsafeMutableBufferPointer<(offset: Int, mask: UInt64)>
  /// The meaningful bytes past the value's last whole word (its size is not always a
  /// multiple of 8), compared range by range.
  private let tailBytes: [Range<Int>]
  /// For structs with `fields`: each field's meaningful bytes, at its offset in the value.
  /// The diff compares these in place and loads only the fields that differ.
  let fieldBytes: [[Range<Int>]]?
  /// For optionals: the wrapped value, or `nil` for `.none` (one level).
  let unwrapOptional: ((Any) -> Any?)?
  /// For structs with `fieldBytes`: each field's own info, in `fields` order.
  let fieldInfos: [TypeInfo]?
  /// For structs with `fields`: the stored property the struct renders as its `id` member, when
  /// it is a property named `id` (not a wrapper's storage shown as `id`).
  let idField: Field?
  /// Whether ``idField`` is of type `id` (compared as metadata: no optional type to look up).
  func hasIDField(of id: any Any.Type) -> Bool {
    guard let idField else { return false }
    return ObjectIdentifier(idField.type) == ObjectIdentifier(id)
  }
  /// How ``Differ/diff(at:_:_:)`` takes two values of this type where they lie.
  let inPlace: InPlaceWalk
  /// The built-in diff of two values read at their addresses, for `inPlace == .builtin`.
  let diffBuiltinInPlace: ((UnsafeRawPointer, UnsafeRawPointer, inout Differ) -> Void)?
  /// `a == b` for two values read at their addresses, when the type is `Equatable`.
  let equalInPlace: ((UnsafeRawPointer, UnsafeRawPointer) -> Bool)?

  /// How the diff compares two values of a type without boxing them into `Any`s.
  enum InPlaceWalk {
    /// A struct whose stored fields load directly: compared field by field in place.
    case fields
    /// A built-in value: its rule reads both values at their addresses.
    case builtin
    /// Anything else (enums, optionals, classes, tuples, redacted or custom types, types with
    /// custom mirrors): loaded into `Any`s for the general walk.
    case boxed
  }

  private init(_ type: any Any.Type) {
    self.type = type
    kind = TypeKind(type)
    var diffInPlace: ((UnsafeRawPointer, UnsafeRawPointer, inout Differ) -> Void)?
    if let builtin = type as? any BuiltinRenderable.Type {
      // The value is read in place (it is of type `T`: the info was looked up by its type),
      // which costs less than a cast.
      func thunks<T: BuiltinRenderable>(_: T.Type) -> ((Any, inout Renderer) -> JSON, (Any, Any, inout Differ) -> Void) {
        (
          { value, renderer in
            TypeInfo.withAddress(of: value) { address in
              guard let address else { return (value as! T).render(in: &renderer) }
              return address.assumingMemoryBound(to: T.self).pointee.render(in: &renderer)
            }
          },
          { old, new, differ in
            TypeInfo.withAddress(of: old) { address in
              guard let address else { return (old as! T).diff(against: new, in: &differ) }
              address.assumingMemoryBound(to: T.self).pointee.diff(against: new, in: &differ)
            }
          }
        )
      }
      // Scalars compare their renderings made straight from their values.
      func scalarDiff<T: ScalarRenderable>(_: T.Type) -> (Any, Any, inout Differ) -> Void {
        { old, new, differ in
          // Scalars have a size, hence an address.
          let a = TypeInfo.withAddress(of: old) { T.scalarJSON(at: $0!) }
          let b = TypeInfo.withAddress(of: new) { T.scalarJSON(at: $0!) }
          differ.replaceIfDifferent(rendered: a, b)
        }
      }
      let (render, diff) = thunks(builtin)
      renderBuiltin = render
      diffBuiltin = (type as? any ScalarRenderable.Type).map { scalarDiff($0) } ?? diff
      func inPlace<T: BuiltinRenderable>(_: T.Type) -> (UnsafeRawPointer, UnsafeRawPointer, inout Differ) -> Void {
        { a, b, differ in T.diff(at: a, b, in: &differ) }
      }
      diffInPlace = inPlace(builtin)
      isBuiltin = true
    } else if type is any Actor.Type {
      // An actor's state is isolated to it: reading its stored properties from here would
      // race with the actor (a torn read can crash the program), and its mirror shows the
      // runtime's `$defaultActor`. It renders as what it is and which instance it is,
      // `"<actor Counter#1>"` (see ``ActorNumbers``): replacing it by another is a change.
      let name = TypeName.of(type)
      renderBuiltin = { value, _ in
        .string(RenderMarker.actor(name, number: ActorNumbers.number(of: Reflection.opened(value) as AnyObject)))
      }
      diffBuiltin = { old, new, differ in differ.replaceIfDifferent(old, new) }
      isBuiltin = true
    } else {
      (renderBuiltin, diffBuiltin) = (nil, nil)
      isBuiltin = false
    }
    isRedacted = type is any LoupeRedacted.Type
    isCustom = type is any CustomLoupeRepresentable.Type
    equatable = type as? any Equatable.Type
    trustedEquatable = equatable.flatMap { TrustedEquality.mayHideRenderedDifferences(type) ? nil : $0 }
    wireEquatable = type as? any WireEquatable.Type
    let customMirror = type is any CustomReflectable.Type
    hasCustomMirror = customMirror
    switch kind {
    case .struct where !customMirror && !isBuiltin: fields = Self.directFields(of: type, options: [])
    // `.classType` (a `static var`, hence spelled by its raw value): offsets from the object's
    // start, superclass properties included.
    case .class where !customMirror && !isBuiltin: fields = Self.directFields(of: type, options: _EachFieldOptions(rawValue: 1))
    // Tuple elements cannot be weak; unlabeled ones are named ".0", ".1", … here.
    case .tuple: fields = Self.directFields(of: type, options: [])
    default: fields = nil
    }
    hasPayloadCases = kind == .enum ? Self.enumHasPayloadCases(type) : false
    everyCaseHasPayload = kind == .enum ? Self.enumEveryCaseHasPayload(type) : false
    enumCases = kind == .enum && !customMirror ? EnumCases(type) : nil
    meaningfulBytes = Self.meaningfulBytes(of: type, kind: kind)
    (words, tailBytes) = Self.words(of: meaningfulBytes, size: Self.size(of: type))
    // Structs only: a struct cannot hold itself without indirection, so looking up its field
    // types cannot recurse back here (a class's field could be a tuple holding the class).
    if kind == .struct, let fields {
      fieldBytes = fields.map { field in
        TypeInfo.of(field.type).meaningfulBytes.map { ($0.lowerBound + field.offset)..<($0.upperBound + field.offset) }
      }
    } else {
      fieldBytes = nil
    }
    if kind == .struct, fields != nil {
      fieldInfos = fields?.map { TypeInfo.of($0.type) }
      idField = fields?.first { $0.label == "id" && Self.storedName(of: type, at: $0.offset) == "id" }
    } else {
      fieldInfos = nil
      idField = nil
    }
    if let equatable = trustedEquatable {
      func open<T: Equatable>(_: T.Type) -> (UnsafeRawPointer, UnsafeRawPointer) -> Bool {
        { Reflection.equal($0, $1, as: T.self) }
      }
      equalInPlace = open(equatable)
    } else {
      equalInPlace = nil
    }
    diffBuiltinInPlace = diffInPlace
    if kind != .optional, diffInPlace != nil {
      inPlace = .builtin
    } else if kind == .struct, fieldBytes != nil, !isBuiltin, !isRedacted, !isCustom {
      inPlace = .fields
    } else {
      inPlace = .boxed
    }
    if kind == .optional, let optional = type as? any AnyOptional.Type {
      func unwrapper<O: AnyOptional>(_: O.Type) -> (Any) -> Any? {
        { value in TypeInfo.withAddress(of: value) { $0?.assumingMemoryBound(to: O.self).pointee.wrappedAny } }
      }
      unwrapOptional = unwrapper(optional)
    } else {
      unwrapOptional = nil
    }
  }

  /// Calls `body` with the address of the value held in `value` (`nil` for a value of no
  /// size). Unlike a cast to the value's type, this costs no dynamic cast.
  static func withAddress<R>(of value: Any, _ body: (UnsafeRawPointer?) -> R) -> R {
    func open<T>(_ opened: T) -> R {
      let kind = unsafeBitCast(T.self, to: UnsafePointer<Int>.self).pointee
      if kind == 0x303 || kind == 0x306 {
        // An existential (or existential metatype) inside the `Any` (an `any Error` from an
        // optional's payload, a tuple element of type `any P`): the value is not at this
        // address but inside it. Cast it out to its dynamic type.
        func cast<U>(_: U.Type) -> R { withUnsafeBytes(of: value as! U) { body($0.baseAddress) } }
        return _openExistential(Swift.type(of: value), do: cast)
      }
      return withUnsafeBytes(of: opened) { body($0.baseAddress) }
    }
    return _openExistential(value, do: open)
  }

  /// Whether two values of this type have the same meaningful bytes (then they render the
  /// same). A `false` proves nothing. Both values must be of this type.
  func identicalBits(_ a: Any, _ b: Any) -> Bool {
    Self.withAddress(of: a) { pa in
      Self.withAddress(of: b) { pb in
        guard let pa, let pb else { return true }  // no size: nothing to differ
        return sameBytes(pa, pb)
      }
    }
  }

  /// `a == b` for two values of this type, or `nil` when its `==` is not trusted to skip the
  /// diff (not `Equatable`, or see ``trustedEquatable``). Both values must be of this type
  /// (they are read in place, without a cast).
  func equal(_ a: Any, _ b: Any) -> Bool? {
    guard let equatable = trustedEquatable else { return nil }
    func open<T: Equatable>(_: T.Type) -> Bool {
      Self.withAddress(of: a) { pa in
        Self.withAddress(of: b) { pb in
          guard let pa, let pb else { return (a as! T) == (b as! T) }  // no size, no address
          return Reflection.equal(pa, pb, as: T.self)
        }
      }
    }
    return open(equatable)
  }

  private static let cache = Lock(TypeTable())

  static func of(_ type: any Any.Type) -> TypeInfo {
    let key = UInt(bitPattern: unsafeBitCast(type, to: UnsafeRawPointer.self))
    if let info = cache.withLock({ $0[key] }) { return info }
    let info = TypeInfo(type)
    return cache.withLock { table in
      // Another thread may have made one meanwhile: the first stays.
      if let first = table[key] { return first }
      table.insert(info, for: key)
      return info
    }
  }

  /// The infos by metadata address, open addressing with linear probing: a lookup is a few
  /// instructions where a `Dictionary` hashes its key (the diff and the renderer look a type
  /// up at every value).
  private struct TypeTable {
    private var keys = [UInt](repeating: 0, count: 256)
    private var infos = [TypeInfo?](repeating: nil, count: 256)
    private var count = 0

    subscript(key: UInt) -> TypeInfo? {
      let mask = keys.count - 1
      var slot = Self.start(key, mask)
      while true {
        let found = keys[slot]
        if found == key { return infos[slot] }
        if found == 0 { return nil }
        slot = (slot + 1) & mask
      }
    }

    mutating func insert(_ info: TypeInfo, for key: UInt) {
      if (count + 1) * 2 > keys.count { grow() }
      let mask = keys.count - 1
      var slot = Self.start(key, mask)
      while keys[slot] != 0 { slot = (slot + 1) & mask }
      keys[slot] = key
      infos[slot] = info
      count += 1
    }

    private mutating func grow() {
      let (oldKeys, oldInfos) = (keys, infos)
      keys = [UInt](repeating: 0, count: oldKeys.count * 2)
      infos = [TypeInfo?](repeating: nil, count: oldKeys.count * 2)
      count = 0
      for (key, info) in zip(oldKeys, oldInfos) where key != 0 { insert(info!, for: key) }
    }

    /// Metadata are word-aligned: the low bits say nothing; the multiply spreads the rest.
    private static func start(_ key: UInt, _ mask: Int) -> Int {
      Int(truncatingIfNeeded: ((key >> 3) &* 0x9E37_79B9_7F4A_7C15) >> 40) & mask
    }
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
      let object = Reflection.opened(value) as AnyObject
      return withExtendedLifetime(object) {
        let base = UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque())
        return fields.map { ($0.label, Self.load($0.type, at: base + $0.offset)) }
      }
    }
    // Through `withAddress`: the value may sit inside another existential in the `Any` (an
    // optional's `any Error` payload), where opening the `Any` would give the container.
    let loaded: [(label: String, value: Any)]? = Self.withAddress(of: value) { base in
      base.map { base in fields.map { ($0.label, Self.load($0.type, at: base + $0.offset)) } }
    }
    if let loaded { return loaded }
    // No size, no address: fields of no size, read from anywhere.
    func open<T>(_ value: T) -> [(label: String, value: Any)] {
      withUnsafeBytes(of: value) { bytes in
        fields.map { ($0.label, Self.load($0.type, at: bytes.baseAddress! + $0.offset)) }
      }
    }
    return _openExistential(value, do: open)
  }

  /// The value of this type at `pointer`, boxed.
  func load(_ pointer: UnsafeRawPointer) -> Any { Self.load(type, at: pointer) }

  /// The declared name of the stored property at `offset` (a wrapper's storage is `_name`).
  private static func storedName(of type: any Any.Type, at offset: Int) -> String? {
    var name: String?
    _ = _forEachField(of: type, options: []) { field, fieldOffset, _, _ in
      if fieldOffset == offset { name = String(cString: field) }
      return name == nil
    }
    return name
  }

  static func load(_ type: any Any.Type, at pointer: UnsafeRawPointer) -> Any {
    func load<F>(_: F.Type) -> Any { pointer.assumingMemoryBound(to: F.self).pointee }
    return _openExistential(type, do: load)
  }

  deinit { words.deallocate() }

  /// Whether the values of this type at `a` and `b` have the same meaningful bytes: the
  /// masked words compared with no branch but the last, then the tail. (A `memcmp` per range
  /// cost three to four times as much on the few dozen bytes of a typical element, and the
  /// diff and `==` of arrays ask this once per element.)
  @inline(__always) func sameBytes(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer) -> Bool {
    var difference: UInt64 = 0
    for word in words {
      difference |= (a.loadUnaligned(fromByteOffset: word.offset, as: UInt64.self)
        ^ b.loadUnaligned(fromByteOffset: word.offset, as: UInt64.self)) & word.mask
    }
    return difference == 0 && (tailBytes.isEmpty || Reflection.sameBytes(a, b, tailBytes))
  }

  /// ``sameBytes(_:_:)`` of two values' bytes (without an address when of no size: nothing
  /// to differ).
  @inline(__always) func sameBytes(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
    guard let a = a.baseAddress, let b = b.baseAddress else { return true }
    return sameBytes(a, b)
  }

  /// The whole words (within `size`) that `ranges` touch, with masks of their bytes in
  /// them (little-endian: byte `i` of a word is bits `8i ..< 8i + 8`), and the parts of
  /// `ranges` past the last whole word.
  static func words(
    of ranges: [Range<Int>], size: Int
  ) -> (UnsafeMutableBufferPointer<(offset: Int, mask: UInt64)>, [Range<Int>]) {
    let wholeEnd = size & ~7
    var words: [(offset: Int, mask: UInt64)] = []
    for offset in Swift.stride(from: 0, to: wholeEnd, by: 8) {
      var mask: UInt64 = 0
      for range in ranges {
        let (first, end) = (Swift.max(range.lowerBound, offset), Swift.min(range.upperBound, offset + 8))
        guard first < end else { continue }
        for byte in first..<end { mask |= 0xFF << UInt64((byte - offset) * 8) }
      }
      if mask != 0 { words.append((offset, mask)) }
    }
    let tail = ranges.compactMap { range -> Range<Int>? in
      let clipped = Swift.max(range.lowerBound, wholeEnd)..<Swift.max(range.upperBound, wholeEnd)
      return clipped.isEmpty ? nil : clipped
    }
    let buffer = UnsafeMutableBufferPointer<(offset: Int, mask: UInt64)>.allocate(capacity: words.count)
    _ = buffer.initialize(from: words)
    return (buffer, tail)
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
  static func enumHasPayloadCases(_ type: any Any.Type) -> Bool {
    let metadata = unsafeBitCast(type, to: UnsafePointer<UnsafeRawPointer>.self)
    let descriptor = metadata[1]
    let payloadCases = descriptor.load(fromByteOffset: 20, as: UInt32.self) & 0x00FF_FFFF
    return payloadCases != 0 || someFieldRecordHasType(descriptor: descriptor)
  }

  /// No empty cases (`NumEmptyCases`, the descriptor's word after the payload cases' count) and
  /// a field record with a type for every case: then each value's case reflects one child.
  private static func enumEveryCaseHasPayload(_ type: any Any.Type) -> Bool {
    let metadata = unsafeBitCast(type, to: UnsafePointer<UnsafeRawPointer>.self)
    let descriptor = metadata[1]
    let payloadCases = descriptor.load(fromByteOffset: 20, as: UInt32.self) & 0x00FF_FFFF
    let emptyCases = descriptor.load(fromByteOffset: 24, as: UInt32.self)
    guard payloadCases > 0, emptyCases == 0, let records = fieldRecords(of: descriptor), records.count == Int(payloadCases)
    else { return false }
    return records.allSatisfy(recordHasType)
  }

  /// An enum case's record has a type name exactly when the case has a payload. With no
  /// reflection metadata (`-disable-reflection-metadata`) there are no records — and `Mirror`
  /// shows no payloads either.
  private static func someFieldRecordHasType(descriptor: UnsafeRawPointer) -> Bool {
    fieldRecords(of: descriptor)?.contains(where: recordHasType) ?? false
  }

  /// Whether a field record (see ``fieldRecords(of:)``) names a type.
  static func recordHasType(_ record: UnsafeRawPointer) -> Bool {
    record.load(fromByteOffset: 4, as: Int32.self) != 0
  }

  /// The records of the field descriptor a type descriptor's `Fields` (at byte 16) points to
  /// (stable ABI): the descriptor holds `MangledTypeName`, `Superclass` (relative pointers),
  /// `Kind` (16 bits), `FieldRecordSize` (16 bits), `NumFields` (32 bits), then the records:
  /// `Flags`, `MangledTypeName`, `FieldName` (32 bits each; the names relative to where they
  /// sit). `nil` when the type has no field descriptor or its records are not of that layout.
  static func fieldRecords(of descriptor: UnsafeRawPointer) -> [UnsafeRawPointer]? {
    let fieldsOffset = descriptor.load(fromByteOffset: 16, as: Int32.self)
    guard fieldsOffset != 0 else { return nil }
    let fields = descriptor + 16 + Int(fieldsOffset)
    let recordSize = Int(fields.load(fromByteOffset: 10, as: UInt16.self))
    let count = Int(fields.load(fromByteOffset: 12, as: UInt32.self))
    guard recordSize >= 12 else { return nil }
    return (0..<count).map { fields + 16 + $0 * recordSize }
  }
}
