/// A fast, allocation-light JSON writer into a byte buffer.
///
/// The writer keeps one flag for separators, so nested objects and arrays need no stack:
/// every value and key first writes a comma if one is due.
///
/// ```swift
/// var w = JSONWriter()
/// w.beginObject()
/// w.key("seq"); w.int(3)
/// w.key("kind"); w.string("mark")
/// w.endObject()
/// w.string   // {"seq":3,"kind":"mark"}
/// ```
public struct JSONWriter: Sendable {
  /// The buffer, shared by copies of a writer until one of them writes (copy on write).
  @usableFromInline var storage: JSONWriterStorage
  /// How many bytes of `storage` are written.
  public internal(set) var count = 0
  @usableFromInline var needsComma = false
  /// Set by an owner that never copies this writer while it is set (the trace writer, for the
  /// loop that encodes a batch into its scratch writer): writes then skip the check that the
  /// buffer is not shared with a copy, a call into the runtime for every write (~45 per
  /// recorded send). Any other writer keeps copy on write.
  var ownsStorage = false

  public init(capacity: Int = 256) {
    storage = JSONWriterStorage(capacity: capacity)
  }

  /// The bytes written so far (a copy; ``withBytes(_:)`` reads them in place).
  public var bytes: [UInt8] {
    get { Array(UnsafeBufferPointer(start: storage.base, count: count)) }
    set {
      storage = JSONWriterStorage(capacity: newValue.count)
      count = 0
      newValue.withUnsafeBufferPointer { rawBytes($0) }
    }
  }

  /// Calls `body` with the bytes written so far, without copying them.
  public func withBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
    try withExtendedLifetime(storage) { () throws(E) -> R in
      try body(UnsafeRawBufferPointer(start: storage.base, count: count))
    }
  }

  /// The text written so far.
  public var string: String { withBytes { String(decoding: $0, as: UTF8.self) } }

  /// Forgets what was written, keeping the buffer's capacity.
  public mutating func reset() {
    count = 0
    needsComma = false
  }

  /// Appends one byte as it is, with no separator (the line break after a trace line).
  public mutating func rawByte(_ byte: UInt8) {
    put(byte)
  }

  // Writing: every method makes room once (`tail`), then stores through a pointer. (Appending
  // to an array byte by byte, or a few bytes at a time, cost several times as much: the
  // uniqueness and capacity checks of each append, and a call for each run of bytes.)

  /// Room for `n` more bytes, uniquely owned: where they go.
  @inline(__always) @usableFromInline mutating func tail(_ n: Int) -> UnsafeMutablePointer<UInt8> {
    if _slowPath(storage.capacity &- count < n || (!ownsStorage && !isKnownUniquelyReferenced(&storage))) { grow(n) }
    return storage.base + count
  }

  @inline(never) @usableFromInline mutating func grow(_ n: Int) {
    let capacity = Swift.max(storage.capacity * 2, count + n)
    let larger = JSONWriterStorage(capacity: capacity)
    larger.base.update(from: storage.base, count: count)
    storage = larger
  }

  @inline(__always) @usableFromInline mutating func put(_ byte: UInt8) {
    tail(1).pointee = byte
    count &+= 1
  }

  @inline(__always) mutating func put(_ a: UInt8, _ b: UInt8) {
    let p = tail(2)
    p[0] = a
    p[1] = b
    count &+= 2
  }

  mutating func rawBytes(_ source: UnsafeBufferPointer<UInt8>) {
    guard let base = source.baseAddress, !source.isEmpty else { return }
    tail(source.count).update(from: base, count: source.count)
    count &+= source.count
  }

  @inlinable mutating func separate() {
    if needsComma { put(UInt8(ascii: ",")) }
  }

  public mutating func beginObject() {
    if needsComma { put(UInt8(ascii: ","), UInt8(ascii: "{")) } else { put(UInt8(ascii: "{")) }
    needsComma = false
  }

  public mutating func endObject() {
    put(UInt8(ascii: "}"))
    needsComma = true
  }

  public mutating func beginArray() {
    if needsComma { put(UInt8(ascii: ","), UInt8(ascii: "[")) } else { put(UInt8(ascii: "[")) }
    needsComma = false
  }

  public mutating func endArray() {
    put(UInt8(ascii: "]"))
    needsComma = true
  }

  /// Writes an object key that needs no escaping (the event model's own field names).
  public mutating func key(_ key: StaticString) {
    key.withUTF8Buffer { utf8 in
      let n = utf8.count
      let p = tail(n &+ 4)
      var i = 0
      if needsComma {
        p[0] = UInt8(ascii: ",")
        i = 1
      }
      p[i] = UInt8(ascii: "\"")
      if let base = utf8.baseAddress { (p + i + 1).update(from: base, count: n) }
      p[i &+ n &+ 1] = UInt8(ascii: "\"")
      p[i &+ n &+ 2] = UInt8(ascii: ":")
      count &+= i &+ n &+ 3
    }
    needsComma = false
  }

  /// Writes an arbitrary object key, escaped. (Disfavored, so that a literal key picks the
  /// `StaticString` overload, which skips the escaping scan.)
  @_disfavoredOverload
  public mutating func key(_ key: String) {
    writeEscaped(key)
    put(UInt8(ascii: ":"))
    needsComma = false
  }

  public mutating func null() {
    putWord(0x6C6C_756E, length: 4)  // null
    needsComma = true
  }

  public mutating func bool(_ value: Bool) {
    if value { putWord(0x6575_7274, length: 4) } else { putWord(0x65_736C_6166, length: 5) }  // true, false
    needsComma = true
  }

  /// Writes the first `length` (at most 7) bytes of `word`, lowest first (a literal such as
  /// `true` spelled little-endian), after a comma if one is due: one store of 8 bytes into
  /// room made once, where copying the literal's bytes cost a call and a `memcpy`.
  @inline(__always) mutating func putWord(_ word: UInt64, length: Int) {
    let comma = needsComma ? 1 : 0
    let p = tail(8 &+ comma)
    if comma == 1 { p[0] = UInt8(ascii: ",") }
    UnsafeMutableRawPointer(p + comma).storeBytes(of: word.littleEndian, as: UInt64.self)
    count &+= comma &+ length
  }

  public mutating func int(_ value: Int) {
    separate()
    writeInt(value)
    needsComma = true
  }

  /// Writes a double in its shortest round-trip form; non-finite values become `null`.
  public mutating func double(_ value: Double) {
    separate()
    if !value.isFinite {
      writeLiteral("null")
    } else if writeMicroDecimal(value) {
      // Most doubles written are event times (a count of nanoseconds in milliseconds): no
      // rounding asked of the C library for them. Integral values take this path too, with
      // the same text as the next.
    } else if value == value.rounded(), abs(value) < 1e15 {
      // Integral values print without Swift's exponent forms, keeping one decimal so a
      // reader sees a floating-point number: 12.0
      if value == 0, value.sign == .minus { put(UInt8(ascii: "-")) }
      writeInt(Int(value))
      put(UInt8(ascii: "."), UInt8(ascii: "0"))
    } else {
      var text = value.description
      text.withUTF8 { rawBytes($0) }
    }
    needsComma = true
  }

  public mutating func string(_ value: String) {
    writeEscaped(value)
    needsComma = true
  }

  /// Writes a static string (a `#fileID`, say) quoted and escaped, straight from its bytes.
  public mutating func string(staticText value: StaticString) {
    value.withUTF8Buffer { writeEscaped($0) }
    needsComma = true
  }

  /// Writes already-encoded JSON text as the next value. The caller vouches for its validity.
  public mutating func raw(_ json: some Collection<UInt8>) {
    separate()
    let copied: Void? = json.withContiguousStorageIfAvailable { rawBytes($0) }
    if copied == nil {
      let p = tail(json.count)
      var i = 0
      for byte in json {
        p[i] = byte
        i &+= 1
      }
      count &+= i
    }
    needsComma = true
  }

  public mutating func value(_ value: JSON) {
    switch value {
    case .null: null()
    case .bool(let b): bool(b)
    case .int(let i): int(i)
    case .double(let d): double(d)
    case .string(let s): string(s)
    // Elements and members are read in place: a `for` loop would copy each one out (a
    // retain and a release of its key and value, through the generic value witnesses).
    case .array(let elements):
      beginArray()
      elements.withUnsafeBufferPointer { buffer in
        for index in buffer.indices { self.value(buffer[index]) }
      }
      endArray()
    case .object(let object):
      beginObject()
      object.members.withUnsafeBufferPointer { buffer in
        for index in buffer.indices {
          key(buffer[index].key)
          self.value(buffer[index].value)
        }
      }
      endObject()
    }
  }

  /// Writes `value` as the value of `key`, or nothing when `value` is `nil`.
  public mutating func optional(_ key: StaticString, _ value: String?) {
    guard let value else { return }
    self.key(key)
    string(value)
  }

  // MARK: - Internals

  mutating func writeLiteral(_ literal: StaticString) {
    literal.withUTF8Buffer { rawBytes($0) }
  }
}

/// A ``JSONWriter``'s bytes: a fixed allocation, replaced by a larger one when full. Its fields
/// never change, so reading them needs no exclusivity checks.
@usableFromInline final class JSONWriterStorage: @unchecked Sendable {
  // Unchecked: the bytes are written only through a writer that owns this storage uniquely.
  @usableFromInline let base: UnsafeMutablePointer<UInt8>
  @usableFromInline let capacity: Int

  init(capacity: Int) {
    self.capacity = Swift.max(capacity, 16)
    base = .allocate(capacity: self.capacity)
  }

  deinit { base.deallocate() }
}
