import LoupeSession

/// How many timeline lines the editor's debug console gets: at most ``linesPerInterval`` in
/// each ``interval`` of the adapter's clock, and, for the lines left out, one line saying how
/// many (issue 33 #16: a program that emits 400k events in a burst got one `output` event per
/// event, which no editor's console can take, and which piled up unread until the adapter's
/// output overflowed).
///
/// The clock is injected (`now`, the time since any fixed start), so that tests drive it by
/// hand; the adapter uses ``ContinuousClock``.
///
/// ```swift
/// var limiter = ConsoleLimiter(linesPerInterval: 2, interval: .seconds(1), now: clock)
/// limiter.admit()   // (summary: nil, writes: true)  — two lines are written,
/// limiter.admit()   // (summary: nil, writes: true)
/// limiter.admit()   // (summary: nil, writes: false) — the third is left out;
/// // a second later:
/// limiter.admit()   // (summary: 1, writes: true)    — "… 1 event not shown", then the line
/// ```
struct ConsoleLimiter: Sendable {
  /// What to do with the next line.
  struct Admission: Equatable, Sendable {
    /// Lines left out before this one that no summary has counted yet: write
    /// ``ConsoleLimiter/summary(_:)`` for them first.
    var summary: Int?
    /// Whether to write the line.
    var writes: Bool
  }

  static let defaultLinesPerInterval = 100
  static let defaultInterval = Duration.seconds(1)

  let linesPerInterval: Int
  let interval: Duration
  private let now: @Sendable () -> Duration
  private var windowStart: Duration?
  private var writtenInWindow = 0
  /// Lines left out that no summary has reported yet.
  private(set) var leftOut = 0

  init(
    linesPerInterval: Int = defaultLinesPerInterval, interval: Duration = defaultInterval,
    now: @escaping @Sendable () -> Duration = ConsoleLimiter.continuousNow()
  ) {
    self.linesPerInterval = max(1, linesPerInterval)
    self.interval = interval
    self.now = now
  }

  /// The adapter's own clock: the time since this call.
  static func continuousNow() -> @Sendable () -> Duration {
    let start = ContinuousClock.now
    return { ContinuousClock.now - start }
  }

  /// Asks for one line. A new interval starts when the last one is over; its first line
  /// brings the count of the lines the last one left out.
  mutating func admit() -> Admission {
    let time = now()
    var summary: Int?
    if windowStart.map({ time - $0 >= interval }) ?? true {
      windowStart = time
      writtenInWindow = 0
      summary = takeLeftOut()
    }
    guard writtenInWindow < linesPerInterval else {
      leftOut += 1
      return Admission(summary: summary, writes: false)
    }
    writtenInWindow += 1
    return Admission(summary: summary, writes: true)
  }

  /// The lines left out that no summary has counted yet (and now one will): at a stop, at the
  /// end of a session, and once a quiet interval has passed after a burst.
  mutating func takeLeftOut() -> Int? {
    defer { leftOut = 0 }
    return leftOut > 0 ? leftOut : nil
  }

  /// `… 12,345 events not shown in the console; the Threads/stack still have them`.
  static func summary(_ count: Int) -> String {
    "… \(Formatting.count(count)) event\(count == 1 ? "" : "s") not shown in the console; the Threads/stack still have them\n"
  }
}
