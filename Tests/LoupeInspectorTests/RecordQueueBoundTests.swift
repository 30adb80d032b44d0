#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
import Foundation
import LoupeRPC
import Testing
@testable import Loupe

/// `LOUPE_RECORD` to a disk that does not keep up: the recorder's queue is bounded by bytes
/// (``InspectorConfiguration/recordQueueByteLimit``), not only by its count of events.
@Suite struct RecordQueueBoundTests {
  /// The trace is a FIFO nobody reads until every event is sent: the writer thread blocks
  /// once the pipe is full (64 KiB), so whatever else is kept waits in the queue. 200 events
  /// of 20 kB are far under the count bound (1,000) but far over the byte bound (100 kB):
  /// most must be dropped, and reported. Without the byte bound all 200 would be queued
  /// (4 MB) and written.
  @Test func aStalledTraceHoldsAtMostTheByteLimit() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("loupe-bound-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let fifo = directory.appendingPathComponent("trace.fifo").path
    try #require(mkfifo(fifo, 0o600) == 0)
    // Opened for reading first (non-blocking, so the open does not wait for a writer), so
    // that the recorder's open for writing finds a reader.
    let reader = open(fifo, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
    try #require(reader >= 0)
    defer { close(reader) }

    let bus = EventBus(program: "bound")
    let inspector = Inspector(bus: bus)
    var configuration = inspector.configuration
    configuration.recordQueueCapacity = 1_000
    configuration.recordQueueByteLimit = 100_000
    inspector.configuration = configuration
    try inspector.start(.record(fifo))
    _ = fcntl(reader, F_SETFL, 0)  // blocking reads from now on

    let label = String(repeating: "x", count: 20_000)
    for _ in 0..<200 { _ = bus.emit(.mark(Mark(label: label))) }

    // Now read everything; stopping the inspector writes what is queued and closes the file.
    let stopped = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      inspector.stop()
      stopped.signal()
    }
    var text: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = chunk.withUnsafeMutableBytes { read(reader, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { break }
      text += chunk[..<count]
    }
    stopped.wait()

    let lines = try String(decoding: text, as: UTF8.self).split(separator: "\n").map { try JSONParser.parse(String($0)) }
    try #require(lines.count > 1)
    #expect(lines[0]["format"] == "loupe-trace")
    let events = lines.dropFirst()
    let marks = events.filter { $0["kind"] == "mark" }.count
    let dropped = events.filter { $0["kind"] == "dropped" }.compactMap { $0["count"]?.intValue }.reduce(0, +)
    #expect(marks + dropped == 200)
    #expect(dropped > 0)
    // The pipe (64 KiB: 3 events), the batch being written and the queue (100 kB each: 5
    // events each, or one event of any size when empty).
    #expect(marks <= 16, "\(marks) events of 20 kB were kept")
    // Gap-free: seqs run on, each `dropped` standing for the events it counts.
    var expected = 1
    for event in events {
      let seq = try #require(event["seq"]?.intValue)
      if event["kind"] == "dropped" {
        expected += (event["count"]?.intValue ?? 0) - 1
        #expect(seq == expected)
      } else {
        #expect(seq == expected)
      }
      expected += 1
    }
  }
}
