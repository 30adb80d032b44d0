import LoupeCore

/// A rebuilt state held compactly: what a ``StateIndex`` checkpoint keeps instead of the
/// state's tree. A tree of `JSON` costs an enum, a buffer and its header per container and
/// member (an identified element `{"id": 7, "v": 1}` about 150 bytes); packed it is its
/// contents (about 10), and unpacking it is one pass that allocates each container once.
///
/// The packing is exact: `PackedState(state).state == state` for every value, doubles that
/// JSON text cannot spell (`nan`, `-0.0`) and the difference between `1` and `1.0` included.
///
/// Layout: a value is a tag byte then its contents — nothing (`null`, `false`, `true`), a
/// zigzag varint (`int`), the 8 bytes of the bit pattern (`double`), a varint count then that
/// many UTF-8 bytes (`string`), a varint count then the elements (`array`), or a varint count
/// then that many keys (as strings, untagged) each followed by its value (`object`).
package struct PackedState: Sendable {
  package let bytes: [UInt8]
  package let approximate: Bool
  package let shape: ValueShape?

  /// `expectedBytes`: about how large it will be (the last packing of the same root), so the
  /// buffer is not grown again and again.
  package init(_ state: RebuiltState, expectedBytes: Int = 0) {
    var packer = Packer()
    packer.bytes.reserveCapacity(expectedBytes + expectedBytes / 8)
    packer.pack(state.value)
    bytes = packer.bytes
    approximate = state.approximate
    shape = state.shape
  }

  /// The state packed.
  package var state: RebuiltState {
    let value = bytes.withUnsafeBufferPointer { buffer in
      var unpacker = Unpacker(bytes: buffer)
      return unpacker.value()
    }
    return RebuiltState(value: value, approximate: approximate, shape: shape)
  }

  private enum Tag: UInt8 {
    case null, `false`, `true`, int, double, string, array, object
  }

  private struct Packer {
    var bytes: [UInt8] = []

    // Values are borrowed, not copied: a copy of each element retains its buffer.
    mutating func pack(_ value: borrowing JSON) {
      switch value {
      case .null: bytes.append(Tag.null.rawValue)
      case .bool(let b): bytes.append(b ? Tag.true.rawValue : Tag.false.rawValue)
      case .int(let i):
        bytes.append(Tag.int.rawValue)
        varint(Varint.zigzag(i))
      case .double(let d):
        bytes.append(Tag.double.rawValue)
        var bits = d.bitPattern
        for _ in 0..<8 {
          bytes.append(UInt8(truncatingIfNeeded: bits))
          bits >>= 8
        }
      case .string(let s):
        bytes.append(Tag.string.rawValue)
        string(s)
      case .array(let elements):
        bytes.append(Tag.array.rawValue)
        varint(UInt64(elements.count))
        elements.withUnsafeBufferPointer { buffer in
          for index in buffer.indices { pack(buffer[index]) }
        }
      case .object(let object):
        bytes.append(Tag.object.rawValue)
        varint(UInt64(object.members.count))
        object.members.withUnsafeBufferPointer { buffer in
          for index in buffer.indices {
            string(buffer[index].key)
            pack(buffer[index].value)
          }
        }
      }
    }

    mutating func string(_ text: borrowing String) {
      let utf8 = text.utf8
      varint(UInt64(utf8.count))
      if utf8.withContiguousStorageIfAvailable({ bytes.append(contentsOf: $0) }) == nil {
        bytes.append(contentsOf: utf8)
      }
    }

    mutating func varint(_ value: UInt64) { Varint.append(value, to: &bytes) }
  }

  /// Reads what ``Packer`` wrote (nothing else: the bytes never leave the process).
  private struct Unpacker {
    let bytes: UnsafeBufferPointer<UInt8>
    var offset = 0

    mutating func value() -> JSON {
      let tag = Tag(rawValue: bytes[offset])!
      offset += 1
      switch tag {
      case .null: return .null
      case .false: return .bool(false)
      case .true: return .bool(true)
      case .int:
        return .int(Varint.unzigzag(varint()))
      case .double:
        var bits: UInt64 = 0
        for shift in 0..<8 { bits |= UInt64(bytes[offset + shift]) << (8 * UInt64(shift)) }
        offset += 8
        return .double(Double(bitPattern: bits))
      case .string:
        return .string(string())
      case .array:
        let count = Int(varint())
        var elements: [JSON] = []
        elements.reserveCapacity(count)
        for _ in 0..<count { elements.append(value()) }
        return .array(elements)
      case .object:
        let count = Int(varint())
        var members: [JSONObject.Member] = []
        members.reserveCapacity(count)
        for _ in 0..<count {
          let key = string()
          members.append(JSONObject.Member(key, value()))
        }
        return .object(JSONObject(members))
      }
    }

    mutating func string() -> String {
      let count = Int(varint())
      defer { offset += count }
      return String(decoding: UnsafeBufferPointer(rebasing: bytes[offset..<offset + count]), as: UTF8.self)
    }

    mutating func varint() -> UInt64 { Varint.read(bytes, at: &offset) }
  }
}
