import Foundation

/// How long the trace recorder's writer waits, once woken by the first event of a batch, for
/// more events before it encodes and writes them (``TraceRecorder``).
///
/// A program emits in bursts (a send is an `action.received` and a `state.changed`; a tap or a
/// frame is several sends). A writer that wakes for each event pays its wake-up, its lock
/// hand-offs and a `write(2)` per event, and keeps the processor from sleeping; gathering a
/// burst first pays them once. The wait ends early when enough is queued (``events`` or
/// ``bytes``, at most half the queue's bounds), when an event is dropped, and on a flush or a
/// close, so it never costs an event and never delays an exit; a line reaches the file at most
/// ``duration`` (plus the time to encode and write its batch) after it was emitted.
struct RecorderLinger: Sendable {
  var duration: Duration
  /// Queued events that end the wait.
  var events: Int
  /// Queued bytes (``Event/approximateBytes``) that end the wait.
  var bytes: Int

  /// 5 ms: a burst of sends (a tap, a frame's work) is written at once; a line is in the file
  /// within ~5 ms of its event.
  static let standard = RecorderLinger(duration: .milliseconds(5), events: 1_024, bytes: TraceWriter.writeChunk)

  /// No waiting: each wake-up writes what is queued.
  static let none = RecorderLinger(duration: .zero, events: 1, bytes: 1)

  /// The thresholds held to at most half of a queue's bounds, so that waiting never makes the
  /// queue drop what it would have kept.
  func bounded(capacity: Int, byteCapacity: Int) -> RecorderLinger {
    RecorderLinger(
      duration: duration, events: max(1, min(events, capacity / 2)), bytes: max(1, min(bytes, byteCapacity / 2)))
  }
}

/// The time the recorder's writer lingers by: the system's (``SystemRecorderClock``), or in
/// tests one that moves only when told, so that no test waits for real time.
protocol RecorderClock: Sendable {
  var now: ContinuousClock.Instant { get }
  /// Waits on `condition` (locked by the caller) until it is signalled or `deadline` passes;
  /// returns `false` once `deadline` has passed.
  func wait(_ condition: NSCondition, until deadline: ContinuousClock.Instant) -> Bool
}

struct SystemRecorderClock: RecorderClock {
  var now: ContinuousClock.Instant { .now }

  func wait(_ condition: NSCondition, until deadline: ContinuousClock.Instant) -> Bool {
    let remaining = deadline - .now
    guard remaining > .zero else { return false }
    return condition.wait(until: Date(timeIntervalSinceNow: remaining.timeInterval))
  }
}
