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

  /// Copies `count` bytes: up to 32 by two overlapping loads and stores each of 16, 8, 4 or
  /// 1 bytes (a literal's length is known where this is inlined, so one case remains), more
  /// by `memcpy`. A call to `memcpy` cost ~25 instructions for a key of 8 bytes.
  @inline(__always) static func copy(_ source: UnsafePointer<UInt8>, to target: UnsafeMutablePointer<UInt8>, count: Int) {
    let from = UnsafeRawPointer(source)
    let to = UnsafeMutableRawPointer(target)
    if count > 16 && count <= 32 {
      let a = from.loadUnaligned(as: (UInt64, UInt64).self)
      let b = from.loadUnaligned(fromByteOffset: count &- 16, as: (UInt64, UInt64).self)
      to.storeBytes(of: a, as: (UInt64, UInt64).self)
      to.storeBytes(of: b, toByteOffset: count &- 16, as: (UInt64, UInt64).self)
    } else if count >= 8 && count <= 16 {
      let head = from.loadUnaligned(as: UInt64.self)
      let last = from.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
      to.storeBytes(of: head, as: UInt64.self)
      to.storeBytes(of: last, toByteOffset: count &- 8, as: UInt64.self)
    } else if count >= 4 && count < 8 {
      let head = from.loadUnaligned(as: UInt32.self)
      let last = from.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self)
      to.storeBytes(of: head, as: UInt32.self)
      to.storeBytes(of: last, toByteOffset: count &- 4, as: UInt32.self)
    } else if count > 16 {
      target.update(from: source, count: count)
    } else {
      for i in 0..<count { target[i] = source[i] }
    }
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

  private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

  /// Whether one of the 8 bytes in `word` is a control character, `"` or `\` (the bytes a
  /// JSON string escapes): the classic "has a zero byte" bit trick, on the word and on its
  /// XOR with each special byte.
  @inline(__always) static func mayNeedEscaping(_ word: UInt64) -> Bool {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highs: UInt64 = 0x8080_8080_8080_8080
    let control = (word &- ones &* 0x20) & ~word & highs
    let quote = word ^ (ones &* 0x22)
    let backslash = word ^ (ones &* 0x5C)
    let specials = ((quote &- ones) & ~quote | (backslash &- ones) & ~backslash) & highs
    return control | specials != 0
  }

  /// Writes `string` quoted and escaped, after a comma if one is due.
  ///
  /// The bytes are read where they are (`utf8.withContiguousStorageIfAvailable`, which every
  /// native and small string allows): `withUTF8` needs a `var` copy, which cost a retain and
  /// a release of the string's storage for every string written.
  @inline(__always) mutating func writeEscaped(_ string: String) {
    let written: Void? = string.utf8.withContiguousStorageIfAvailable { writeEscaped($0) }
    if written == nil {
      var string = string
      string.withUTF8 { writeEscaped($0) }
    }
  }

  mutating func writeEscaped(_ utf8: UnsafeBufferPointer<UInt8>) {
    let count = utf8.count
    // Most strings need no escaping: skip clean 8-byte words in one step each, then bytes.
    var index = 0
    if let base = utf8.baseAddress {
      while index + 8 <= count, !Self.mayNeedEscaping(UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)) {
        index += 8
      }
      // Fewer than 8 bytes left of a string of 8 or more: the word that ends it (overlapping
      // the clean words read) says in one step whether they are clean too.
      if index < count, count >= 8, index &+ 8 > count,
        !Self.mayNeedEscaping(UnsafeRawPointer(base + (count &- 8)).loadUnaligned(as: UInt64.self))
      {
        index = count
      }
    }
    while index < count, Self.isPlain(utf8[index]) { index += 1 }
    // The clean prefix, with the comma, the quotes (the closing one if nothing is left), in one go.
    let comma = needsComma ? 1 : 0
    let p = tail(comma &+ index &+ 2)
    if comma == 1 { p[0] = UInt8(ascii: ",") }
    p[comma] = UInt8(ascii: "\"")
    if let base = utf8.baseAddress, index > 0 { Self.copy(base, to: p + comma + 1, count: index) }
    if index == count {
      p[comma &+ index &+ 1] = UInt8(ascii: "\"")
      self.count &+= comma &+ index &+ 2
      return
    }
    self.count &+= comma &+ index &+ 1
    var runStart = index
    while index < count {
      let byte = utf8[index]
      if Self.isPlain(byte) {
        index += 1
        continue
      }
      if runStart < index {
        rawBytes(UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
      }
      switch byte {
      case UInt8(ascii: "\""): put(UInt8(ascii: "\\"), UInt8(ascii: "\""))
      case UInt8(ascii: "\\"): put(UInt8(ascii: "\\"), UInt8(ascii: "\\"))
      case 0x0A: put(UInt8(ascii: "\\"), UInt8(ascii: "n"))
      case 0x0D: put(UInt8(ascii: "\\"), UInt8(ascii: "r"))
      case 0x09: put(UInt8(ascii: "\\"), UInt8(ascii: "t"))
      case 0x08: put(UInt8(ascii: "\\"), UInt8(ascii: "b"))
      case 0x0C: put(UInt8(ascii: "\\"), UInt8(ascii: "f"))
      default:
        put(UInt8(ascii: "\\"), UInt8(ascii: "u"))
        put(UInt8(ascii: "0"), UInt8(ascii: "0"))
        put(Self.hexDigits[Int(byte >> 4)], Self.hexDigits[Int(byte & 0xF)])
      }
      index += 1
      runStart = index
    }
    if runStart < count {
      rawBytes(UnsafeBufferPointer(rebasing: utf8[runStart..<count]))
    }
    put(UInt8(ascii: "\""))
  }

  /// Whether `byte` goes into a JSON string as it is.
  @inline(__always) static func isPlain(_ byte: UInt8) -> Bool {
    byte >= 0x20 && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\")
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
