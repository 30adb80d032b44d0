import LoupeCore
/// Where a ``SessionModel`` keeps its events: in memory, or in a trace file, read back by
/// offset when asked — a recording, or a live session's own recording while it is still being
/// written (memory then follows the index, not the events). Recently read or added events are
/// cached, so walking back and forth near one place reads each line once.
final package class EventStorage {
  // No dynamic exclusivity checks on what is read for every event: a storage belongs to one
  // session model, used from one thread at a time, and hands nothing out `inout`.
  @exclusivity(unchecked) private var events: [Event] = []
  /// The trace the events are in; `nil` for events kept in memory.
  private let path: String?
  /// Opened on the first read (a live session's file is still being written).
  @exclusivity(unchecked) private var file: TraceLineFile?
  /// Where each event's line is (file-backed), packed.
  @exclusivity(unchecked) private var locations = LineLocations()
  /// Events of a file-backed session that are not in its file (offset -1): the recording
  /// failed (a full disk), so they are kept here rather than lost.
  @exclusivity(unchecked) private var unwritten: [Int: Event] = [:]
  @exclusivity(unchecked) private var cache: [Int: Event] = [:]
  static package let cacheLimit = 4096

  static package func memory(_ events: [Event]) -> EventStorage { EventStorage(events: events, path: nil, file: nil, grows: false) }

  static package func file(_ file: TraceLineFile) -> EventStorage {
    EventStorage(events: [], path: file.path, file: file, grows: false)
  }

  /// Events in the trace at `path`, which is still being written: each is added with its
  /// line's location once that line is in the file.
  static package func growingFile(_ path: String) -> EventStorage {
    EventStorage(events: [], path: path, file: nil, grows: true)
  }

  /// Whether the file is still being written (a live session's recording).
  private let grows: Bool

  private init(events: [Event], path: String?, file: TraceLineFile?, grows: Bool) {
    self.grows = grows
    self.events = events
    self.path = path
    self.file = file
  }

  /// Whether the events are read back from a file.
  package var isFileBacked: Bool { path != nil }

  /// Adds the next event: at `location` in the file, or in memory (a session kept in memory,
  /// or an event its recording could not write).
  package func append(_ event: Event, at location: TraceLineLocation? = nil) {
    guard isFileBacked else { return events.append(event) }
    let index = locations.count
    if let location {
      appendLocation(offset: location.offset, length: location.length)
      remember(event, at: index)
    } else {
      appendLocation(offset: -1, length: 0)
      unwritten[index] = event
    }
  }

  package func appendLocation(offset: Int, length: Int) {
    locations.append(offset: offset, length: length)
  }

  /// The event at `index`; `remembering: false` for a reader going through many once (a state
  /// rebuilt from its changes), which would only churn the cache.
  package func event(at index: Int, remembering: Bool = true) -> Event {
    guard isFileBacked else { return events[index] }
    if !unwritten.isEmpty, let event = unwritten[index] { return event }
    if let cached = cache[index] { return cached }
    // The line decoded when it was indexed; a file changed since then reads as a mark.
    let event =
      line(at: index).flatMap { try? Event.decoded(jsonText: $0) }
      ?? Event(seq: 0, time: 0, payload: .mark(Mark(label: "<the trace file changed>")))
    if remembering { remember(event, at: index) }
    return event
  }

  package func json(at index: Int) -> JSON {
    if isFileBacked, unwritten.isEmpty || unwritten[index] == nil, let bytes = line(at: index), let json = try? JSONParser.parse(bytes) { return json }
    return event(at: index).json
  }

  /// Bytes the storage holds per event besides the cache: the locations (file-backed), or
  /// the array of events (in memory; their contents not counted).
  package var indexBytes: Int {
    locations.bytes + events.capacity * MemoryLayout<Event>.stride
  }

  /// Forgets the cached events (the next reads go to the file).
  package func dropCache() { cache.removeAll() }

  /// The event whose line is at `location` in the file, read and decoded (`nil`: unreadable).
  package func event(atLine location: TraceLineLocation) -> Event? {
    guard let bytes = read(location), bytes.count == location.length else { return nil }
    return try? Event(jsonText: bytes)
  }

  /// Whether the events are in a finished recording (``file(_:)``), a file that no longer grows.
  package var isFinishedFile: Bool { !grows && path != nil }

  /// Another reader of a finished recording's file, so that another thread may read its lines
  /// by their locations (``TraceLineFile/secondReader()``); `nil` otherwise.
  package func secondReaderOfFinishedTrace() -> TraceLineFile? {
    guard isFinishedFile else { return nil }
    if file == nil, let path { file = try? TraceLineFile(path: path) }
    return file?.secondReader()
  }

  /// Where the line of the event at `index` is in the file.
  package func location(at index: Int) -> TraceLineLocation {
    let location = locations.location(at: index)
    return TraceLineLocation(offset: location.offset, length: location.length)
  }

  /// The line of the event at `index`, read back (`nil`: it cannot be).
  package func line(at index: Int) -> [UInt8]? { read(location(at: index)) }

  /// The bytes at `location` in the file (opened on the first read).
  private func read(_ location: TraceLineLocation) -> [UInt8]? {
    if file == nil, let path { file = try? TraceLineFile(path: path) }
    return file?.read(offset: location.offset, length: location.length)
  }

  private func remember(_ event: Event, at index: Int) {
    if cache.count >= Self.cacheLimit { cache.removeAll(keepingCapacity: true) }
    cache[index] = event
  }
}
