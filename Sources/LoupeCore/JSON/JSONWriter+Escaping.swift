/// Strings written quoted and escaped, and the small copies the writer makes without
/// `memcpy`.
extension JSONWriter {
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

  fileprivate static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

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
