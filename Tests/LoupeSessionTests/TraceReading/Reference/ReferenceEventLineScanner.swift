// The strict scanner and the line prefix as they were at main 778a12b, kept only here as the
// reference the differential tests compare the fast ones with (same results on every input).
// Do not use outside tests; do not "fix" it: its behaviour is the specification.

@testable import LoupeCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif
@testable import LoupeSession

/// A fast check of one event line that builds nothing: it validates the JSON syntax (strict
/// RFC 8259, UTF-8 included) and notes where the top-level `kind`, `store` and `action`
/// strings are, so a reader can filter lines by them without decoding the event.
///
/// It is several times faster than parsing the line into ``JSON``, which is what lets
/// `loupe show --kind 'effect.*' --format json` pass matching lines through untouched.
struct ReferenceEventLineScanner {
  /// A top-level member the filter may need.
  enum Member: Equatable {
    case absent
    /// A string without escapes: its bytes, inside the quotes.
    case plain(Range<Int>)
    /// Present, but escaped or not a string: decode the event to know.
    case other
  }

  struct Fields: Equatable {
    var kind = Member.absent
    var store = Member.absent
    var action = Member.absent
    /// The value of `seq` when it is a plain integer.
    var seq: Int?
    /// Whether `time` is present and a number, as every event needs.
    var hasTime = false
  }

  private let bytes: UnsafeBufferPointer<UInt8>
  private var i = 0

  private init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

  /// The top-level members of `line` when it is one valid JSON object, else `nil`.
  static func scan(_ line: UnsafeBufferPointer<UInt8>) -> Fields? {
    var scanner = ReferenceEventLineScanner(line)
    scanner.skipWhitespace()
    guard scanner.peek == UInt8(ascii: "{"), let fields = scanner.topLevelObject() else { return nil }
    scanner.skipWhitespace()
    return scanner.i == line.count ? fields : nil
  }

  private var peek: UInt8? { i < bytes.count ? bytes[i] : nil }

  private mutating func skipWhitespace() {
    // Loupe writes no whitespace between tokens: usually one look.
    if i < bytes.count, bytes[i] > 0x20 { return }
    while i < bytes.count {
      switch bytes[i] {
      case 0x20, 0x09, 0x0A, 0x0D: i += 1
      default: return
      }
    }
  }

  private mutating func topLevelObject() -> Fields? {
    var fields = Fields()
    // Keys seen so far (KnownKey bits), and whether the members cannot be read here: an
    // escaped key may spell a known one, and of repeated keys the decoder reads the first.
    var seen: UInt8 = 0
    var ambiguous = false
    var step = open(depth: 0, closing: UInt8(ascii: "}"))
    while step == .next {
      guard let key = key() else { return nil }
      let name = key.escaped ? nil : KnownKey(bytes, key.range)
      let valueStart = i
      guard value(depth: 1) else { return nil }
      if key.escaped { ambiguous = true }
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
      step = separator(closing: UInt8(ascii: "}"))
    }
    guard step == .done else { return nil }
    if ambiguous { fields.kind = .other }  // decode the event to know
    return fields
  }

  private enum KnownKey: UInt8 {
    case kind = 1, store = 2, action = 4, seq = 8, time = 16

    init?(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) {
      func equals(_ text: StaticString) -> Bool { ReferenceEventLineScanner.bytes(bytes, range, equal: text) }
      switch range.count {
      case 3 where equals("seq"): self = .seq
      case 4 where equals("kind"): self = .kind
      case 4 where equals("time"): self = .time
      case 5 where equals("store"): self = .store
      case 6 where equals("action"): self = .action
      default: return nil
      }
    }
  }

  /// The member whose (already validated) value starts at `start`.
  private func member(at start: Int) -> Member {
    guard bytes[start] == UInt8(ascii: "\"") else { return .other }
    let contents = (start + 1)..<(i - 1)
    for j in contents where bytes[j] == UInt8(ascii: "\\") { return .other }
    return .plain(contents)
  }

  /// The integer in `bytes[start..<end]`, when it is one (no fraction, no exponent).
  private func integer(from start: Int, to end: Int) -> Int? {
    var index = start
    let negative = bytes[index] == UInt8(ascii: "-")
    if negative { index += 1 }
    guard index < end, end - index <= 18 else { return nil }
    var value = 0
    while index < end {
      let byte = bytes[index]
      guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
      value = value * 10 + Int(byte - UInt8(ascii: "0"))
      index += 1
    }
    return negative ? -value : value
  }

  private func isNumber(at start: Int) -> Bool {
    let byte = bytes[start]
    return byte == UInt8(ascii: "-") || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
  }

  private mutating func value(depth: Int) -> Bool {
    guard let byte = peek else { return false }
    switch byte {
    case UInt8(ascii: "\""): return string() != nil
    case UInt8(ascii: "{"): return object(depth: depth + 1)
    case UInt8(ascii: "["): return array(depth: depth + 1)
    case UInt8(ascii: "t"): return literal("true")
    case UInt8(ascii: "f"): return literal("false")
    case UInt8(ascii: "n"): return literal("null")
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return number()
    default: return false
    }
  }

  private mutating func object(depth: Int) -> Bool {
    var step = open(depth: depth, closing: UInt8(ascii: "}"))
    while step == .next {
      guard key() != nil, value(depth: depth) else { return false }
      step = separator(closing: UInt8(ascii: "}"))
    }
    return step == .done
  }

  private mutating func array(depth: Int) -> Bool {
    var step = open(depth: depth, closing: UInt8(ascii: "]"))
    while step == .next {
      guard value(depth: depth) else { return false }
      step = separator(closing: UInt8(ascii: "]"))
    }
    return step == .done
  }

  /// Where an object or array scan stands: before a member or element, past its end, or at an error.
  private enum Step { case next, done, invalid }

  /// Steps past the `{` or `[` at `i`, and past `closing` too when it follows at once.
  private mutating func open(depth: Int, closing: UInt8) -> Step {
    guard depth <= JSONParser.maximumDepth else { return .invalid }
    i += 1
    skipWhitespace()
    guard peek == closing else { return .next }
    i += 1
    return .done
  }

  /// Steps past the comma after a member or element, or past `closing`.
  private mutating func separator(closing: UInt8) -> Step {
    skipWhitespace()
    switch peek {
    case UInt8(ascii: ","):
      i += 1
      skipWhitespace()
      return .next
    case closing:
      i += 1
      return .done
    default:
      return .invalid
    }
  }

  /// Scans a member's key and its colon, up to the value.
  private mutating func key() -> (range: Range<Int>, escaped: Bool)? {
    guard peek == UInt8(ascii: "\""), let key = string() else { return nil }
    skipWhitespace()
    guard peek == UInt8(ascii: ":") else { return nil }
    i += 1
    skipWhitespace()
    return key
  }

  @inline(__always)
  static func bytes(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, equal text: StaticString) -> Bool {
    guard range.count == text.utf8CodeUnitCount else { return false }
    return range.isEmpty || memcmp(bytes.baseAddress! + range.lowerBound, text.utf8Start, range.count) == 0
  }

  private mutating func literal(_ text: StaticString) -> Bool {
    let count = text.utf8CodeUnitCount
    guard bytes.count - i >= count else { return false }
    let matches = text.withUTF8Buffer { expected in
      for j in 0..<count where bytes[i + j] != expected[j] { return false }
      return true
    }
    i += count
    return matches
  }

  private func isDigit(_ index: Int) -> Bool {
    index < bytes.count && bytes[index] >= UInt8(ascii: "0") && bytes[index] <= UInt8(ascii: "9")
  }

  private mutating func number() -> Bool {
    if bytes[i] == UInt8(ascii: "-") { i += 1 }
    guard isDigit(i) else { return false }
    if bytes[i] == UInt8(ascii: "0") {
      i += 1
    } else {
      while isDigit(i) { i += 1 }
    }
    if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
      i += 1
      guard isDigit(i) else { return false }
      while isDigit(i) { i += 1 }
    }
    if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
      i += 1
      if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
      guard isDigit(i) else { return false }
      while isDigit(i) { i += 1 }
    }
    return true
  }

  /// Scans a string starting at its opening quote; returns its contents' range and whether it
  /// holds escapes, or `nil` when it is not a valid JSON string.
  private mutating func string() -> (range: Range<Int>, escaped: Bool)? {
    i += 1
    let start = i
    var escaped = false
    let count = bytes.count
    let base = bytes.baseAddress!
    while true {
      // Straight to the next quote, backslash, control character or non-ASCII byte, eight
      // bytes at a time: most strings in an event are short and end in the first word.
      i = StringBytes.firstSpecial(base, from: i, count: count, mask: StringBytes.specials, isSpecial: StringBytes.isSpecial)
      guard i < count else { return nil }
      switch base[i] {
      case UInt8(ascii: "\""):
        i += 1
        return (start..<(i - 1), escaped)
      case UInt8(ascii: "\\"):
        escaped = true
        guard escape() else { return nil }
      case 0..<0x20:
        return nil
      default:
        guard utf8Sequence() else { return nil }
      }
    }
  }

  private mutating func escape() -> Bool {
    i += 1
    guard let byte = peek else { return false }
    i += 1
    switch byte {
    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
      UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
      return true
    case UInt8(ascii: "u"):
      guard bytes.count - i >= 4 else { return false }
      for _ in 0..<4 {
        switch bytes[i] {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"),
          UInt8(ascii: "A")...UInt8(ascii: "F"):
          i += 1
        default:
          return false
        }
      }
      return true
    default:
      return false
    }
  }

  /// Validates one multi-byte UTF-8 sequence at `i` (the lead byte is ≥ 0x80).
  private mutating func utf8Sequence() -> Bool {
    let lead = bytes[i]
    let length: Int
    var low: UInt8 = 0x80
    var high: UInt8 = 0xBF
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
    guard bytes.count - i >= length else { return false }
    let second = bytes[i + 1]
    guard second >= low && second <= high else { return false }
    for j in 2..<max(length, 2) where bytes[i + j] & 0xC0 != 0x80 { return false }
    i += length
    return true
  }
}

extension ReferenceEventLineScanner {
  /// Where the events are in the body of a `loupe/events` notification
  /// (`{"jsonrpc":"2.0","method":"loupe/events","params":{"events":[{…},{…}]}}`, members in
  /// any order): the byte range of each element of `params.events`, after validating the
  /// whole body as JSON. `nil` when the body is not one valid JSON object with that method
  /// and an `events` array (a batch, an answer, another notification).
  ///
  /// This is what lets `loupe record` write each event exactly as it came over the wire,
  /// without parsing it into ``JSON`` and encoding it again.
  static func eventRanges(inNotification body: UnsafeBufferPointer<UInt8>) -> [Range<Int>]? {
    var scanner = ReferenceEventLineScanner(body)
    scanner.skipWhitespace()
    guard scanner.peek == UInt8(ascii: "{"), let ranges = scanner.notificationEvents() else { return nil }
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
        isEventsMethod = ReferenceEventLineScanner.bytes(scanner.bytes, start..<scanner.i, equal: "\"loupe/events\"")
        return true
      case "params" where scanner.peek == UInt8(ascii: "{"):
        return scanner.members(depth: 2) { scanner, key in
          guard key == "events", scanner.peek == UInt8(ascii: "[") else { return scanner.value(depth: 2) }
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
  private mutating func members(depth: Int, _ body: (inout ReferenceEventLineScanner, String) -> Bool) -> Bool {
    var step = open(depth: depth, closing: UInt8(ascii: "}"))
    while step == .next {
      guard let key = key() else { return false }
      let name = key.escaped ? "" : String(decoding: UnsafeBufferPointer(rebasing: bytes[key.range]), as: UTF8.self)
      guard body(&self, name) else { return false }
      step = separator(closing: UInt8(ascii: "}"))
    }
    return step == .done
  }

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

