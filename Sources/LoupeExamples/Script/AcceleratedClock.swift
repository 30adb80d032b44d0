/// Real time, played faster: `speed` seconds of this clock pass in each second of
/// `ContinuousClock`.
///
/// `loupe-examples … --speed 4` gives it to the stores and the script, so the whole scenario
/// (timers, request delays, the pauses between steps) runs four times faster, as when a test
/// wants the full story in a second of wall time.
struct AcceleratedClock: Clock, Sendable {
  struct Instant: InstantProtocol, Sendable {
    var offset: Duration
    func advanced(by duration: Duration) -> Self { Self(offset: offset + duration) }
    func duration(to other: Self) -> Duration { other.offset - offset }
    static func < (lhs: Self, rhs: Self) -> Bool { lhs.offset < rhs.offset }
  }

  let speed: Double
  private let base = ContinuousClock()
  private let origin = ContinuousClock.now

  init(speed: Double) {
    precondition(speed > 0, "AcceleratedClock needs a positive speed")
    self.speed = speed
  }

  var now: Instant { Instant(offset: (base.now - origin) * speed) }
  var minimumResolution: Duration { base.minimumResolution * speed }

  func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    let remaining = now.duration(to: deadline)
    guard remaining > .zero else { return try Task.checkCancellation() }
    try await base.sleep(for: remaining / speed, tolerance: tolerance.map { $0 / speed })
  }
}
