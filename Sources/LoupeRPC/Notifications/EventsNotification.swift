import LoupeCore

/// `loupe/events` (server to client): `{events: [Event, ...]}`, one or more events in `seq`
/// order. Sent only to subscribed clients.
public struct EventsNotification: NotificationType, Hashable {
  public static let method = "loupe/events"

  public var events: [Event]
  public init(events: [Event]) { self.events = events }

  /// Decodes the events. An event of a kind this build does not know is kept as
  /// `Event.Payload.unknown`; a malformed one is an error.
  public init(params: JSON?) throws(ResponseError) {
    let reader = try ObjectReader(params, context: "\(Self.method) params", allowAbsent: false)
    var events: [Event] = []
    for item in try reader.array("events") {
      do {
        events.append(try Event(json: item))
      } catch {
        throw .invalidParams("\(Self.method): \(error)")
      }
    }
    self.events = events
  }

  public var params: JSON? { ["events": .array(events.map(\.json))] }

  /// Writes the whole notification for `events` straight into `writer` with the fast event
  /// encoder (no intermediate JSON trees): what the server's writer thread does per batch.
  public static func encode(_ events: some Sequence<Event>, into w: inout JSONWriter) {
    w.beginObject()
    w.key("jsonrpc"); w.string("2.0")
    w.key("method"); w.string(method)
    w.key("params")
    w.beginObject()
    w.key("events")
    w.beginArray()
    for event in events { event.encode(into: &w) }
    w.endArray()
    w.endObject()
    w.endObject()
  }
}
