/// A type-erased `Clock<Duration>`: the store's clock as effects see it (`send.clock`).
///
/// Its instants count from the moment it was wrapped, so any clock with `Duration`
/// durations (``TestClock``, `ContinuousClock`, `SuspendingClock`) fits.
public struct AnyClock: Clock, Sendable {
  /// A point in time on an ``AnyClock``: the duration since the clock was wrapped.
  public typealias Instant = ClockOffset

  private let _now: @Sendable () -> Duration
  private let _sleep: @Sendable (Duration, Duration?) async throws -> Void
  public let minimumResolution: Duration
  /// The wrapped clock.
  let base: any Clock<Duration>

  /// Wraps `clock`.
  public init<C: Clock<Duration>>(_ clock: C) {
    if let any = clock as? AnyClock {
      self = any
      return
    }
    let origin = clock.now
    _now = { origin.duration(to: clock.now) }
    _sleep = { offset, tolerance in try await clock.sleep(until: origin.advanced(by: offset), tolerance: tolerance) }
    minimumResolution = clock.minimumResolution
    base = clock
  }

  public var now: Instant { Instant(offset: _now()) }

  public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    try await _sleep(deadline.offset, tolerance)
  }
}
