/// A point in time on ``AnyClock`` and ``TestClock``: the duration since the clock began
/// (was wrapped, or was created).
public struct ClockOffset: InstantProtocol, Sendable {
  public var offset: Duration
  public init(offset: Duration) { self.offset = offset }
  public func advanced(by duration: Duration) -> Self { Self(offset: offset + duration) }
  public func duration(to other: Self) -> Duration { other.offset - offset }
  public static func < (lhs: Self, rhs: Self) -> Bool { lhs.offset < rhs.offset }
}
