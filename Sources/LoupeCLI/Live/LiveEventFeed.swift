import Foundation
import LoupeClient
import LoupeCore
import LoupeSession

/// A live session's one event store: the session's own recording. Every event the program
/// sends is written to the recording as it came, then handed on decoded, with where its line
/// is in the file, for a ``SessionModel`` made with ``SessionModel/init(growingTrace:)`` to
/// index (``SessionModel/append(_:at:)``) and read back when asked — so a session left attached
/// for hours holds an index, not its events (`loupe mcp` and `loupe dap`; BENCHMARKS.md "Live
/// sessions"). An event the recording could not write (a full disk) comes without a location
/// and the model keeps it in memory: nothing is lost.
enum LiveEventFeed {
  /// One event and where its line is in the recording (`nil`: not written).
  struct Item: Sendable {
    var event: Event
    var location: TraceLineLocation?
  }

  /// What a session that reads its events back itself is handed (``startDeferred``): the
  /// lines written to the recording, as locations only, or events the recording could not
  /// write (or frames that came another way), decoded.
  enum Delivery: Sendable {
    case lines([TraceLineLocation])
    case events([Item])
  }

  /// Like ``start(_:recording:deliver:)``, but lines written to the recording are handed on
  /// as their locations, not decoded: the session reads each back and decodes it when it
  /// takes it in (``SessionModel/event(atLine:)``). A session that falls behind a burst (`loupe
  /// dap`, on its actor) then holds 16 bytes an event waiting, not the decoded event.
  static func startDeferred(_ client: LoupeClient, recording: TraceRecording, deliver: @escaping @Sendable (Delivery) -> Void) {
    start(client, recording: recording, deferring: true) { items in deliver(.events(items)) } lines: { deliver(.lines($0)) }
  }

  /// Sets `client` to record every event to `recording` and hand the events on to `deliver`,
  /// in order, on the client's reading thread. ``LoupeClient/events`` then carries no events
  /// (it just finishes when the connection closes), so nothing is decoded twice.
  static func start(_ client: LoupeClient, recording: TraceRecording, deliver: @escaping @Sendable ([Item]) -> Void) {
    start(client, recording: recording, deferring: false, deliver) { _ in }
  }

  private static func start(
    _ client: LoupeClient, recording: TraceRecording, deferring: Bool, _ deliver: @escaping @Sendable ([Item]) -> Void,
    lines: @escaping @Sendable ([TraceLineLocation]) -> Void
  ) {
    client.onRawEvents = { batch in
      let locations = recording.record(batch)
      if deferring, let locations {
        if !locations.isEmpty { lines(locations) }
        return
      }
      var items: [Item] = []
      items.reserveCapacity(batch.count)
      for (index, line) in batch.lines.enumerated() {
        guard let event = try? Event(jsonText: line) else { continue }
        items.append(Item(event: event, location: locations?[index]))
      }
      if !items.isEmpty { deliver(items) }
    }
    client.onFrame = { body in
      // A frame the fast path did not take (an `initialize` answer, a batch, pretty JSON).
      let frame = FrameContent(body)
      if let process = frame.process { recording.setFallbackHeader(process) }
      guard !frame.events.isEmpty else { return }
      let locations = recording.record(frame.events)
      var items: [Item] = []
      for (index, json) in frame.events.enumerated() {
        guard let event = try? Event(json: json) else { continue }
        items.append(Item(event: event, location: locations?[index]))
      }
      if !items.isEmpty { deliver(items) }
    }
    client.decodesEvents = false
  }
}

extension SessionModel {
  /// Adds live events as ``LiveEventFeed`` hands them on.
  func append(_ items: [LiveEventFeed.Item]) {
    for item in items { append(item.event, at: item.location) }
  }
}
