import LoupeCore
/// Where a ``SessionModel`` keeps its events: in memory (live), or in the trace file, read back
/// by offset when asked (a recording: memory follows the index, not the events). Recently read
/// events are cached, so walking back and forth near one place reads each line once.
final package class EventStorage {
  private var events: [Event] = []
  private let file: TraceLineFile?
  private var offsets: [Int] = []
  private var lengths: [Int32] = []
  private var cache: [Int: Event] = [:]
  static package let cacheLimit = 4096

  static package func memory(_ events: [Event]) -> EventStorage { EventStorage(events: events, file: nil) }

  static package func file(_ file: TraceLineFile, offsets: [Int], lengths: [Int32]) -> EventStorage {
    EventStorage(events: [], file: file)
  }

  private init(events: [Event], file: TraceLineFile?) {
    self.events = events
    self.file = file
  }

  package func append(_ event: Event) { events.append(event) }

  package func appendLocation(offset: Int, length: Int) {
    offsets.append(offset)
    lengths.append(Int32(truncatingIfNeeded: length))
  }

  package func event(at index: Int) -> Event {
    guard let file else { return events[index] }
    if let cached = cache[index] { return cached }
    let bytes = file.read(offset: offsets[index], length: Int(lengths[index]))
    // The line decoded when the trace was indexed; a file changed since then reads as a mark.
    let event = (try? Event(jsonText: bytes)) ?? Event(seq: 0, time: 0, payload: .mark(Mark(label: "<the trace file changed>")))
    if cache.count >= Self.cacheLimit { cache.removeAll(keepingCapacity: true) }
    cache[index] = event
    return event
  }

  package func json(at index: Int) -> JSON {
    if let file {
      let bytes = file.read(offset: offsets[index], length: Int(lengths[index]))
      if let json = try? JSONParser.parse(bytes) { return json }
    }
    return event(at: index).json
  }
}
