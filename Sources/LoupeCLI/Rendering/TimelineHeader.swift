import LoupeSession
/// The dim `   1.750ms      #4` column that starts every timeline line, appended in place.
///
/// Same text as `style.dim(leftPad(Formatting.time(time), 12) + " " + leftPad("#\(seq)", 7))`,
/// without the five temporary strings that composition builds for every event of a trace
/// (issue 18: rendering is ~40% of `show`'s time).
enum TimelineHeader {
  static let timeWidth = 12
  static let seqWidth = 7

  static func append(time milliseconds: Double, seq: Int, style: Style, to text: inout String) {
    if style.enabled { text += "\u{1B}[2m" }
    // Formatting.time's arithmetic, digit for digit.
    guard let micros = Formatting.wholeMicroseconds(milliseconds) else {
      let time = Formatting.time(milliseconds)
      appendSpaces(timeWidth - time.utf8.count, to: &text)
      text += time
      text += " "
      appendSeq(seq, style: style, to: &text)
      return
    }
    let whole = String(abs(micros) / 1000)
    let fraction = abs(micros) % 1000
    let fractionText = String(fraction)
    let timeLength = (micros < 0 ? 1 : 0) + whole.utf8.count + 1 + 3 + 2
    appendSpaces(timeWidth - timeLength, to: &text)
    if micros < 0 { text += "-" }
    text += whole
    text += fraction < 10 ? ".00" : fraction < 100 ? ".0" : "."
    text += fractionText
    text += "ms "
    appendSeq(seq, style: style, to: &text)
  }

  private static func appendSeq(_ seq: Int, style: Style, to text: inout String) {
    let seqText = String(seq)
    appendSpaces(seqWidth - 1 - seqText.utf8.count, to: &text)
    text += "#"
    text += seqText
    if style.enabled { text += "\u{1B}[0m" }
  }

  /// Padding strings short enough to live inline (no allocation): appending one is a copy of
  /// a few bytes, where appending `count` `Character`s one by one measured ~0.8 µs an event.
  private static let spaces = (0...15).map { String(repeating: " ", count: $0) }

  private static func appendSpaces(_ count: Int, to text: inout String) {
    guard count > 0 else { return }
    text += count < spaces.count ? spaces[count] : String(repeating: " ", count: count)
  }
}
