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
    if length >= 8, length <= 16 {
      // Most pieces are short: two overlapping word copies instead of a call to memmove.
      let source = UnsafeRawPointer(start)
      let first = source.loadUnaligned(as: UInt64.self)
      let last = source.loadUnaligned(fromByteOffset: length &- 8, as: UInt64.self)
      UnsafeMutableRawPointer(target).storeBytes(of: first, as: UInt64.self)
      UnsafeMutableRawPointer(target).storeBytes(of: last, toByteOffset: length &- 8, as: UInt64.self)
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

  /// `value` in decimal, as `String(value)` writes it.
  mutating func append(int value: Int) {
    let length = Self.decimalLength(value)
    let p = room(length)
    var magnitude = value.magnitude
    var i = length
    repeat {
      i &-= 1
      p[i] = UInt8(truncatingIfNeeded: magnitude % 10) &+ 0x30
      magnitude /= 10
    } while magnitude > 0
    if value < 0 { p[0] = UInt8(ascii: "-") }
    count &+= length
  }

  /// How many characters `String(value)` has.
  static func decimalLength(_ value: Int) -> Int {
    var length = value < 0 ? 2 : 1
    var magnitude = value.magnitude
    while magnitude >= 10 {
      magnitude /= 10
      length &+= 1
    }
    return length
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
