import Foundation
import LoupeRPC

/// `LOUPE_RECORD=FILE`: a sink that writes the session to a trace file (CONTRACT §7) from its
/// own thread.
///
/// The header line is written at once; each event becomes one line, exactly as on the wire.
/// Like a client queue, the recorder's queue is bounded, by a count of events and by their
/// bytes (``RecordQueue``): if the disk cannot keep up, events are dropped and a `dropped` line
/// reports them, rather than slowing the program or growing its memory. Events a failed write
/// could not store (a full disk) are reported the same way, once writing works again.
///
/// Woken by the first event of a batch, the writer waits a few milliseconds for the rest of
/// the burst before it writes (``RecorderLinger``), unless a flush or a close is waiting or
/// enough is queued: a line is in the file within ~5 ms of its event. Producers wake the
/// writer only when it is parked with nothing to do, not for every event it has yet to take.
final class TraceRecorder: EventSink, @unchecked Sendable {
  // Unchecked: the mutable properties are guarded by `condition`. For the same reason the
  // queue skips the runtime's exclusivity check (a begin and an end of access on every event
  // the program emits, ~80 instructions).

  let path: String
  private let writer: TraceWriter
  private let condition = NSCondition()
  @exclusivity(unchecked) private var queue: RecordQueue
  /// Events a failed write could not put in the file (a full disk): a `dropped` line reports
  /// them ahead of the next lines that do reach it, so the trace never has a silent gap.
  private var unwritten: LostEvents?
  private var writing = false
  private var closed = false
  private var finished = false
  /// What the writer is doing, for the producers: whether an event must wake it.
  private enum WriterState { case parked, lingering, busy }
  @exclusivity(unchecked) private var writerState = WriterState.busy
  /// Callers of ``flush(timeout:)`` waiting: the writer does not linger.
  private var flushers = 0
  /// Threads waiting for a batch to be written (flushes, and tests that let the writer linger).
  private var waiters = 0
  private let linger: RecorderLinger
  private let clock: any RecorderClock
  private var batches = 0

  /// Batches written (each one wake-up, lock hand-off and `write(2)` of the writer).
  var batchesWritten: Int {
    condition.lock()
    defer { condition.unlock() }
    return batches
  }

  /// - Parameter threadNiceness: nice levels below the program for the writing thread.
  init(
    path: String, bus: EventBus, capacity: Int, byteCapacity: Int, threadNiceness: Int = 0,
    linger: RecorderLinger = .standard, clock: any RecorderClock = SystemRecorderClock()
  ) throws(InspectorError) {
    self.path = path
    // The writer's encoded text (one piece of at most `writeChunk`, in a buffer that may
    // double past it) and the allocator's slack (freed strings between live ones) are memory
    // of the same budget: 1 MB of it is left for them (measured: record_queue_memory.py).
    queue = RecordQueue(capacity: capacity, byteCapacity: max(1, byteCapacity - 4 * TraceWriter.writeChunk))
    self.linger = linger.bounded(capacity: queue.capacity, byteCapacity: queue.byteCapacity)
    self.clock = clock
    do {
      writer = try TraceWriter(
        path: path, header: TraceHeader(program: bus.program, pid: bus.pid, startedAt: bus.startedAt))
    } catch {
      throw InspectorError("Cannot record to '\(path)': \(error)")
    }
    ServiceThread.start(name: "loupe.record", niceness: threadNiceness) { [self] in run() }
  }

  func receive(_ event: consuming Event) {
    let size = event.approximateBytes
    condition.lock()
    defer { condition.unlock() }
    guard !closed else { return }
    let queued = queue.offer(event, size: size).queued
    switch writerState {
    case .parked:
      writerState = .busy
      condition.broadcast()
    case .lingering:
      // Enough for a batch, or a loss: no more waiting.
      if !queued || queue.holds(events: linger.events, bytes: linger.bytes) {
        writerState = .busy
        condition.broadcast()
      }
    case .busy:
      break  // it takes the queue when done
    }
  }

  /// Waits (the lock held) for the rest of a burst after its first event, or until a flush, a
  /// close or enough queued ends the wait.
  private func lingerForBatch() {
    guard linger.duration > .zero, !closed, flushers == 0, !queue.holds(events: linger.events, bytes: linger.bytes)
    else { return }
    let deadline = clock.now + linger.duration
    writerState = .lingering
    while writerState == .lingering && !closed && flushers == 0 {
      if !clock.wait(condition, until: deadline) { break }
    }
    writerState = .busy
  }

  private func run() {
    while true {
      condition.lock()
      while queue.isEmpty && !closed {
        writerState = .parked
        condition.wait()
      }
      writerState = .busy
      if queue.isEmpty && closed {
        condition.unlock()
        break
      }
      lingerForBatch()
      var batch = queue.takeAll()
      if let unwritten {
        batch.insert([unwritten.event], at: 0)
        self.unwritten = nil
      }
      writing = true
      condition.unlock()
      // A full or vanished disk must not take the program down: the writer keeps the trace
      // readable and remembers the failure; recording simply goes on trying.
      var failure: (segment: Int, written: Int)?
      for index in batch.indices {
        let (written, error) = writer.appendPrefix(owned: &batch[index])
        if error != nil, written < batch[index].count {
          failure = (index, written)
          break
        }
      }
      condition.lock()
      if let failure, let last = batch.last(where: { !$0.isEmpty })?.last {
        var count = 0
        for (offset, segment) in batch[failure.segment...].enumerated() {
          for event in segment[(offset == 0 ? failure.written : 0)...] {
            if case .dropped(let dropped) = event.payload { count += dropped.count } else { count += 1 }
          }
        }
        unwritten = LostEvents(count: count, lastSeq: last.seq, lastTime: last.time)
      }
      queue.recycle(consume batch)
      writing = false
      batches += 1
      if waiters > 0 { condition.broadcast() }
      condition.unlock()
    }
    try? writer.close()
    condition.lock()
    finished = true
    condition.broadcast()
    condition.unlock()
  }

  /// Waits until every queued event is on disk, for at most `timeout`; the writer writes what
  /// it was gathering at once. With `cuttingLinger: false` (tests) it does not: the wait ends
  /// when the writer is done of its own accord.
  @discardableResult
  func flush(timeout: Duration, cuttingLinger: Bool = true) -> Bool {
    let deadline = Date(timeIntervalSinceNow: timeout.timeInterval)
    condition.lock()
    defer { condition.unlock() }
    waiters += 1
    if cuttingLinger {
      flushers += 1
      if writerState == .lingering { condition.broadcast() }
    }
    defer {
      waiters -= 1
      if cuttingLinger { flushers -= 1 }
    }
    while !queue.isEmpty || writing {
      if !condition.wait(until: deadline) { return false }
    }
    return true
  }

  /// Waits until the writer has closed the file after ``close()``, for at most `timeout`.
  func waitUntilFinished(timeout: Duration) -> Bool {
    let deadline = Date(timeIntervalSinceNow: timeout.timeInterval)
    condition.lock()
    defer { condition.unlock() }
    while !finished {
      if !condition.wait(until: deadline) { return false }
    }
    return true
  }

  /// Stops accepting events; the thread writes what is queued and closes the file.
  func close() {
    condition.lock()
    closed = true
    condition.broadcast()
    condition.unlock()
  }
}
