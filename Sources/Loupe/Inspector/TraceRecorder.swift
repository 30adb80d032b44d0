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

  /// - Parameter threadNiceness: nice levels below the program for the writing thread.
  init(path: String, bus: EventBus, capacity: Int, byteCapacity: Int, threadNiceness: Int = 0) throws(InspectorError) {
    self.path = path
    // The writer's encoded text (one piece of at most `writeChunk`, in a buffer that may
    // double past it) and the allocator's slack (freed strings between live ones) are memory
    // of the same budget: 1 MB of it is left for them (measured: record_queue_memory.py).
    queue = RecordQueue(capacity: capacity, byteCapacity: max(1, byteCapacity - 4 * TraceWriter.writeChunk))
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
    let (queued, wasEmpty) = queue.offer(event, size: size)
    if queued && wasEmpty { condition.broadcast() }
  }

  private func run() {
    while true {
      condition.lock()
      while queue.isEmpty && !closed { condition.wait() }
      if queue.isEmpty && closed {
        condition.unlock()
        break
      }
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
      condition.broadcast()
      condition.unlock()
    }
    try? writer.close()
  }

  /// Waits until every queued event is on disk, for at most `timeout`.
  @discardableResult
  func flush(timeout: Duration) -> Bool {
    let deadline = Date().addingTimeInterval(Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18)
    condition.lock()
    defer { condition.unlock() }
    while !queue.isEmpty || writing {
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
