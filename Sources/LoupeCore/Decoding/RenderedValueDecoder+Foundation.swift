import Foundation

/// Foundation values in the forms the renderer writes (`protocol/values.md`, "Foundation and
/// standard library values"), where their own `init(from:)` expects others: `Date` as ISO 8601
/// text (or seconds since 1970), `Data` as Base64, `URL` as its absolute string, `Decimal` as a
/// number or a string of digits, `IndexSet` as its integers, `Duration` as `"1.5 seconds"`,
/// `Locale` and `TimeZone` as identifiers; `UUID` as its string, with a clearer error.
extension RenderedValueDecoder {
  /// `type`'s value when it is one of these types; `nil` for any other type.
  func decodeFoundationValue<T>(_ type: T.Type) throws(RenderedDecodingFailure) -> T? {
    if T.self == Date.self { return try decodeDate() as? T }
    if T.self == UUID.self { return try decodeString("a UUID", UUID.init(uuidString:)) as? T }
    if T.self == URL.self { return try decodeString("an absolute URL", { URL(string: $0) }) as? T }
    if T.self == Data.self { return try decodeString("Base64 data", { Data(base64Encoded: $0) }) as? T }
    if T.self == Decimal.self { return try decodeDecimal() as? T }
    if T.self == IndexSet.self { return try decodeIndexSet() as? T }
    if T.self == Duration.self { return try decodeDuration() as? T }
    if T.self == Locale.self { return try decodeString("a locale identifier", { Locale(identifier: $0) }) as? T }
    if T.self == TimeZone.self { return try decodeString("a time zone identifier", TimeZone.init(identifier:)) as? T }
    return nil
  }

  private func decodeString<V>(_ expected: String, _ make: (String) -> V?) throws(RenderedDecodingFailure) -> V {
    guard case .string(let text) = try checkedScalar(raw: true), let value = make(text) else { throw mismatch(expected) }
    return value
  }

  /// `"2023-11-14T22:13:20.250Z"` (what the renderer writes; any ISO 8601 date and time with a
  /// zone), or a number of seconds since 1970.
  private func decodeDate() throws(RenderedDecodingFailure) -> Date {
    let expected = "a date (ISO 8601 like \"2023-11-14T22:13:20.250Z\", or seconds since 1970)"
    switch try checkedScalar(raw: true) {
    case .int(let seconds): return Date(timeIntervalSince1970: Double(seconds))
    case .double(let seconds): return Date(timeIntervalSince1970: seconds)
    case .string(let text):
      if let date = RenderedDates.parseUTC(text) ?? (try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text))
        ?? (try? Date.ISO8601FormatStyle().parse(text))
      {
        return date
      }
      throw mismatch(expected)
    default: throw mismatch(expected)
    }
  }

  /// A number (`19.99`, written as the shortest text of the double that holds it) or a
  /// string of digits (`"12345678901234567890.123"`, `"nan"`).
  private func decodeDecimal() throws(RenderedDecodingFailure) -> Decimal {
    switch try checkedScalar() {
    case .int(let value): return Decimal(value)
    case .double(let value): if let decimal = Decimal(string: "\(value)") { return decimal }
    case .string("nan"): return .nan
    case .string(let text):
      let allowed = Set("0123456789.eE+-".utf8)
      if !text.isEmpty, text.utf8.allSatisfy(allowed.contains), let decimal = Decimal(string: text) { return decimal }
    default: break
    }
    throw mismatch("a decimal number")
  }

  /// Its integers, in any order.
  private func decodeIndexSet() throws(RenderedDecodingFailure) -> IndexSet {
    let integers = try decodeValue([Int].self)
    guard integers.allSatisfy({ $0 >= 0 && $0 < Int.max }) else { throw mismatch("an array of integers from 0") }
    return IndexSet(integers)
  }

  /// `"1.5 seconds"`: its description, seconds as a `Double`.
  private func decodeDuration() throws(RenderedDecodingFailure) -> Duration {
    guard case .string(let text) = try checkedScalar(), text.hasSuffix(" seconds"),
      let seconds = Double(text.dropLast(" seconds".count)), seconds.isFinite, abs(seconds) < 1e15
    else { throw mismatch("a duration (\"1.5 seconds\")") }
    return .seconds(seconds)
  }
}

/// ISO 8601 as the renderer writes dates: `2023-11-14T22:13:20.250Z`.
enum RenderedDates {
  /// The date of `YYYY-MM-DDTHH:MM:SS[.fraction]Z`, read exactly: the seconds since 1970 are
  /// the double nearest the decimal written, as `Date(timeIntervalSince1970: 1_700_000_000.25)`
  /// holds them. `nil` for any other text.
  static func parseUTC(_ text: String) -> Date? {
    let bytes = Array(text.utf8)
    guard bytes.count >= 20, bytes.last == UInt8(ascii: "Z") else { return nil }
    func number(_ start: Int, _ length: Int) -> Int? {
      var value = 0
      for byte in bytes[start..<(start + length)] {
        guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
        value = value * 10 + Int(byte - UInt8(ascii: "0"))
      }
      return value
    }
    let separators: [(Int, Character)] = [(4, "-"), (7, "-"), (10, "T"), (13, ":"), (16, ":")]
    guard separators.allSatisfy({ bytes[$0.0] == $0.1.asciiValue }),
      let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
      let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2),
      (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
    else { return nil }
    var fraction = ""
    if bytes.count > 20 {
      guard bytes[19] == UInt8(ascii: "."), bytes.count > 21, number(20, bytes.count - 21) != nil else { return nil }
      fraction = String(decoding: bytes[20..<(bytes.count - 1)], as: UTF8.self)
    } else {
      guard bytes[19] == UInt8(ascii: "Z") else { return nil }
    }
    let seconds = daysSince1970(year: year, month: month, day: day) * 86_400 + hour * 3_600 + minute * 60 + second
    let interval: Double?
    if fraction.isEmpty {
      interval = Double(seconds)
    } else if seconds >= 0 {
      interval = Double("\(seconds).\(fraction)")
    } else {
      interval = Double("0.\(fraction)").map { Double(seconds) + $0 }
    }
    guard let interval else { return nil }
    return renderingAs(text, Date(timeIntervalSince1970: interval))
  }

  /// `date`, or the next date up that renders as `text` when `date` does not: the renderer
  /// cuts to the millisecond, so a date held a hair below `.122` (as `.122` itself may be)
  /// would render as `.121`.
  private static func renderingAs(_ text: String, _ date: Date) -> Date {
    guard text.utf8.count == 24 else { return date }  // …SS.fffZ, as the renderer writes
    var candidate = date
    for _ in 0..<4 {
      if ValueRenderer.render(candidate) == .string(text) { return candidate }
      candidate = Date(timeIntervalSinceReferenceDate: candidate.timeIntervalSinceReferenceDate.nextUp)
    }
    return date
  }

  /// Days from 1970-01-01 to the given day of the proleptic Gregorian calendar.
  private static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }
}
