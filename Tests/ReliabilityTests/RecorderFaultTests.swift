import Foundation
import Loupe
import LoupeCore
import Testing

extension ReliabilitySuites {
  /// The program's own recorder (`LOUPE_RECORD`) when writes fail for a while and then work
  /// again (a disk that fills up and is freed): the trace says what it lost.
  @Suite(.timeLimit(.minutes(1))) struct RecorderFaultTests {
    /// The trace goes to a FIFO whose reader goes away (writes fail) and comes back (writes
    /// work again): deterministic, unlike a real disk.
    @Test func eventsAWriteFailureLostAreReportedAsDropped() throws {
      signal(SIGPIPE, SIG_IGN)
      let directory = PrivateDirectory()
      let fifo = directory.file("trace.fifo")
      #expect(mkfifo(fifo, 0o600) == 0)
      var reader = open(fifo, O_RDONLY | O_NONBLOCK)
      let bus = EventBus(program: "fifo")
      let inspector = Inspector(bus: bus)
      defer { inspector.stop() }
      try inspector.start(.record(fifo))

      bus.emit(.mark(Mark(label: "written")))
      #expect(inspector.flush(timeout: .seconds(10)))
      var text = readAll(reader)
      close(reader)  // the "disk" is full: every write fails
      bus.emit(.mark(Mark(label: "lost 1")))
      bus.emit(.mark(Mark(label: "lost 2")))
      #expect(inspector.flush(timeout: .seconds(10)))

      reader = open(fifo, O_RDONLY | O_NONBLOCK)  // space again
      defer { close(reader) }
      bus.emit(.mark(Mark(label: "written again")))
      #expect(inspector.flush(timeout: .seconds(10)))
      text += readAll(reader)

      let lines = text.split(separator: "\n")
      let events = try lines.dropFirst().map { try Event(jsonText: Array($0.utf8)) }
      #expect(events.map(\.kind) == ["session.started", "mark", "dropped", "mark"])
      #expect(events.map(\.seq) == [1, 2, 4, 5])
      if case .dropped(let dropped) = events[2].payload { #expect(dropped.count == 2) }
    }

    private func readAll(_ fd: Int32) -> String {
      var data = [UInt8]()
      var buffer = [UInt8](repeating: 0, count: 65536)
      while true {
        let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if n <= 0 { break }
        data += buffer[0..<n]
      }
      return String(decoding: data, as: UTF8.self)
    }
  }
}
