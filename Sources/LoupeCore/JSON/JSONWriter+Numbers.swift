/// Integers and event times written as decimal text: digits two at a time from a table, into
/// room made once.
extension JSONWriter {
  /// `"00"`, `"01"`, … `"99"`: the two digits of every number below 100.
  @inline(__always) static var digitPairs: UnsafePointer<UInt8> {
    let text: StaticString = "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"
    return text.utf8Start
  }

  /// How many decimal digits `value` has (1 for 0).
  @inline(__always) static func digitCount(_ value: UInt64) -> Int {
    // Up to 8 digits (seqs, causes, times' parts) by comparisons, without dividing.
    if value < 10_000 {
      if value < 100 { return value < 10 ? 1 : 2 }
      return value < 1_000 ? 3 : 4
    }
    if value < 100_000_000 {
      if value < 1_000_000 { return value < 100_000 ? 5 : 6 }
      return value < 10_000_000 ? 7 : 8
    }
    var count = 1
    var rest = value
    while rest >= 100 {
      rest /= 100
      count &+= 2
    }
    return rest >= 10 ? count &+ 1 : count
  }

  /// Writes the digits of `value` so that the last ends just before `end`.
  @inline(__always) static func putDigits(_ value: UInt64, endingAt end: UnsafeMutablePointer<UInt8>) {
    let pairs = digitPairs
    var rest = value
    var p = end
    while rest >= 100 {
      let pair = Int(truncatingIfNeeded: rest % 100) &* 2
      rest /= 100
      p -= 2
      p[0] = pairs[pair]
      p[1] = pairs[pair &+ 1]
    }
    if rest >= 10 {
      let pair = Int(truncatingIfNeeded: rest) &* 2
      p -= 2
      p[0] = pairs[pair]
      p[1] = pairs[pair &+ 1]
    } else {
      p[-1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest)
    }
  }

  @usableFromInline mutating func writeInt(_ value: Int) {
    if value >= 0 && value < 10 {
      put(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value))
      return
    }
    let magnitude = UInt64(value.magnitude)  // Int.min's too
    let sign = value < 0 ? 1 : 0
    let length = sign &+ Self.digitCount(magnitude)
    let p = tail(length)
    if sign == 1 { p[0] = UInt8(ascii: "-") }
    Self.putDigits(magnitude, endingAt: p + length)
    count &+= length
  }

  /// Writes `value` as a plain decimal when it is the double nearest to one with at most 6
  /// digits after the point and at most 15 significant digits (event times are nanoseconds
  /// counted in milliseconds: `12.345678`); returns `false`, writing nothing, otherwise.
  ///
  /// The text is exactly `value.description`: a decimal of at most 15 significant digits is
  /// the only one of that length that rounds to its double (15 is `Double`'s guaranteed
  /// decimal precision), so it is the shortest form that round-trips, which `description`
  /// prints — as a plain decimal for magnitudes from 1e-4 up to 2^53. An integral value is
  /// written with one decimal, `12.0`, as ``double(_:)`` writes it.
  @usableFromInline mutating func writeMicroDecimal(_ value: Double) -> Bool {
    let magnitude = Swift.abs(value)
    guard magnitude >= 1e-4, magnitude < 1e9 else { return false }
    // `magnitude * 1e6` is within a quarter of the count of millionths it was made from, if
    // it was: rounding by adding a half and truncating finds that count, and the check
    // below (`Double(m) / 1e6` is the double nearest to m / 10^6: both exact, the division
    // rounded once) accepts it or nothing.
    // Through `Int64`: converting to and from an unsigned integer takes several instructions
    // on x86-64 (the values are below 1e15, so the two agree).
    let units = Int64(magnitude * 1e6 + 0.5)
    guard Double(units) / 1e6 == magnitude else { return false }
    let whole = UInt64(bitPattern: units) / 1_000_000
    let fraction = UInt(truncatingIfNeeded: UInt64(bitPattern: units) % 1_000_000)
    let sign = value < 0 ? 1 : 0
    let wholeDigits = Self.digitCount(whole)
    // Room for all six decimals; the zeros that end them are then left off (`12.5`), all but
    // one when they all are (`12.0`).
    let point = sign &+ wholeDigits
    let p = tail(point &+ 7)
    if sign == 1 { p[0] = UInt8(ascii: "-") }
    Self.putDigits(whole, endingAt: p + point)
    p[point] = UInt8(ascii: ".")
    let pairs = Self.digitPairs
    let high = Int(truncatingIfNeeded: fraction / 10_000) &* 2
    let middle = Int(truncatingIfNeeded: fraction / 100 % 100) &* 2
    let low = Int(truncatingIfNeeded: fraction % 100) &* 2
    p[point &+ 1] = pairs[high]
    p[point &+ 2] = pairs[high &+ 1]
    p[point &+ 3] = pairs[middle]
    p[point &+ 4] = pairs[middle &+ 1]
    p[point &+ 5] = pairs[low]
    p[point &+ 6] = pairs[low &+ 1]
    var length = point &+ 7
    while length > point &+ 2, p[length &- 1] == UInt8(ascii: "0") { length &-= 1 }
    count &+= length
    return true
  }
}
