import Foundation

/// What a row promises, and how to judge a measured value against it.
enum Target: Sendable {
  /// Loupe takes at most 1/`factor` of the compared time (ratio other/loupe ≥ factor).
  case fasterBy(Double)
  /// Loupe takes at most `factor` times the compared time.
  case atMost(Double)
  /// Reported only; `aim` is a soft bound on loupe/other.
  case report(aim: Double)
  /// At least this many per second.
  case rate(Double, unit: String)
  /// Growth of at most `megabytes` and a slow-down of at most `slowdown`.
  case memory(megabytes: Double, slowdown: Double)
  /// No target: a number for context (loupe/other).
  case reference

  var text: String {
    switch self {
    case .fasterBy(let factor): "≥ \(Format.factor(factor)) faster"
    case .atMost(let factor): "≤ \(Format.factor(factor)) the time"
    case .report(let aim): "report (aim ≤ \(Format.factor(aim)))"
    case .rate(let rate, let unit): "≥ \(Format.count(rate)) \(unit)"
    case .memory(let megabytes, let slowdown): "≤ \(Format.number(megabytes)) MB, ≤ \(Format.factor(slowdown)) time"
    case .reference: "none (context)"
    }
  }
}

/// One line of the results table.
struct Row: Sendable {
  enum Status: Sendable, Equatable {
    case met, notMet
    /// A reported number whose soft aim was or was not reached.
    case aimMet, aimMissed
    /// A number for context, with no target.
    case reported
    /// Ran in smoke mode (judged against nothing).
    case ran
    /// Not run, with the reason (a missing tool, a filtered-out dependency).
    case skipped(String)
    /// The benchmark itself went wrong (outputs disagree, a process failed).
    case failed(String)

    var text: String {
      switch self {
      case .met: "met"
      case .notMet: "NOT MET"
      case .aimMet: "aim met"
      case .aimMissed: "aim missed"
      case .reported: "reported"
      case .ran: "ran (smoke)"
      case .skipped(let why): "skipped: \(why)"
      case .failed(let why): "FAILED: \(why)"
      }
    }
  }

  var id: String
  var what: String
  var loupe: String
  var other: String
  var ratio: String
  var target: String
  var status: Status
  /// Extra facts for BENCHMARKS.md (sizes, noise range, instruction counts).
  var note: String = ""

  /// Which instructions judge a row: every thread of the process, or its main thread alone
  /// (the program's own: what the caller of `send` or `emit` pays, with a trace writer's or a
  /// client's threads working beside it).
  enum Threads: Sendable { case all, main }

  /// A row for a time comparison judged by `target`.
  /// With `judgeByInstructions`, the status follows callgrind's instruction ratio when it
  /// was counted (for rows whose bound is tighter than the timing noise), of the `threads`
  /// given; the note gives both counts.
  static func timed(
    _ id: String, _ what: String, _ c: Comparison, target: Target, note: String = "", judgeByInstructions: Bool = false,
    threads: Threads = .all
  ) -> Row {
    var c = c
    var instructionNote = ""
    if let counts = c.instructions {
      let all = counts.loupe / counts.other
      let main = counts.loupeMainThread / counts.otherMainThread
      instructionNote = "callgrind, instructions per operation: "
        + "all threads \(Format.count(counts.loupe)) vs \(Format.count(counts.other)) (ratio \(String(format: "%.3f", all))), "
        + "main thread \(Format.count(counts.loupeMainThread)) vs \(Format.count(counts.otherMainThread)) "
        + "(ratio \(String(format: "%.3f", main)))"
        + (judgeByInstructions ? "; judged on \(threads == .all ? "all threads" : "the main thread")" : "")
      if judgeByInstructions { c.ratio = threads == .all ? all : main }
    }
    let status: Status
    let ratioText: String
    switch target {
    case .fasterBy(let factor):
      let speedup = 1 / c.ratio
      ratioText = "\(Format.factor(speedup)) faster"
      status = speedup >= factor ? .met : .notMet
    case .atMost(let factor):
      ratioText = "\(Format.factor(c.ratio))"
      status = c.ratio <= factor ? .met : .notMet
    case .report(let aim):
      ratioText = "\(Format.factor(c.ratio))"
      status = c.ratio <= aim ? .aimMet : .aimMissed
    case .reference:
      ratioText = "\(Format.factor(c.ratio))"
      status = .reported
    case .rate, .memory:
      preconditionFailure("not a time comparison")
    }
    let range: String
    if case .fasterBy = target {
      range = "speedup range \(Format.factor(1 / c.ratioRange.upperBound))–\(Format.factor(1 / c.ratioRange.lowerBound)) over \(c.repetitions) reps"
    } else {
      range = "ratio range \(Format.factor(c.ratioRange.lowerBound))–\(Format.factor(c.ratioRange.upperBound)) over \(c.repetitions) reps"
    }
    let ratioColumn =
      judgeByInstructions && c.instructions != nil
      ? "\(ratioText) (instructions\(threads == .main ? ", main thread" : ""))" : ratioText
    let notes = [note, range, instructionNote].filter { !$0.isEmpty }
    return Row(
      id: id, what: what, loupe: Format.time(c.loupeNanoseconds), other: Format.time(c.otherNanoseconds), ratio: ratioColumn,
      target: target.text, status: status, note: notes.joined(separator: "; "))
  }
}

enum Format {
  static func number(_ value: Double) -> String {
    if value >= 100 || value == value.rounded() { return String(Int(value.rounded())) }
    return String(format: value >= 10 ? "%.1f" : "%.2f", value)
  }

  static func factor(_ value: Double) -> String {
    value >= 10 ? String(format: "%.0f×", value) : String(format: "%.2f×", value)
  }

  static func count(_ value: Double) -> String {
    let digits = String(Int(value.rounded()))
    var out = ""
    for (offset, character) in digits.reversed().enumerated() {
      if offset > 0 && offset.isMultiple(of: 3) { out.append(",") }
      out.append(character)
    }
    return String(out.reversed())
  }

  /// A time per operation, in the unit that keeps 3 significant digits readable.
  static func time(_ nanoseconds: Double) -> String {
    switch nanoseconds {
    case ..<1_000: String(format: "%.1f ns", nanoseconds)
    case ..<1_000_000: String(format: "%.2f µs", nanoseconds / 1e3)
    case ..<1_000_000_000: String(format: "%.2f ms", nanoseconds / 1e6)
    default: String(format: "%.2f s", nanoseconds / 1e9)
    }
  }
}

/// Prints rows as a Markdown table (readable in a terminal, pasteable into BENCHMARKS.md).
enum TablePrinter {
  static func markdown(_ rows: [Row]) -> String {
    let header = ["what", "Loupe", "compared with", "ratio", "target", "result"]
    let body = rows.map { [$0.what, $0.loupe, $0.other, $0.ratio, $0.target, $0.status.text] }
    var widths = header.map(\.count)
    for line in body {
      for (index, cell) in line.enumerated() { widths[index] = max(widths[index], cell.count) }
    }
    func line(_ cells: [String]) -> String {
      "| " + cells.enumerated().map { $1.padding(toLength: widths[$0], withPad: " ", startingAt: 0) }.joined(separator: " | ") + " |"
    }
    var lines = [line(header), "|" + widths.map { String(repeating: "-", count: $0 + 2) }.joined(separator: "|") + "|"]
    lines += body.map(line)
    return lines.joined(separator: "\n")
  }

  static func notes(_ rows: [Row]) -> String {
    rows.filter { !$0.note.isEmpty }.map { "- \($0.id): \($0.note)" }.joined(separator: "\n")
  }
}
