/// Unsigned LEB128 varints (7 bits a byte, the low bits first, the high bit set on every byte
/// but the last) and zigzag for signed numbers (0, -1, 1, -2 … as 0, 1, 2, 3 …): what the
/// packed index (``PackedColumns``, ``PositionList``) and ``PackedState`` are made of. The
/// bytes never leave the process, so reading trusts them (no bounds beyond the buffer's own).
enum Varint {
  /// Appends `value` to `bytes`.
  static func append(_ value: UInt64, to bytes: inout [UInt8]) {
    var rest = value
    while rest >= 0x80 {
      bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
      rest >>= 7
    }
    bytes.append(UInt8(rest))
  }

  /// The varint at `offset` in `bytes`; `offset` is moved past it.
  static func read(_ bytes: UnsafeBufferPointer<UInt8>, at offset: inout Int) -> UInt64 {
    var value: UInt64 = 0
    var shift: UInt64 = 0
    while true {
      let byte = bytes[offset]
      offset += 1
      value |= UInt64(byte & 0x7F) << shift
      if byte < 0x80 { return value }
      shift += 7
    }
  }

  /// The varint at `offset` in `bytes`; `offset` is moved past it.
  static func read(_ bytes: [UInt8], at offset: inout Int) -> UInt64 {
    var at = offset
    defer { offset = at }
    return bytes.withUnsafeBufferPointer { read($0, at: &at) }
  }

  /// `value` zigzagged, so that small negative numbers take few bytes too.
  static func zigzag(_ value: Int) -> UInt64 {
    UInt64(bitPattern: Int64((value << 1) ^ (value >> (Int.bitWidth - 1))))
  }

  /// The number `zigzag(_:)` made `raw` from.
  static func unzigzag(_ raw: UInt64) -> Int {
    Int(truncatingIfNeeded: Int64(bitPattern: (raw >> 1) ^ (0 &- (raw & 1))))
  }
}
