/// An enum's cases, read once from its metadata (stable ABI), so that a value's case and
/// payload cost two calls of the enum's value witnesses, not a reflection query — which looks
/// the payload's type up by its mangled name on every value (~2,300 instructions). Every
/// action a recorded store receives is such a value.
///
/// Built only when every case can be read this way: a field record per case (reflection
/// metadata present), payload types that resolve, no `indirect` case, value witnesses for
/// enums. Otherwise ``TypeInfo/enumCases`` is `nil` and the runtime's reflection answers, as
/// it always did; `EnumPayloadTests` compares the two on every kind of payload.
// @unchecked: every stored property is a `let` set in `init`; the pointers are immutable
// runtime metadata.
final class EnumCases: @unchecked Sendable {
  /// A reference: a case is handed around on every action, and copying a reference is one
  /// retain where copying its members is three.
  // @unchecked: `let`s only; the payload's metatype is immutable runtime data.
  final class Case: @unchecked Sendable {
    let name: String
    /// The type name and the case name: the action label (`RowsFeature.Action.toggle`).
    let label: String
    /// The payload's type; `nil` for a case without one.
    let payload: (any Any.Type)?
    /// For a scalar payload (``ScalarRenderable``): its rendering at an address.
    let scalarPayload: ((UnsafeRawPointer) -> JSON)?

    init(name: String, label: String, payload: (any Any.Type)?) {
      self.name = name
      self.label = label
      self.payload = payload
      func scalar<T: ScalarRenderable>(_: T.Type) -> (UnsafeRawPointer) -> JSON { { T.scalarJSON(at: $0) } }
      scalarPayload = (payload as? any ScalarRenderable.Type).map { scalar($0) }
    }
  }

  let cases: [Case]
  private let metadata: UnsafeRawPointer
  private let getTag: @convention(c) (UnsafeRawPointer, UnsafeRawPointer) -> UInt32
  /// Copies the enum at the first address, projects the payload of the case with the given
  /// tag out of the copy, and hands the payload's address to the body (then lets the copy go).
  private let withPayload: (UnsafeRawPointer, UInt32, (UnsafeRawPointer) -> Void) -> Void

  init?(_ type: any Any.Type) {
    guard TypeKind(type) == .enum else { return nil }
    let metadata = unsafeBitCast(type, to: UnsafeRawPointer.self)
    let word = MemoryLayout<UnsafeRawPointer>.size
    // The value witness table sits one word before the metadata: eight witnesses, `size`,
    // `stride`, then `flags` and `extraInhabitantCount` (32 bits each); an enum's table goes
    // on with `getEnumTag`, `destructiveProjectEnumData` and `destructiveInjectEnumTag`.
    let witnesses = metadata.load(fromByteOffset: -word, as: UnsafeRawPointer.self)
    let flags = witnesses.load(fromByteOffset: 10 * word, as: UInt32.self)
    guard flags & 0x0020_0000 != 0 else { return nil }  // HasEnumWitnesses
    let enumWitnesses = 10 * word + 8
    getTag = unsafeBitCast(witnesses.load(fromByteOffset: enumWitnesses, as: UnsafeRawPointer.self), to: (@convention(c) (UnsafeRawPointer, UnsafeRawPointer) -> UInt32).self)
    let project = unsafeBitCast(
      witnesses.load(fromByteOffset: enumWitnesses + word, as: UnsafeRawPointer.self),
      to: (@convention(c) (UnsafeMutableRawPointer, UnsafeRawPointer) -> Void).self)
    let inject = unsafeBitCast(
      witnesses.load(fromByteOffset: enumWitnesses + 2 * word, as: UnsafeRawPointer.self),
      to: (@convention(c) (UnsafeMutableRawPointer, UInt32, UnsafeRawPointer) -> Void).self)
    guard let cases = Self.readCases(of: type, metadata: metadata) else { return nil }
    self.cases = cases
    self.metadata = metadata
    func projector<E>(_: E.Type) -> (UnsafeRawPointer, UInt32, (UnsafeRawPointer) -> Void) -> Void {
      // A plain-bytes enum (no references in any case) is copied as bytes and needs no cleanup.
      let isPOD = _isPOD(E.self)
      return { value, tag, body in
        withUnsafeTemporaryAllocation(of: E.self, capacity: 1) { buffer in
          let copy = buffer.baseAddress!
          if isPOD {
            UnsafeMutableRawPointer(copy).copyMemory(from: value, byteCount: MemoryLayout<E>.size)
          } else {
            copy.initialize(to: value.assumingMemoryBound(to: E.self).pointee)
          }
          project(UnsafeMutableRawPointer(copy), metadata)
          body(UnsafeRawPointer(copy))
          if !isPOD {
            inject(UnsafeMutableRawPointer(copy), tag, metadata)
            copy.deinitialize(count: 1)
          }
        }
      }
    }
    withPayload = _openExistential(type, do: projector)
  }

  /// The case name and payload of the enum value at `address`; `nil` payload for a case
  /// without one.
  func caseAndPayload(at address: UnsafeRawPointer) -> (case: Case, payload: Any?)? {
    let tag = getTag(address, metadata)
    guard Int(tag) < cases.count else { return nil }
    let found = cases[Int(tag)]
    guard let payload = found.payload else { return (found, nil) }
    var loaded: Any?
    withPayload(address, tag) { loaded = TypeInfo.load(payload, at: $0) }
    return (found, loaded)
  }

  /// The case of the enum value at `address` and its payload's rendering when the payload is a
  /// scalar (``Case/scalarPayload``), read where it lies: no payload boxed into an `Any`.
  /// `nil` when the payload is not a scalar; a `nil` rendering for a case without a payload.
  func caseAndScalarPayload(at address: UnsafeRawPointer) -> (case: Case, json: JSON?)? {
    let tag = getTag(address, metadata)
    guard Int(tag) < cases.count else { return nil }
    let found = cases[Int(tag)]
    guard found.payload != nil else { return (found, nil) }
    guard let render = found.scalarPayload else { return nil }
    var json: JSON?
    withPayload(address, tag) { json = render($0) }
    return (found, json)
  }

  // MARK: - Reading the metadata

  /// The cases in tag order (payload cases first, as the field records list them), from the
  /// type descriptor (the payload cases' count in the low 24 bits of the word at 20, the empty
  /// cases' count at 24) and its field records (``TypeInfo/fieldRecords(of:)``).
  private static func readCases(of type: any Any.Type, metadata: UnsafeRawPointer) -> [Case]? {
    let descriptor = metadata.load(fromByteOffset: MemoryLayout<UnsafeRawPointer>.size, as: UnsafeRawPointer.self)
    let payloadCases = Int(descriptor.load(fromByteOffset: 20, as: UInt32.self) & 0x00FF_FFFF)
    let emptyCases = Int(descriptor.load(fromByteOffset: 24, as: UInt32.self))
    guard let records = TypeInfo.fieldRecords(of: descriptor), records.count == payloadCases + emptyCases else { return nil }
    let typeName = TypeName.of(type)
    // A value type's generic arguments follow its kind and description.
    let genericArguments = metadata + 2 * MemoryLayout<UnsafeRawPointer>.size
    var cases: [Case] = []
    cases.reserveCapacity(records.count)
    for (index, record) in records.enumerated() {
      let flags = record.load(as: UInt32.self)
      guard flags & 0x1 == 0 else { return nil }  // indirect: the payload sits in a box
      let nameOffset = record.load(fromByteOffset: 8, as: Int32.self)
      guard nameOffset != 0 else { return nil }
      let name = String(cString: (record + 8 + Int(nameOffset)).assumingMemoryBound(to: CChar.self))
      let typeOffset = record.load(fromByteOffset: 4, as: Int32.self)
      var payload: (any Any.Type)?
      if typeOffset != 0 {
        let mangled = (record + 4 + Int(typeOffset)).assumingMemoryBound(to: UInt8.self)
        guard
          let resolved = _getTypeByMangledNameInContext(
            mangled, UInt(mangledNameLength(mangled)), genericContext: descriptor, genericArguments: genericArguments)
        else { return nil }
        payload = resolved
      }
      // The payload cases come first; a case laid out as empty may still have a payload of no
      // size (see `TypeInfo.enumHasPayloadCases`).
      guard index >= payloadCases || payload != nil else { return nil }
      cases.append(Case(name: name, label: String(joining: typeName, ".", name), payload: payload))
    }
    return cases
  }

  /// The length of a mangled name in metadata: it ends at a zero byte, but symbolic references
  /// (a control byte and a 4-byte relative or pointer-sized absolute reference) may hold zeros.
  private static func mangledNameLength(_ start: UnsafePointer<UInt8>) -> Int {
    var length = 0
    while true {
      let byte = start[length]
      switch byte {
      case 0: return length
      case 0x01...0x17: length += 1 + 4
      case 0x18...0x1F: length += 1 + MemoryLayout<UnsafeRawPointer>.size
      default: length += 1
      }
    }
  }
}
