import Foundation
import LoupeSession

/// A one-line progress report on standard error for long file operations, shown only when
/// standard error is a terminal and the operation has taken more than half a second.
final class Progress: ReadProgress {
  private let output: Output
  private let label: String
  private let total: Int?
  private let start = ContinuousClock.now
  private var lastDraw: ContinuousClock.Instant?
  private var shown = false
  private var calls = 0
  private let delay: Duration

  /// - Parameter delay: how long an operation runs before progress is shown.
  init(output: Output, label: String, total: Int?, delay: Duration = .milliseconds(500)) {
    self.output = output
    self.label = label
    self.total = total
    self.delay = delay
  }

  /// Reports `done` bytes; cheap to call for every line.
  func update(_ done: Int) {
    calls &+= 1
    guard output.isTerminal, calls & 0x3FF == 0 else { return }
    let now = ContinuousClock.now
    guard now - start >= delay else { return }
    if let lastDraw, now - lastDraw < .milliseconds(100) { return }
    lastDraw = now
    shown = true
    var text = "\r\(label) \(Progress.bytes(done))"
    if let total, total > 0 {
      let percent = min(100, done * 100 / total)
      text = "\r\(label) \(percent)% (\(Progress.bytes(done)) of \(Progress.bytes(total)))"
    }
    output.write(text + "\u{1B}[K")
    output.flush()
  }

  /// Clears the progress line, if one was drawn.
  func finish() {
    guard shown else { return }
    output.write("\r\u{1B}[K")
    output.flush()
    shown = false
  }

  static func bytes(_ count: Int) -> String {
    let units = ["bytes", "KB", "MB", "GB", "TB"]
    var value = Double(count)
    var unit = 0
    while value >= 1000, unit < units.count - 1 {
      value /= 1000
      unit += 1
    }
    return unit == 0 ? "\(count) bytes" : String(format: "%.1f", value) + " " + units[unit]
  }
}
