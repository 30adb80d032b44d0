/// A minimal protocol buffers encoder: the wire format's varints, fixed64, length-delimited
/// strings and nested messages, enough to write Perfetto's trace packets without a library.
///
/// Fields are written in the order the caller writes them; a nested message is written in
/// place and its length inserted before it afterwards.
///
/// ```swift
/// var w = ProtobufWriter()
/// w.message(1) { packet in packet.uint(8, 1_000) }   // Trace.packet { timestamp: 1000 }
/// w.bytes  // [0x0A, 0x03, 0x40, 0xE8, 0x07]
/// ```
struct ProtobufWriter {
  /// The encoded bytes.
  private(set) var bytes: [UInt8] = []

  init(capacity: Int = 256) {
    bytes.reserveCapacity(capacity)
  }

  /// Forgets what was written, keeping the capacity.
  mutating func reset() {
    bytes.removeAll(keepingCapacity: true)
  }

  private enum WireType: UInt64 {
    case varint = 0, fixed64 = 1, lengthDelimited = 2
  }

  private mutating func tag(_ field: Int, _ type: WireType) {
    varint(UInt64(field) << 3 | type.rawValue)
  }

  private mutating func varint(_ value: UInt64) {
    var rest = value
    while rest >= 0x80 {
      bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
      rest >>= 7
    }
    bytes.append(UInt8(rest))
  }

  /// A `uint64`, `uint32` or enum field.
  mutating func uint(_ field: Int, _ value: UInt64) {
    tag(field, .varint)
    varint(value)
  }

  /// An `int64` or `int32` field (negative numbers take ten bytes, as the format says).
  mutating func int(_ field: Int, _ value: Int) {
    tag(field, .varint)
    varint(UInt64(bitPattern: Int64(value)))
  }

  mutating func bool(_ field: Int, _ value: Bool) {
    uint(field, value ? 1 : 0)
  }

  /// A `fixed64` field (one element of a repeated, unpacked one).
  mutating func fixed64(_ field: Int, _ value: UInt64) {
    tag(field, .fixed64)
    for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
  }

  mutating func string(_ field: Int, _ value: String) {
    tag(field, .lengthDelimited)
    let utf8 = value.utf8
    varint(UInt64(utf8.count))
    bytes.append(contentsOf: utf8)
  }

  /// A nested message: `body` writes its fields.
  mutating func message(_ field: Int, _ body: (inout ProtobufWriter) -> Void) {
    tag(field, .lengthDelimited)
    let start = bytes.count
    body(&self)
    var length = UInt64(bytes.count - start)
    var prefix: [UInt8] = []
    while length >= 0x80 {
      prefix.append(UInt8(truncatingIfNeeded: length) | 0x80)
      length >>= 7
    }
    prefix.append(UInt8(length))
    bytes.insert(contentsOf: prefix, at: start)
  }
}
