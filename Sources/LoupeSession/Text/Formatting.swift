import LoupeCore

/// Number and value formatting shared by the text views.
package enum Formatting {
  /// A session time in milliseconds with three decimals: `1234.500ms`.
  /// A time too large for a count of microseconds (a damaged or hostile trace can hold
  /// `"time":1e300`) is written as Swift writes the number: `1e+300ms`.
  package static func time(_ milliseconds: Double) -> String {
    guard let micros = wholeMicroseconds(milliseconds) else { return "\(milliseconds)ms" }
    let whole = abs(micros) / 1000
    let fraction = abs(micros) % 1000
    var text = micros < 0 ? "-" : ""
    text += String(whole)
    text += fraction < 10 ? ".00" : fraction < 100 ? ".0" : "."
    text += String(fraction)
    text += "ms"
    return text
  }

  /// A duration given in milliseconds, in the unit that reads best: `85ns`, `12.3µs`,
  /// `499.5ms`, `2.10s`.
  package static func duration(milliseconds: Double) -> String {
    duration(nanoseconds: milliseconds * 1_000_000)
  }

  package static func duration(nanoseconds: Double) -> String {
    let ns = max(0, nanoseconds)
    if ns < 1000 { return "\(Int(ns.rounded()))ns" }  // also NaN: max(0, .nan) is 0
    if ns < 1_000_000 { return decimals(ns / 1000, 1) + "µs" }
    if ns < 1_000_000_000 { return decimals(ns / 1_000_000, 1) + "ms" }
    return decimals(ns / 1_000_000_000, 2) + "s"
  }

  /// `milliseconds` in whole microseconds, or `nil` when that does not fit in an `Int` (or is
  /// not a number).
  package static func wholeMicroseconds(_ milliseconds: Double) -> Int? {
    let micros = (milliseconds * 1000).rounded()
    return abs(micros) < 9e15 ? Int(micros) : nil
  }

  /// `value` with exactly `places` decimals (0–3), rounded half away from zero; a value too
  /// large for that (from a hostile trace) as Swift writes it.
  static package func decimals(_ value: Double, _ places: Int) -> String {
    let scale = [1, 10, 100, 1000][places]
    let product = (value * Double(scale)).rounded()
    guard abs(product) < 9e15 else { return "\(value)" }
    let scaled = Int(product)
    if places == 0 { return "\(scaled)" }
    let sign = scaled < 0 ? "-" : ""
    return "\(sign)\(abs(scaled) / scale).\(pad(abs(scaled) % scale, places))"
  }

  static package func pad(_ value: Int, _ width: Int) -> String {
    let text = String(value)
    return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
  }

  /// `1,234,567`.
  package static func count(_ value: Int) -> String {
    let digits = String(abs(value))
    var grouped = ""
    for (offset, digit) in digits.enumerated() {
      if offset > 0, (digits.count - offset) % 3 == 0 { grouped.append(",") }
      grouped.append(digit)
    }
    return (value < 0 ? "-" : "") + grouped
  }

  /// Compact JSON, cut to `limit` characters with `…`.
  package static func json(_ value: JSON, limit: Int = 160) -> String {
    truncate(value.jsonText, limit: limit)
  }

  package static func truncate(_ text: String, limit: Int) -> String {
    guard text.count > limit else { return text }
    return String(text.prefix(limit - 1)) + "…"
  }

  static package func leftPad(_ text: String, _ width: Int) -> String {
    let count = characterCount(text)
    return count >= width ? text : String(repeating: " ", count: width - count) + text
  }

  package static func rightPad(_ text: String, _ width: Int) -> String {
    let count = characterCount(text)
    return count >= width ? text : text + String(repeating: " ", count: width - count)
  }

  /// `text.count`, without walking grapheme clusters when the text is ASCII (nearly always).
  static package func characterCount(_ text: String) -> Int {
    let utf8 = text.utf8
    if utf8.count <= 64, !utf8.contains(where: { $0 >= 0x80 || $0 == 0x0D }) { return utf8.count }
    return text.count
  }

  /// `1 effect`, `3 effects`.
  package static func plural(_ count: Int, _ singular: String, _ plural: String? = nil) -> String {
    "\(Formatting.count(count)) \(count == 1 ? singular : (plural ?? singular + "s"))"
  }

  /// `text` wrapped at spaces into lines of at most `width` characters (a longer word stays
  /// whole); line breaks in `text` are kept.
  package static func wrap(_ text: String, width: Int) -> [String] {
    var lines: [String] = []
    for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
      var line = ""
      for word in paragraph.split(separator: " ") {
        if !line.isEmpty, line.count + 1 + word.count > width {
          lines.append(line)
          line = ""
        }
        line += line.isEmpty ? String(word) : " " + word
      }
      lines.append(line)
    }
    return lines
  }

  /// `a.loupe, b.loupe, c.loupe (and 7 more)`.
  package static func runList(_ paths: [String], count: Int? = nil, limit: Int = 5) -> String {
    let total = count ?? paths.count
    let shown = paths.prefix(limit).joined(separator: ", ")
    return total > min(limit, paths.count) ? "\(shown) (and \(Formatting.count(total - min(limit, paths.count))) more)" : shown
  }}
