
/// A clock whose sleeps end at once, moving its `now` to the deadline (TCA's
/// `ImmediateClock`): for tests and previews that should not wait, and do not care how long.
///
/// ```swift
/// let store = TestStore(initialState: Feature.State()) { Feature() } withDependencies: {
///   $0.continuousClock = ImmediateClock()
/// }
/// ```
///
/// Unlike a ``TestClock`` it gives `TestStore` no way to know that every effect is asleep:
/// a `receive` that nothing answers waits for its timeout.
public final class ImmediateClock: Clock, Sendable {
  /// A point in the clock's time: the time slept since it was made.
  public struct Instant: InstantProtocol, Sendable {
    public let offset: Duration

    public init(offset: Duration = .zero) { self.offset = offset }

    public func advanced(by duration: Duration) -> Self { Self(offset: offset + duration) }
    public func duration(to other: Self) -> Duration { other.offset - offset }
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.offset < rhs.offset }
  }

  private let current: Lock<Instant>

  public init(now: Instant = Instant()) {
    current = Lock(now)
  }

  public var now: Instant { current.withLock { $0 } }
  public var minimumResolution: Duration { .zero }

  /// Returns at once (after a yield), unless the task is cancelled.
  public func sleep(until deadline: Instant, tolerance: Duration?) async throws {
    try Task.checkCancellation()
    current.withLock { $0 = Swift.max($0, deadline) }
    await Task.yield()
    try Task.checkCancellation()
  }
}
