import LoupeCore
import LoupeSession

/// The ids and clock of one exported run, derived from its trace header alone, so exporting
/// the same file twice gives the same OTLP trace and span ids and the same Perfetto uuids.
///
/// - The trace id is 128 bits of hash over the header's program, pid and start time.
/// - A span id is 64 bits of hash over the trace id and what the span stands for: a store's
///   name, an action's `seq`, an effect's id (never zero, which OTLP reads as "no parent").
/// - Times: `startedAt` as Unix nanoseconds plus each event's `time` (milliseconds since it).
struct ExportIdentity: Sendable, Hashable {
  /// What a span or track stands for, mixed into its id.
  enum Kind: UInt64, Sendable {
    case run = 1, store, action, effect, lane, startFlow, sendFlow, cancelFlow
  }

  let high: UInt64
  let low: UInt64
  /// The run's start as nanoseconds since 1970 (0 when the header's `startedAt` doesn't parse).
  let startNanos: UInt64

  /// - Parameter occurrence: how many traces with this same header came before in one export
  ///   (made-up fixtures can share one), so each still gets ids of its own.
  init(header: TraceHeader, occurrence: Int = 0) {
    let salt = occurrence > 0 ? "\u{0}\(occurrence)" : ""
    let text = Array("\(header.program)\u{0}\(header.pid)\u{0}\(header.startedAt)\(salt)".utf8)
    high = Self.nonZero(Self.fnv1a(text, seed: 0xcbf2_9ce4_8422_2325))
    low = Self.nonZero(Self.fnv1a(text, seed: 0x8422_2325_cbf2_9ce4))
    startNanos = Self.unixNanos(iso8601: header.startedAt) ?? 0
  }

  /// 32 lowercase hex digits.
  var traceID: String { Self.hex(high) + Self.hex(low) }

  /// The id of the span (or Perfetto track/flow) for `kind` number `number`.
  func id(_ kind: Kind, _ number: Int) -> UInt64 {
    Self.nonZero(Self.mix(high ^ Self.mix(low &+ kind.rawValue &* 0x9E37_79B9_7F4A_7C15 ^ UInt64(bitPattern: Int64(number)))))
  }

  /// The id of the span (or track) for `kind` named `name` (a store).
  func id(_ kind: Kind, _ name: String) -> UInt64 {
    Self.nonZero(Self.mix(Self.fnv1a(Array(name.utf8), seed: high ^ kind.rawValue) ^ low))
  }

  /// An event's `time` (milliseconds since the start) as Unix nanoseconds.
  func nanos(_ milliseconds: Double) -> UInt64 {
    let offset = (milliseconds * 1_000_000).rounded()
    guard offset.isFinite, offset > 0 else { return startNanos }
    return startNanos &+ UInt64(min(offset, 9.0e18))
  }

  /// 16 lowercase hex digits.
  static func hex(_ value: UInt64) -> String {
    let digits = Array("0123456789abcdef".utf8)
    var bytes = [UInt8](repeating: 0, count: 16)
    var rest = value
    for index in stride(from: 15, through: 0, by: -1) {
      bytes[index] = digits[Int(rest & 0xF)]
      rest >>= 4
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  private static func fnv1a(_ bytes: [UInt8], seed: UInt64) -> UInt64 {
    var hash = seed
    for byte in bytes {
      hash ^= UInt64(byte)
      hash = hash &* 0x0000_0100_0000_01B3
    }
    return mix(hash)
  }

  /// SplitMix64's finalizer: every input bit moves every output bit.
  private static func mix(_ value: UInt64) -> UInt64 {
    var z = value &+ 0x9E37_79B9_7F4A_7C15
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  private static func nonZero(_ value: UInt64) -> UInt64 { value == 0 ? 1 : value }

  /// `2026-11-22T03:33:35.266Z` (also without fraction, or with a `±hh:mm` offset) as Unix
  /// nanoseconds; `nil` when it is not that form.
  static func unixNanos(iso8601 text: String) -> UInt64? {
    let b = Array(text.utf8)
    func number(_ from: Int, _ count: Int) -> Int? {
      guard from + count <= b.count else { return nil }
      var value = 0
      for byte in b[from..<(from + count)] {
        guard byte >= 48, byte <= 57 else { return nil }
        value = value * 10 + Int(byte - 48)
      }
      return value
    }
    guard b.count >= 20, b[4] == 45, b[7] == 45, b[10] == 84 || b[10] == 116, b[13] == 58, b[16] == 58,
      let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
      let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2),
      (1...12).contains(month), (1...31).contains(day)
    else { return nil }
    var index = 19
    var fraction: UInt64 = 0
    if index < b.count, b[index] == 46 {
      index += 1
      var scale: UInt64 = 100_000_000
      while index < b.count, b[index] >= 48, b[index] <= 57 {
        fraction += UInt64(b[index] - 48) * scale
        scale /= 10
        index += 1
      }
    }
    var offsetSeconds = 0
    if index < b.count, b[index] == 43 || b[index] == 45, let h = number(index + 1, 2), let m = number(index + 4, 2) {
      offsetSeconds = (b[index] == 43 ? 1 : -1) * (h * 3600 + m * 60)
    } else if index >= b.count || (b[index] != 90 && b[index] != 122) {
      return nil
    }
    // Days from 1970-01-01 (Howard Hinnant's days_from_civil).
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    let days = era * 146_097 + dayOfEra - 719_468
    let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offsetSeconds
    guard seconds >= 0 else { return nil }
    return UInt64(seconds) * 1_000_000_000 + fraction
  }
}
