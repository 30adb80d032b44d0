import LoupeSession
/// Text built as UTF-8 bytes, for the timeline's fast path: pieces are copied into one buffer
/// (one bounds check and one `memcpy` each), nothing is made into a `String` on the way.
struct TextBytes: ~Copyable {
  private var base: UnsafeMutablePointer<UInt8>
  private var capacity: Int
  private(set) var count = 0

  init(capacity: Int = 1 << 16) {
    self.capacity = Swift.max(capacity, 64)
    base = .allocate(capacity: self.capacity)
  }

  deinit { base.deallocate() }

  /// What was written.
  var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: count) }

  mutating func removeAll() { count = 0 }

  /// Drops what was written after `count` bytes (a rendering given up).
  mutating func truncate(to count: Int) {
    if self.count > count { self.count = count }
  }

  /// Room for `extra` more bytes; returns where they go.
  @inline(__always)
  private mutating func room(_ extra: Int) -> UnsafeMutablePointer<UInt8> {
    if count &+ extra > capacity { grow(count &+ extra) }
    return base + count
  }

  private mutating func grow(_ needed: Int) {
    var newCapacity = capacity &* 2
    while newCapacity < needed { newCapacity &*= 2 }
    let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
    newBase.update(from: base, count: count)
    base.deallocate()
    base = newBase
    capacity = newCapacity
  }

  @inline(__always)
  mutating func append(_ start: UnsafePointer<UInt8>, count length: Int) {
    let target = room(length)
    if length >= 8, length <= 32 {
      // Most pieces are short: overlapping word copies instead of a call to memmove.
      let source = UnsafeRawPointer(start)
      let destination = UnsafeMutableRawPointer(target)
      let first = source.loadUnaligned(as: UInt64.self)
      let last = source.loadUnaligned(fromByteOffset: length &- 8, as: UInt64.self)
      if length > 16 {
        let second = source.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
        let third = source.loadUnaligned(fromByteOffset: length &- 16, as: UInt64.self)
        destination.storeBytes(of: second, toByteOffset: 8, as: UInt64.self)
        destination.storeBytes(of: third, toByteOffset: length &- 16, as: UInt64.self)
      }
      destination.storeBytes(of: first, as: UInt64.self)
      destination.storeBytes(of: last, toByteOffset: length &- 8, as: UInt64.self)
    } else if length < 8 {
      for offset in 0..<length { target[offset] = start[offset] }
    } else {
      target.update(from: start, count: length)
    }
    count &+= length
  }

  @inline(__always)
  mutating func append(_ literal: StaticString) {
    append(literal.utf8Start, count: literal.utf8CodeUnitCount)
  }

  @inline(__always)
  mutating func append(_ buffer: UnsafeBufferPointer<UInt8>) {
    guard let start = buffer.baseAddress else { return }
    append(start, count: buffer.count)
  }

  @inline(__always)
  mutating func append(byte: UInt8) {
    room(1).pointee = byte
    count &+= 1
  }

  /// (Labelled, so that a literal picks the `StaticString` overload: Swift prefers `String`
  /// for a literal, which measured 4% of `show`'s time in string plumbing.)
  mutating func append(string: String) {
    if let done: Void = string.utf8.withContiguousStorageIfAvailable({ append($0) }) { return done }
    var copy = string
    copy.withUTF8 { append($0) }
  }

  mutating func append(spaces: Int) {
    guard spaces > 0 else { return }
    room(spaces).update(repeating: 0x20, count: spaces)
    count &+= spaces
  }

  /// `value` in decimal, as `String(value)` writes it: two digits at a time from a table.
  mutating func append(int value: Int) {
    let length = Self.decimalLength(value)
    let p = room(length)
    let pairs: StaticString = "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"
    let table = pairs.utf8Start
    var magnitude = value.magnitude
    var i = length
    while magnitude >= 100 {
      let pair = Int(truncatingIfNeeded: magnitude % 100) &* 2
      magnitude /= 100
      i &-= 2
      p[i] = table[pair]
      p[i &+ 1] = table[pair &+ 1]
    }
    if magnitude >= 10 {
      let pair = Int(truncatingIfNeeded: magnitude) &* 2
      i &-= 2
      p[i] = table[pair]
      p[i &+ 1] = table[pair &+ 1]
    } else {
      i &-= 1
      p[i] = UInt8(truncatingIfNeeded: magnitude) &+ 0x30
    }
    if value < 0 { p[0] = UInt8(ascii: "-") }
    count &+= length
  }

  /// How many characters `String(value)` has.
  static func decimalLength(_ value: Int) -> Int {
    let sign = value < 0 ? 1 : 0
    let magnitude = value.magnitude
    if magnitude < 10 { return sign &+ 1 }
    if magnitude < 100 { return sign &+ 2 }
    if magnitude < 1000 { return sign &+ 3 }
    if magnitude < 10000 { return sign &+ 4 }
    var length = 5
    var rest = magnitude / 100_000
    while rest > 0 {
      rest /= 10
      length &+= 1
    }
    return sign &+ length
  }

  // MARK: Styles (the bytes ``Style`` wraps text in)

  @inline(__always)
  mutating func open(_ code: Style.Code, _ style: Style) {
    guard style.enabled else { return }
    switch code {
    case .bold: append("\u{1B}[1m")
    case .dim: append("\u{1B}[2m")
    case .red: append("\u{1B}[31m")
    case .green: append("\u{1B}[32m")
    case .yellow: append("\u{1B}[33m")
    case .blue: append("\u{1B}[34m")
    case .magenta: append("\u{1B}[35m")
    case .cyan: append("\u{1B}[36m")
    case .boldRed: append("\u{1B}[1;31m")
    }
  }

  @inline(__always)
  mutating func close(_ style: Style) {
    if style.enabled { append("\u{1B}[0m") }
  }
}
