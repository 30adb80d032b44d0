import Foundation
import LoupeClient
import LoupeCore
import LoupeRPC
import LoupeSession

/// `--record FILE`: writes the events a connection receives to a trace file, as they arrive.
///
/// It looks at raw frame bodies (``LoupeClient/onFrame``), so each event is written exactly as
/// it came over the wire, members this build does not know included. The file is opened on
/// the first event, so its header can carry the program, pid and start time of the
/// `session.started` event; every line reaches the file at once (a crash of the program or of
/// loupe loses at most the line being written).
///
/// A write error (a full disk) is reported once on standard error and recording stops; the
/// session goes on and ``failure`` tells the command to exit with status 3.
final class TraceRecording: Sendable {
  let path: String
  private struct State {
    var writer: TraceWriter?
    var failure: TraceError?
    var fallbackHeader: TraceHeader?
    var events = 0
  }
  private let state = Lock(State())
  private let stderr: Output

  /// Checks that `path` can be written (creating it empty) before any program is started.
  init(path: String, stderr: Output) throws(CommandFailure) {
    self.path = path
    self.stderr = stderr
    // open(2), not FileManager.createFile: that writes a temporary file and renames it over
    // the path, which would replace a device or a FIFO given as the trace.
    let fd = LibC.createForWriting(path)
    guard fd >= 0 else {
      let reason = LibC.message(LibC.errno)
      throw CommandFailure("Cannot write the recording to '\(path)': \(reason).")
    }
    LibC.close(fd)
  }

  /// The header to use when the first event is not `session.started` (from `initialize`).
  func setFallbackHeader(_ header: TraceHeader) {
    state.withLock { $0.fallbackHeader = header }
  }

  var failure: TraceError? { state.withLock { $0.failure } }
  var eventCount: Int { state.withLock { $0.events } }

  /// Records the events of a `loupe/events` notification body; ignores every other frame.
  func record(frame body: [UInt8]) {
    // Fast path, nearly every frame: the events' bytes as they came, without decoding them.
    if let batch = NotificationEventLines.batch(inNotification: body) {
      record(batch)
      return
    }
    let frame = FrameContent(body)
    if let process = frame.process { setFallbackHeader(process) }
    record(frame.events)
  }

  /// Records the events of a notification as they came, with one write. Returns where each
  /// event's line is in the file (for a model that reads them back), or `nil` when they were
  /// not written (the recording has stopped).
  @discardableResult
  func record(_ batch: NotificationEventLines.Batch) -> [TraceLineLocation]? {
    guard batch.count > 0 else { return [] }
    let start = write(count: batch.count, firstEvent: { (try? JSONParser.parse(batch.text[batch.first])) ?? .null }) {
      writer throws(TraceError) in try writer.append(batch)
    }
    return start.map(batch.locations(writtenAt:))
  }

  /// Records events given as JSON values; returns where each one's line is, as
  /// ``record(_:)-(NotificationEventLines.Batch)`` does.
  @discardableResult
  func record(_ events: [JSON]) -> [TraceLineLocation]? {
    record(lines: events.map { Array($0.jsonText.utf8) })
  }

  /// Records events given as lines of JSON, with one write (a syscall per event capped
  /// `loupe record` far below what a program emits); returns where each line is.
  @discardableResult
  func record(lines: [[UInt8]]) -> [TraceLineLocation]? {
    guard !lines.isEmpty else { return [] }
    let start = write(count: lines.count, firstEvent: { (try? JSONParser.parse(lines[0])) ?? .null }) { writer throws(TraceError) in
      try writer.appendLines(lines)
    }
    return start.map { TraceLineLocation.consecutive(from: $0, lengths: lines.lazy.map(\.count)) }
  }

  /// Appends `count` events with `append`, opening the file first (its header taken from the
  /// first event) and stopping the recording, said once, at the first error. Returns the
  /// offset of the first line `append` wrote (`nil`: nothing was written).
  private func write(count: Int, firstEvent: () -> JSON, _ append: (TraceWriter) throws(TraceError) -> Int) -> Int? {
    state.withLock { state in
      guard state.failure == nil else { return nil }
      do throws(TraceError) {
        if state.writer == nil {
          state.writer = try TraceWriter(path: path, header: header(first: firstEvent(), state: state))
        }
        let start = try append(state.writer!)
        state.events += count
        return start
      } catch {
        state.failure = error
        stderr.line("loupe: recording stopped: \(error)")
        return nil
      }
    }
  }

  private func header(first: JSON, state: State) -> TraceHeader {
    if first["kind"]?.stringValue == SessionStarted.kind, let program = first["program"]?.stringValue,
      let pid = first["pid"]?.intValue, let startedAt = first["startedAt"]?.stringValue
    {
      return TraceHeader(program: program, pid: pid, startedAt: startedAt)
    }
    return state.fallbackHeader ?? TraceHeader(program: "", pid: 0, startedAt: EventBus.iso8601(Date()))
  }

  /// Writes the header if no event came, and closes the file.
  func finish() {
    state.withLock { state in
      do throws(TraceError) {
        if state.writer == nil, state.failure == nil {
          let header = state.fallbackHeader ?? TraceHeader(program: "", pid: 0, startedAt: EventBus.iso8601(Date()))
          state.writer = try TraceWriter(path: path, header: header)
        }
        try state.writer?.close()
      } catch {
        if state.failure == nil {
          state.failure = error
          stderr.line("loupe: recording stopped: \(error)")
        }
      }
    }
  }
}

/// What loupe needs from a raw frame the program sent: the events of `loupe/events`
/// notifications, as JSON values exactly as they came (members this build does not know
/// included), and the program named by an `initialize` answer.
struct FrameContent {
  var events: [JSON] = []
  var process: TraceHeader?

  init(_ body: [UInt8]) {
    guard body.count > 20, let json = try? JSONParser.parse(body) else { return }
    for message in json.arrayValue ?? [json] {
      if message["method"]?.stringValue == EventsNotification.method {
        events += message["params"]?["events"]?.arrayValue ?? []
      } else if let process = message["result"]?["process"], let pid = process["pid"]?.intValue,
        let name = process["name"]?.stringValue
      {
        // For a trace whose first event is not `session.started` (a bridged editor may
        // subscribe without history).
        self.process = TraceHeader(program: name, pid: pid, startedAt: EventBus.iso8601(Date()))
      }
    }
  }
}
