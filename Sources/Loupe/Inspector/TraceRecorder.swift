import Foundation
import LoupeRPC

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `LOUPE_RECORD=FILE`: a sink that writes the session to a trace file (CONTRACT §7) from its
/// own thread.
///
/// The header line is written at once; each event becomes one line, exactly as on the wire.
/// Like a client queue, the recorder's queue is bounded: if the disk cannot keep up, events are
/// dropped and a `dropped` line reports them, rather than slowing the program.
final class TraceRecorder: EventSink, @unchecked Sendable {
  // Unchecked: the mutable properties are guarded by `condition`.

  let path: String
  private let fd: Int32
  private let capacity: Int
  private let condition = NSCondition()
  private var queue: [Event] = []
  private var lost: LostEvents?
  private var writing = false
  private var closed = false

  init(path: String, bus: EventBus, capacity: Int) throws(InspectorError) {
    self.path = path
    self.capacity = max(1, capacity)
    fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard fd >= 0 else {
      throw InspectorError("Cannot create trace file '\(path)': \(String(cString: strerror(errno)))")
    }
    var header = JSONWriter()
    header.beginObject()
    header.key("format"); header.string("loupe-trace")
    header.key("version"); header.int(1)
    header.key("program"); header.string(bus.program)
    header.key("pid"); header.int(bus.pid)
    header.key("startedAt"); header.string(bus.startedAt)
    header.endObject()
    header.bytes.append(UInt8(ascii: "\n"))
    writeAll(header.bytes)
    let thread = Thread { [self] in run() }
    thread.name = "loupe.record"
    thread.start()
  }

  func receive(_ event: Event) {
    condition.lock()
    defer { condition.unlock() }
    guard !closed else { return }
    if queue.count >= capacity {
      lost = LostEvents(count: (lost?.count ?? 0) + 1, lastSeq: event.seq, lastTime: event.time)
      return
    }
    if let lost {
      queue.append(lost.event)
      self.lost = nil
    }
    queue.append(event)
    if queue.count == 1 { condition.broadcast() }
  }

  private func run() {
    var writer = JSONWriter(capacity: 1 << 16)
    while true {
      condition.lock()
      while queue.isEmpty && lost == nil && !closed { condition.wait() }
      if queue.isEmpty && lost == nil && closed {
        condition.unlock()
        break
      }
      var batch = queue
      queue = []
      if let lost {
        batch.append(lost.event)
        self.lost = nil
      }
      writing = true
      condition.unlock()
      writer.reset()
      for event in batch {
        event.encode(into: &writer)
        writer.bytes.append(UInt8(ascii: "\n"))
      }
      writeAll(writer.bytes)
      condition.lock()
      writing = false
      condition.broadcast()
      condition.unlock()
    }
    Glibc.close(fd)
  }

  private func writeAll(_ bytes: [UInt8]) {
    var offset = 0
    while offset < bytes.count {
      let count = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, bytes.count - offset) }
      if count < 0 {
        if errno == EINTR { continue }
        return  // a full or vanished disk must not take the program down
      }
      offset += count
    }
  }

  /// Waits until every queued event is on disk, for at most `timeout`.
  @discardableResult
  func flush(timeout: Duration) -> Bool {
    let deadline = Date().addingTimeInterval(Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18)
    condition.lock()
    defer { condition.unlock() }
    while !queue.isEmpty || lost != nil || writing {
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
