import Foundation
import LoupeRPC
import Testing
@testable import Loupe

/// The trace recorder's writer, woken by the first event of a batch, waits for the rest of a
/// burst before writing (``RecorderLinger``). Time is a ``ManualRecorderClock`` that moves
/// only when a test says, so nothing here waits for real time: while the clock stands still
/// the writer lingers for good, unless a flush, a close or the queue's thresholds end it.
@Suite struct RecorderLingerTests {
  /// A recorder on a new bus whose writer lingers 5 ms (by `clock`), or until `events` events
  /// or `bytes` bytes are queued.
  func recorder(
    _ clock: ManualRecorderClock, events: Int = 1_000, bytes: Int = 1 << 20, capacity: Int = 10_000,
    byteCapacity: Int = 64 << 20
  ) throws -> (TraceRecorder, EventBus, String) {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("loupe-linger-\(UUID().uuidString).loupe").path
    let bus = EventBus(program: "linger")
    let recorder = try TraceRecorder(
      path: path, bus: bus, capacity: capacity, byteCapacity: byteCapacity,
      linger: RecorderLinger(duration: .milliseconds(5), events: events, bytes: bytes), clock: clock)
    bus.attach(recorder)  // the first sink: `session.started` is its first event
    return (recorder, bus, path)
  }

  /// The trace's lines after the header: each event's kind and seq.
  func events(_ path: String) throws -> [String] {
    try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").dropFirst().map {
      let line = try JSONParser.parse(String($0))
      return "\(line["kind"]?.stringValue ?? "?") \(line["seq"]?.intValue ?? 0)"
    }
  }

  /// Events of a burst wait for the linger to end and go out as one batch, one `write(2)`.
  @Test func aBurstIsWrittenOnceTheLingerEnds() throws {
    let clock = ManualRecorderClock()
    let (recorder, bus, path) = try recorder(clock)
    defer { try? FileManager.default.removeItem(atPath: path) }
    for label in ["a", "b", "c"] { bus.emit(.mark(Mark(label: label))) }
    #expect(recorder.batchesWritten == 0)  // the clock has not moved: still gathering
    clock.advance(by: .milliseconds(5))
    #expect(recorder.flush(timeout: .seconds(30), cuttingLinger: false))
    #expect(recorder.batchesWritten == 1)
    #expect(try events(path) == ["session.started 1", "mark 2", "mark 3", "mark 4"])
    recorder.close()
    #expect(recorder.waitUntilFinished(timeout: .seconds(30)))
  }

  /// A flush does not wait for the linger: everything queued is written at once.
  @Test func aFlushEndsTheLinger() throws {
    let clock = ManualRecorderClock()
    let (recorder, bus, path) = try recorder(clock)
    defer { try? FileManager.default.removeItem(atPath: path) }
    bus.emit(.mark(Mark(label: "a")))
    bus.emit(.mark(Mark(label: "b")))
    #expect(recorder.flush(timeout: .seconds(30)))
    #expect(try events(path) == ["session.started 1", "mark 2", "mark 3"])
    // The next burst lingers again, and a flush ends it again.
    bus.emit(.mark(Mark(label: "c")))
    #expect(recorder.flush(timeout: .seconds(30)))
    #expect(try events(path) == ["session.started 1", "mark 2", "mark 3", "mark 4"])
    recorder.close()
    #expect(recorder.waitUntilFinished(timeout: .seconds(30)))
  }

  /// Closing (the inspector's stop, the exit handler) writes what the writer was gathering.
  @Test func aCloseEndsTheLinger() throws {
    let clock = ManualRecorderClock()
    let (recorder, bus, path) = try recorder(clock)
    defer { try? FileManager.default.removeItem(atPath: path) }
    bus.emit(.mark(Mark(label: "a")))
    recorder.close()
    #expect(recorder.waitUntilFinished(timeout: .seconds(30)))
    #expect(try events(path) == ["session.started 1", "mark 2"])
  }

  /// Enough events queued end the linger without the clock: a long burst is written in
  /// batches of the threshold, never held back.
  @Test func enoughEventsEndTheLinger() throws {
    let clock = ManualRecorderClock()
    let (recorder, bus, path) = try recorder(clock, events: 4)
    defer { try? FileManager.default.removeItem(atPath: path) }
    for label in ["a", "b", "c"] { bus.emit(.mark(Mark(label: label))) }
    #expect(recorder.flush(timeout: .seconds(30), cuttingLinger: false))
    #expect(recorder.batchesWritten == 1)
    #expect(try events(path) == ["session.started 1", "mark 2", "mark 3", "mark 4"])
    recorder.close()
    #expect(recorder.waitUntilFinished(timeout: .seconds(30)))
  }

  /// Enough bytes queued end the linger too (here 3 events of 2 kB past 5 kB).
  @Test func enoughBytesEndTheLinger() throws {
    let clock = ManualRecorderClock()
    let (recorder, bus, path) = try recorder(clock, bytes: 5_000)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let label = String(repeating: "x", count: 2_000)
    for _ in 0..<3 { bus.emit(.mark(Mark(label: label))) }
    #expect(recorder.flush(timeout: .seconds(30), cuttingLinger: false))
    #expect(recorder.batchesWritten == 1)
    #expect(try events(path) == ["session.started 1", "mark 2", "mark 3", "mark 4"])
    recorder.close()
    #expect(recorder.waitUntilFinished(timeout: .seconds(30)))
  }

  /// The thresholds are at most half the queue's bounds, so gathering never makes the queue
  /// drop what it would have kept; and an event dropped ends the linger (the loss is written
  /// at once, as a `dropped` line in place of the event).
  @Test func theThresholdsStayUnderTheQueuesBounds() throws {
    let linger = RecorderLinger.standard.bounded(capacity: 6, byteCapacity: 1_000)
    #expect(linger.events == 3 && linger.bytes == 500)
    #expect(RecorderLinger.standard.bounded(capacity: 100_000, byteCapacity: 32 << 20).events == 1_024)
    #expect(RecorderLinger.standard.bounded(capacity: 1, byteCapacity: 1).events == 1)

    var queue = RecordQueue(capacity: 2, byteCapacity: .max)
    #expect(!queue.holds(events: 2, bytes: .max))
    _ = queue.offer(markEvent(1), size: 10)
    #expect(!queue.holds(events: 2, bytes: 11))
    #expect(queue.holds(events: 2, bytes: 10))
    _ = queue.offer(markEvent(2), size: 10)
    #expect(queue.holds(events: 2, bytes: .max))
    #expect(!queue.holds(events: 3, bytes: .max))
    #expect(queue.offer(markEvent(3), size: 10).queued == false)  // full
    #expect(queue.holds(events: 3, bytes: .max))  // a loss to report
  }
}

/// A ``RecorderClock`` that moves only when told: a writer waiting on it waits until a signal
/// or ``advance(by:)`` takes the time past its deadline.
final class ManualRecorderClock: RecorderClock, @unchecked Sendable {
  // Unchecked: `current` and `waiting` are guarded by `state`.
  private let state = NSCondition()
  private var current = ContinuousClock.now
  /// The condition the writer waits on, told when the time moves.
  private var waiting: NSCondition?

  var now: ContinuousClock.Instant {
    state.lock()
    defer { state.unlock() }
    return current
  }

  func wait(_ condition: NSCondition, until deadline: ContinuousClock.Instant) -> Bool {
    state.lock()
    waiting = condition
    state.broadcast()
    let time = current
    state.unlock()
    guard time < deadline else { return false }
    condition.wait()
    return now < deadline
  }

  /// Moves the time on once the writer waits on the clock (its deadline set by the time
  /// before), and wakes it.
  func advance(by duration: Duration) {
    state.lock()
    let failsafe = Date(timeIntervalSinceNow: 30)
    while waiting == nil && state.wait(until: failsafe) {}
    current += duration
    let condition = waiting
    state.unlock()
    // Taken once the writer has started waiting (it holds the lock until then).
    condition?.lock()
    condition?.broadcast()
    condition?.unlock()
  }
}
