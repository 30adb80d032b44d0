/// The events a trace recorder (`LOUPE_RECORD`) has yet to write, bounded like a client's
/// queue: by a count of events and by their bytes (``Event/approximateBytes``), so that a
/// disk that does not keep up costs a bounded amount of memory however large the events are.
///
/// The batch the writer has taken counts against both bounds until it is written
/// (``recycle(_:)``): those events are still in memory, so a queue that refilled while a batch
/// was written would hold up to twice its budget.
///
/// An event that does not fit is dropped and counted; once there is room again (or when the
/// writer takes the queue) a `dropped {count}` event takes the place of the lost ones, with
/// the `seq` and `time` of the last of them. An empty queue takes an event of any size, so a
/// huge event is never refused for good.
///
/// A backlog is kept in segments of at most ``segmentLength`` events: it grows by a new
/// segment, never by moving the events already queued to a larger array (which a doubling
/// array does once or twice per event, ~90 instructions each on the program's thread, while
/// the writer waits for the disk or is not scheduled).
struct RecordQueue {
  let capacity: Int
  let byteCapacity: Int
  static let segmentLength = 1_024
  /// The full segments, oldest first; `events` is the one being filled.
  private(set) var full: [[Event]] = []
  private(set) var events: [Event] = []
  /// The sizes of `events`, added up.
  private(set) var bytes = 0
  private(set) var lost: LostEvents?
  /// The events (and their bytes) of the batch taken by the writer and not yet written.
  private(set) var inFlight = 0
  private(set) var inFlightBytes = 0
  /// The array of the last batch written, emptied, reused for the next events.
  private var spare: [Event] = []
  /// Batches larger than this (a burst) are not kept for reuse.
  static let largestSpare = 4_096

  init(capacity: Int, byteCapacity: Int) {
    self.capacity = max(1, capacity)
    self.byteCapacity = max(1, byteCapacity)
  }

  /// Whether there is nothing to write, not even a loss to report.
  var isEmpty: Bool { events.isEmpty && full.isEmpty && lost == nil }

  /// How many events are queued.
  var count: Int { full.count * Self.segmentLength + events.count }

  /// Whether at least `events` events or `bytes` bytes are queued, or a loss is waiting to be
  /// reported: enough for the writer to stop gathering a batch (``RecorderLinger``).
  func holds(events: Int, bytes: Int) -> Bool {
    count >= events || self.bytes >= bytes || lost != nil
  }

  /// Queues `event`, of `size` bytes, or counts it as lost. Returns whether the queue was
  /// empty before (the writer may be waiting).
  mutating func offer(_ event: consuming Event, size: Int) -> (queued: Bool, wasEmpty: Bool) {
    let wasEmpty = events.isEmpty && full.isEmpty
    let holding = !wasEmpty || inFlight > 0
    if count + inFlight >= capacity || (holding && bytes + inFlightBytes + size > byteCapacity) {
      lost = LostEvents(count: (lost?.count ?? 0) + 1, lastSeq: event.seq, lastTime: event.time)
      return (false, wasEmpty)
    }
    if let lost {
      let dropped = lost.event
      append(dropped)
      bytes += dropped.approximateBytes
      self.lost = nil
    }
    append(event)
    bytes += size
    return (true, wasEmpty)
  }

  private mutating func append(_ event: consuming Event) {
    if events.count == Self.segmentLength {
      full.append(events)
      events = []
      events.reserveCapacity(Self.segmentLength)
    }
    events.append(event)
  }

  /// Takes everything queued, in segments in order (the last maybe empty), with the `dropped`
  /// event for a loss not yet reported last.
  mutating func takeAll() -> [[Event]] {
    var batch = full
    batch.append(events)
    full = []
    events = spare
    spare = []
    inFlightBytes = bytes
    bytes = 0
    if let lost {
      batch[batch.count - 1].append(lost.event)
      self.lost = nil
    }
    inFlight = batch.reduce(0) { $0 + $1.count }
    return batch
  }

  /// Hands back a batch's segments once written: their events no longer count against the
  /// bounds, and the next events need no new array.
  mutating func recycle(_ batch: consuming [[Event]]) {
    inFlight = 0
    inFlightBytes = 0
    var batch = batch
    guard var last = batch.popLast(), last.capacity <= Self.largestSpare, spare.capacity < last.capacity else { return }
    last.removeAll(keepingCapacity: true)
    spare = last
  }
}
