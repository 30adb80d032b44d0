extension Clock where Duration == Swift.Duration {
  /// Ticks every `interval`, starting one interval after iteration begins; ends when the
  /// iterating task is cancelled. Deadlines do not drift: each is one interval after the last.
  ///
  /// ```swift
  /// return .run { send in
  ///   for await _ in send.clock.timer(interval: .seconds(1)) { await send(.timerTicked) }
  /// }
  /// .cancellable(id: CancelID.timer)
  /// ```
  ///
  /// The sequence is the same type for every clock, so `timer` works on the `clock`
  /// dependency (`any Clock<Duration>`) too: `@Dependency(\.clock) var clock` … `clock.timer(…)`.
  public func timer(interval: Duration) -> ClockTimer<AnyClock> {
    ClockTimer(clock: AnyClock(self), interval: interval)
  }
}

/// The ticks of ``Swift/Clock/timer(interval:)``: each element is the instant of the tick.
public struct ClockTimer<C: Clock>: AsyncSequence, Sendable where C.Duration == Duration {
  public typealias Element = C.Instant
  let clock: C
  let interval: Duration

  public struct AsyncIterator: AsyncIteratorProtocol {
    let clock: C
    let interval: Duration
    var last: C.Instant?

    public mutating func next() async -> C.Instant? {
      let deadline = (last ?? clock.now).advanced(by: interval)
      do {
        try await clock.sleep(until: deadline, tolerance: nil)
      } catch {
        return nil
      }
      if Task.isCancelled { return nil }
      last = deadline
      return deadline
    }
  }

  public func makeAsyncIterator() -> AsyncIterator {
    AsyncIterator(clock: clock, interval: interval, last: nil)
  }
}
