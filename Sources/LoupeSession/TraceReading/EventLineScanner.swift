import LoupeCore

/// A fast check of one event line that builds nothing: it validates the JSON syntax (strict
/// RFC 8259, UTF-8 included) and notes where the top-level `kind`, `store` and `action`
/// strings are, so a reader can filter lines by them without decoding the event.
///
/// It is several times faster than parsing the line into ``JSON``, which is what lets
/// `loupe show --kind 'effect.*' --format json` pass matching lines through untouched.
package struct EventLineScanner {
  /// A top-level member the filter may need.
  package enum Member: Equatable {
    case absent
    /// A string without escapes: its bytes, inside the quotes.
    case plain(Range<Int>)
    /// Present, but escaped or not a string: decode the event to know.
    case other
  }

  package struct Fields: Equatable {
    package var kind = Member.absent
    package var store = Member.absent
    package var action = Member.absent
    /// The value of `seq` when it is a plain integer.
    package var seq: Int?
    /// Whether `time` is present and a number, as every event needs.
    package var hasTime = false
  }

  // The hot loops read `base[i]` only after checking `i < count`: no optionals, no closures,
  // no generic code on the way (the scanner is most of `show --format json`'s time).
  private let base: UnsafePointer<UInt8>
  private let count: Int
  private var i = 0
  /// Whether the string ``string()`` last scanned held escapes.
  private var escaped = false

  private init(_ base: UnsafePointer<UInt8>, count: Int) {
    self.base = base
    self.count = count
  }

  private var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: count) }

  /// The top-level members of `line` when it is one valid JSON object, else `nil`.
  static package func scan(_ line: UnsafeBufferPointer<UInt8>) -> Fields? {
    guard let base = line.baseAddress else { return nil }
    var scanner = EventLineScanner(base, count: line.count)
    scanner.skipWhitespace()
    guard scanner.i < scanner.count, base[scanner.i] == Byte.openBrace, let fields = scanner.topLevelObject() else {
      return nil
    }
    scanner.skipWhitespace()
    return scanner.i == line.count ? fields : nil
  }

  private enum Byte {
    static let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\"), colon = UInt8(ascii: ":")
    static let comma = UInt8(ascii: ","), openBrace = UInt8(ascii: "{"), closeBrace = UInt8(ascii: "}")
    static let openBracket = UInt8(ascii: "["), closeBracket = UInt8(ascii: "]"), zero = UInt8(ascii: "0")
    static let minus = UInt8(ascii: "-"), plus = UInt8(ascii: "+"), dot = UInt8(ascii: ".")
  }

  @inline(__always)
  private static func isDigit(_ byte: UInt8) -> Bool { byte &- Byte.zero < 10 }

  @inline(__always)
  private mutating func skipWhitespace() {
    // Loupe writes no whitespace between tokens: usually one look.
    while i < count {
      let byte = base[i]
      guard byte <= 0x20, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D else { return }
      i += 1
    }
  }

  /// Steps past `byte` when it is next (after whitespace).
  @inline(__always)
  private mutating func take(_ byte: UInt8) -> Bool {
    skipWhitespace()
    guard i < count, base[i] == byte else { return false }
    i += 1
    return true
  }

  private mutating func topLevelObject() -> Fields? {
    var fields = Fields()
    // Keys seen so far (KnownKey bits), and whether the members cannot be read here: an
    // escaped key may spell a known one, and of repeated keys the decoder reads the first.
    var seen: UInt8 = 0
    var ambiguous = false
    var step = open(depth: 0, closing: Byte.closeBrace)
    while step == .next {
      let keyStart = i + 1
      guard key() else { return nil }
      let keyEscaped = escaped
      let name = keyEscaped ? nil : KnownKey(base, keyStart, keyEnd: keyEnd)
      let valueStart = i
      guard value(depth: 1) else { return nil }
      if keyEscaped { ambiguous = true }
      if let name, seen & name.rawValue != 0 {
        ambiguous = true
      } else if let name {
        seen |= name.rawValue
        switch name {
        case .kind: fields.kind = member(at: valueStart)
        case .store: fields.store = member(at: valueStart)
        case .action: fields.action = member(at: valueStart)
        case .seq: fields.seq = integer(from: valueStart, to: i)
        case .time: fields.hasTime = isNumber(at: valueStart)
        }
      }
      step = separator(closing: Byte.closeBrace)
    }
    guard step == .done else { return nil }
    if ambiguous { fields.kind = .other }  // decode the event to know
    return fields
  }

  /// Where the last key's contents ended (its closing quote), set by ``key()``.
  private var keyEnd = 0

  private enum KnownKey: UInt8 {
    case kind = 1, store = 2, action = 4, seq = 8, time = 16

    /// The key in `base[start..<end]`; the byte at `end` is its closing quote, so four bytes
    /// can be read from `start` whenever the key has three or more.
    @inline(__always)
    init?(_ base: UnsafePointer<UInt8>, _ start: Int, keyEnd end: Int) {
      let length = end - start
      guard length >= 3, length <= 6 else { return nil }
      let raw = UnsafeRawPointer(base + start)
      let head = UInt32(littleEndian: raw.loadUnaligned(as: UInt32.self))
      switch length {
      case 3 where head == KnownKey.word("seq\""): self = .seq
      case 4 where head == KnownKey.word("kind"): self = .kind
      case 4 where head == KnownKey.word("time"): self = .time
      case 5 where head == KnownKey.word("stor") && base[start + 4] == UInt8(ascii: "e"): self = .store
      case 6 where head == KnownKey.word("acti") && base[start + 4] == UInt8(ascii: "o") && base[start + 5] == UInt8(ascii: "n"):
        self = .action
      default: return nil
      }
    }

    /// Four ASCII bytes as a little-endian word.
    @inline(__always)
    private static func word(_ text: StaticString) -> UInt32 {
      let p = text.utf8Start
      return UInt32(p[0]) | UInt32(p[1]) << 8 | UInt32(p[2]) << 16 | UInt32(p[3]) << 24
    }
  }

  /// The member whose (already validated) value starts at `start`.
  private func member(at start: Int) -> Member {
    guard base[start] == Byte.quote else { return .other }
    let contents = (start + 1)..<(i - 1)
    if !contents.isEmpty, LibC.memchr(base + contents.lowerBound, Int32(Byte.backslash), contents.count) != nil {
      return .other
    }
    return .plain(contents)
  }

  /// The integer in `bytes[start..<end]`, when it is one (no fraction, no exponent).
  private func integer(from start: Int, to end: Int) -> Int? {
    var index = start
    let negative = base[index] == Byte.minus
    if negative { index += 1 }
    guard index < end, end - index <= 18 else { return nil }
    var value = 0
    while index < end {
      let byte = base[index]
      guard Self.isDigit(byte) else { return nil }
      value = value * 10 + Int(byte - Byte.zero)
      index += 1
    }
    return negative ? -value : value
  }

  private func isNumber(at start: Int) -> Bool {
    let byte = base[start]
    return byte == Byte.minus || Self.isDigit(byte)
  }

  private mutating func value(depth: Int) -> Bool {
    guard i < count else { return false }
    switch base[i] {
    case Byte.quote: return string()
    case Byte.openBrace: return object(depth: depth + 1)
    case Byte.openBracket: return array(depth: depth + 1)
    case UInt8(ascii: "t"): return literal(0x6575_7274, length: 4)  // "true"
    case UInt8(ascii: "f"): return literal(0x6573_6c61, length: 5)  // "alse" after the f
    case UInt8(ascii: "n"): return literal(0x6c6c_756e, length: 4)  // "null"
    case Byte.minus, Byte.zero...UInt8(ascii: "9"): return number()
    default: return false
    }
  }

  /// Steps past a literal of `length` bytes whose last four bytes, read as a little-endian
  /// word, are `tail` (its first byte has been seen).
  @inline(__always)
  private mutating func literal(_ tail: UInt32, length: Int) -> Bool {
    guard count - i >= length else { return false }
    let word = UInt32(littleEndian: UnsafeRawPointer(base + i + length - 4).loadUnaligned(as: UInt32.self))
    i += length
    return word == tail
  }

  private mutating func object(depth: Int) -> Bool {
    var step = open(depth: depth, closing: Byte.closeBrace)
    while step == .next {
      guard key(), value(depth: depth) else { return false }
      step = separator(closing: Byte.closeBrace)
    }
    return step == .done
  }

  private mutating func array(depth: Int) -> Bool {
    var step = open(depth: depth, closing: Byte.closeBracket)
    while step == .next {
      guard value(depth: depth) else { return false }
      step = separator(closing: Byte.closeBracket)
    }
    return step == .done
  }

  /// Where an object or array scan stands: before a member or element, past its end, or at an error.
  private enum Step { case next, done, invalid }

  /// Steps past the `{` or `[` at `i`, and past `closing` too when it follows at once.
  @inline(__always)
  private mutating func open(depth: Int, closing: UInt8) -> Step {
    guard depth <= JSONParser.maximumDepth else { return .invalid }
    i += 1
    skipWhitespace()
    guard i < count, base[i] == closing else { return .next }
    i += 1
    return .done
  }

  /// Steps past the comma after a member or element, or past `closing`.
  @inline(__always)
  private mutating func separator(closing: UInt8) -> Step {
    skipWhitespace()
    guard i < count else { return .invalid }
    let byte = base[i]
    i += 1
    if byte == Byte.comma {
      skipWhitespace()
      return .next
    }
    return byte == closing ? .done : .invalid
  }

  /// Scans a member's key and its colon, up to the value; the key's contents end at
  /// ``keyEnd`` and ``escaped`` says whether they hold escapes.
  @inline(__always)
  private mutating func key() -> Bool {
    guard i < count, base[i] == Byte.quote, string() else { return false }
    keyEnd = i - 1
    guard take(Byte.colon) else { return false }
    skipWhitespace()
    return true
  }

  @inline(__always)
  static package func bytes(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, equal text: StaticString) -> Bool {
    guard range.count == text.utf8CodeUnitCount else { return false }
    return range.isEmpty || LibC.memcmp(bytes.baseAddress! + range.lowerBound, text.utf8Start, range.count) == 0
  }

  private mutating func number() -> Bool {
    var j = i
    if base[j] == Byte.minus { j += 1 }
    guard j < count else { return false }
    let first = base[j]
    j += 1
    if first != Byte.zero {
      guard Self.isDigit(first) else { return false }
      while j < count, Self.isDigit(base[j]) { j += 1 }
    }
    if j < count, base[j] == Byte.dot {
      j += 1
      guard j < count, Self.isDigit(base[j]) else { return false }
      j += 1
      while j < count, Self.isDigit(base[j]) { j += 1 }
    }
    if j < count, base[j] | 0x20 == UInt8(ascii: "e") {
      j += 1
      if j < count, base[j] == Byte.plus || base[j] == Byte.minus { j += 1 }
      guard j < count, Self.isDigit(base[j]) else { return false }
      j += 1
      while j < count, Self.isDigit(base[j]) { j += 1 }
    }
    i = j
    return true
  }

  /// Scans a string starting at its opening quote, to just past its closing quote; sets
  /// ``escaped``. `false` when it is not a valid JSON string.
  private mutating func string() -> Bool {
    var j = i + 1
    escaped = false
    let raw = UnsafeRawPointer(base)
    while true {
      // Straight to the next quote, backslash, control character or non-ASCII byte, eight
      // bytes at a time: most strings in an event are short and end in the first word.
      if count - j >= 8 {
        let lanes = StringBytes.specials(UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: j, as: UInt64.self)))
        if lanes == 0 {
          j += 8
          continue
        }
        j += lanes.trailingZeroBitCount >> 3
      } else {
        guard j < count else { return false }
        if !StringBytes.isSpecial(base[j]) {
          j += 1
          continue
        }
      }
      let byte = base[j]
      if byte == Byte.quote {
        i = j + 1
        return true
      } else if byte == Byte.backslash {
        escaped = true
        guard escape(&j) else { return false }
      } else if byte < 0x20 {
        return false
      } else {
        guard utf8Sequence(&j) else { return false }
      }
    }
  }

  /// Steps `j` past the escape whose backslash is at `j`.
  @inline(__always)
  private func escape(_ j: inout Int) -> Bool {
    guard count - j >= 2 else { return false }
    let byte = base[j + 1]
    switch byte {
    case Byte.quote, Byte.backslash, UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
      UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
      j += 2
      return true
    case UInt8(ascii: "u"):
      guard count - j >= 6 else { return false }
      for k in (j + 2)..<(j + 6) {
        let digit = base[k]
        guard Self.isDigit(digit) || (digit | 0x20) &- UInt8(ascii: "a") < 6 else { return false }
      }
      j += 6
      return true
    default:
      return false
    }
  }

  /// Steps `j` past the multi-byte UTF-8 sequence at `j` (its lead byte is ≥ 0x80).
  @inline(__always)
  private func utf8Sequence(_ j: inout Int) -> Bool {
    let lead = base[j]
    var low: UInt8 = 0x80
    var high: UInt8 = 0xBF
    let length: Int
    switch lead {
    case 0xC2...0xDF: length = 2
    case 0xE0: length = 3; low = 0xA0
    case 0xE1...0xEC, 0xEE...0xEF: length = 3
    case 0xED: length = 3; high = 0x9F
    case 0xF0: length = 4; low = 0x90
    case 0xF1...0xF3: length = 4
    case 0xF4: length = 4; high = 0x8F
    default: return false
    }
    guard count - j >= length else { return false }
    let second = base[j + 1]
    guard second >= low && second <= high else { return false }
    if length >= 3 {
      guard base[j + 2] & 0xC0 == 0x80 else { return false }
      if length == 4 { guard base[j + 3] & 0xC0 == 0x80 else { return false } }
    }
    j += length
    return true
  }
}

extension EventLineScanner {
  /// Where the events are in the body of a `loupe/events` notification
  /// (`{"jsonrpc":"2.0","method":"loupe/events","params":{"events":[{…},{…}]}}`, members in
  /// any order): the byte range of each element of `params.events`, after validating the
  /// whole body as JSON. `nil` when the body is not one valid JSON object with that method
  /// and an `events` array (a batch, an answer, another notification).
  ///
  /// This is what lets `loupe record` write each event exactly as it came over the wire,
  /// without parsing it into ``JSON`` and encoding it again.
  static package func eventRanges(inNotification body: UnsafeBufferPointer<UInt8>) -> [Range<Int>]? {
    guard let base = body.baseAddress else { return nil }
    var scanner = EventLineScanner(base, count: body.count)
    scanner.skipWhitespace()
    guard scanner.i < scanner.count, base[scanner.i] == Byte.openBrace, let ranges = scanner.notificationEvents() else {
      return nil
    }
    scanner.skipWhitespace()
    return scanner.i == body.count ? ranges : nil
  }

  private mutating func notificationEvents() -> [Range<Int>]? {
    var isEventsMethod = false
    var events: [Range<Int>]?
    let ok = members(depth: 1) { scanner, key in
      switch key {
      case "method":
        let start = scanner.i
        guard scanner.value(depth: 1) else { return false }
        isEventsMethod = EventLineScanner.bytes(scanner.bytes, start..<scanner.i, equal: "\"loupe/events\"")
        return true
      case "params" where scanner.next == Byte.openBrace:
        return scanner.members(depth: 2) { scanner, key in
          guard key == "events", scanner.next == Byte.openBracket else { return scanner.value(depth: 2) }
          guard let ranges = scanner.elementRanges(depth: 3) else { return false }
          events = ranges
          return true
        }
      default:
        return scanner.value(depth: 1)
      }
    }
    guard ok, isEventsMethod else { return nil }
    return events
  }

  /// The members of the object at `i`: `body` scans each value (from its first byte), given
  /// the key when it has no escapes (else `""`).
  private mutating func members(depth: Int, _ body: (inout EventLineScanner, String) -> Bool) -> Bool {
    var step = open(depth: depth, closing: UInt8(ascii: "}"))
    while step == .next {
      let keyStart = i + 1
      guard key() else { return false }
      let name = escaped ? "" : String(decoding: UnsafeBufferPointer(start: base + keyStart, count: keyEnd - keyStart), as: UTF8.self)
      guard body(&self, name) else { return false }
      step = separator(closing: UInt8(ascii: "}"))
    }
    return step == .done
  }

  /// The byte at `i`, if any.
  private var next: UInt8? { i < count ? base[i] : nil }

  /// The byte ranges of the elements of the array at `i`.
  private mutating func elementRanges(depth: Int) -> [Range<Int>]? {
    var ranges: [Range<Int>] = []
    var step = open(depth: depth, closing: UInt8(ascii: "]"))
    while step == .next {
      let start = i
      guard value(depth: depth) else { return nil }
      ranges.append(start..<i)
      step = separator(closing: UInt8(ascii: "]"))
    }
    return step == .done ? ranges : nil
  }
}

/// The events of a `loupe/events` notification as trace lines, without decoding them.
public enum NotificationEventLines {
  /// The events of one notification as trace text: each element of `params.events` exactly as
  /// it came, followed by a line break, in one buffer (``TraceWriter/append(_:)`` writes it with
  /// one `write(2)`). Only ``batch(inNotification:)`` makes one, after checking the whole body.
  public struct Batch: Sendable {
    /// The lines, each ending with `\n`.
    public let text: [UInt8]
    /// How many events (lines) there are.
    public let count: Int
    /// The first event's bytes in ``text`` (its header, for a trace's first line).
    public let first: Range<Int>

    /// Each event's bytes, without its line break.
    public var lines: [ArraySlice<UInt8>] {
      Array(text.split(separator: 0x0A, omittingEmptySubsequences: false).dropLast())
    }
  }

  /// The events of `body` as trace lines, checked once: the body is one valid JSON object
  /// (strict RFC 8259, UTF-8 included) with `"method":"loupe/events"` and a
  /// `params.events` array, and no event spans lines. `nil` otherwise (an answer, another
  /// notification, a batch, pretty-printed JSON, damage): decode it instead.
  public static func batch(inNotification body: [UInt8]) -> Batch? {
    body.withUnsafeBufferPointer { buffer -> Batch? in
      guard let ranges = EventLineScanner.eventRanges(inNotification: buffer) else { return nil }
      guard !ranges.isEmpty else { return Batch(text: [], count: 0, first: 0..<0) }
      // In valid JSON a line break can only be whitespace between tokens: one search over all
      // the events finds any (one between two events is harmless, but rare enough to treat
      // the same).
      let span = UnsafeRawPointer(buffer.baseAddress! + ranges[0].lowerBound)
      let spanCount = ranges[ranges.count - 1].upperBound - ranges[0].lowerBound
      if LibC.memchr(span, 0x0A, spanCount) != nil || LibC.memchr(span, 0x0D, spanCount) != nil { return nil }
      var text = [UInt8]()
      text.reserveCapacity(spanCount + 1)
      for range in ranges {
        text.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[range]))
        text.append(0x0A)
      }
      return Batch(text: text, count: ranges.count, first: 0..<ranges[0].count)
    }
  }

  /// Each element of `params.events` exactly as it is in `body`, ready for
  /// ``TraceWriter/appendLines(_:)``; `nil` when `body` is not a valid `loupe/events`
  /// notification or an event spans lines (pretty-printed JSON): decode it instead.
  public static func lines(inNotification body: [UInt8]) -> [[UInt8]]? {
    batch(inNotification: body)?.lines.map(Array.init)
  }
}
