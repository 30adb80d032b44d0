/// The hub's record of the session's recent events: an append-only sequence of positions
/// (0, 1, 2, … in the order the hub received them) stored in fixed-size segments.
///
/// The program's emit path appends one event in O(1) (a new segment every
/// ``segmentCapacity`` events). Clients never copy or filter the log under the hub's lock:
/// they take a ``EventLogSnapshot`` in O(1) — the segment array is copy-on-write and a slot is
/// never written twice — then read and filter it on their own threads. A snapshot keeps its
/// segments alive after the log has evicted them, so a history replay never loses what it was
/// promised; a client holds one only while it has unread events in it.
struct EventLog {
  static let segmentCapacity = 256

  /// Oldest first; segment `i + 1` starts where segment `i` ends.
  private(set) var segments: [EventSegment] = []
  /// The position of the oldest event kept (positions before it were evicted).
  private(set) var first = 0
  /// The position the next event gets.
  private(set) var end = 0
  /// Events evicted since the session started, as the `dropped` event that reports them.
  private(set) var evicted: LostEvents?

  let capacity: Int
  let byteLimit: Int
  /// A segment is closed early past this many bytes, so that the evicted events a segment
  /// still holds (until all of it is evicted) stay a small part of ``byteLimit``.
  private let segmentByteLimit: Int

  init(capacity: Int, byteLimit: Int) {
    self.capacity = max(1, capacity)
    self.byteLimit = max(1, byteLimit)
    segmentByteLimit = max(1, self.byteLimit / 32)
  }

  var count: Int { end - first }
  /// The bytes of the events kept (``Event/approximateBytes``).
  /// O(1): the oldest kept event is always in the first segment.
  var bytes: Int { end == first ? 0 : totalBytes - segments[0].bytesBefore(first) }

  /// Appends `event` (of `size` bytes), then evicts the oldest events past the count and byte
  /// limits (the newest is always kept). O(1), amortized over a segment.
  mutating func append(_ event: consuming Event, size: Int) {
    if segments.last.map({ $0.isFull || $0.bytes >= segmentByteLimit }) ?? true {
      segments.append(EventSegment(start: end, capacity: Self.segmentCapacity, bytesBefore: totalBytes))
    }
    segments[segments.count - 1].append(event, size: size)
    end += 1
    totalBytes += size
    while count > capacity || (count > 1 && bytes > byteLimit) { evictOldest() }
  }

  /// Bytes of every event ever appended.
  private var totalBytes = 0

  private mutating func evictOldest() {
    let old = segments[0].event(at: first)
    evicted = LostEvents(count: (evicted?.count ?? 0) + 1, lastSeq: old.seq, lastTime: old.time)
    first += 1
    if first == segments[0].end, segments.count > 1 { segments.removeFirst() }
  }

  /// The kept events, in O(1).
  var snapshot: EventLogSnapshot { EventLogSnapshot(segments: segments, first: first, end: end, totalBytes: totalBytes) }
}

/// The events of an ``EventLog`` from ``first`` to ``end`` as they were when it was taken:
/// safe to read on any thread, without a lock.
struct EventLogSnapshot: Sendable {
  let segments: [EventSegment]
  let first: Int
  let end: Int
  fileprivate let totalBytes: Int

  var count: Int { end - first }

  /// The event at `position` (`first ..< end`).
  func event(at position: Int) -> Event {
    segments[Self.segmentIndex(of: position, in: segments)].event(at: position)
  }

  /// The bytes of the events from `position` to ``end``.
  func bytes(from position: Int) -> Int {
    guard position < end else { return 0 }
    return totalBytes - segments[Self.segmentIndex(of: position, in: segments)].bytesBefore(position)
  }

  /// The first position from which the events up to ``end`` hold at most `limit` bytes (at
  /// least the newest is kept): a binary search, on the reader's thread.
  func start(keepingAtMost limit: Int, from position: Int) -> Int {
    var low = max(position, first)
    var high = max(low, end - 1)
    while low < high {
      let middle = (low + high) / 2
      if bytes(from: middle) <= limit { high = middle } else { low = middle + 1 }
    }
    return low
  }

  static func segmentIndex(of position: Int, in segments: [EventSegment]) -> Int {
    var low = 0
    var high = segments.count - 1
    while low < high {
      let middle = (low + high + 1) / 2
      if segments[middle].start <= position { low = middle } else { high = middle - 1 }
    }
    return low
  }
}

/// Up to `capacity` consecutive events of the log, each written once.
///
/// Only the hub writes, under its lock, and only to the slot after the last one written;
/// readers read slots before the `end` of a snapshot they took under that lock, which orders
/// those writes before their reads. Slots are never written again nor freed before the
/// segment is, so reading them needs no lock.
final class EventSegment: @unchecked Sendable {
  // Unchecked: see above. `count` and `bytes` are touched only under the hub's lock.
  let start: Int
  let capacity: Int
  private let slots: UnsafeMutablePointer<Event>
  /// Bytes of all events of the log before each slot (for byte bounds in O(1)).
  private let bytesBeforeSlot: UnsafeMutablePointer<Int>
  private var count = 0
  private let bytesBeforeStart: Int
  private(set) var bytes = 0

  init(start: Int, capacity: Int, bytesBefore: Int) {
    self.start = start
    self.capacity = capacity
    bytesBeforeStart = bytesBefore
    slots = .allocate(capacity: capacity)
    bytesBeforeSlot = .allocate(capacity: capacity)
  }

  var isFull: Bool { count == capacity }
  /// The position after the last event written (while the hub's lock is held).
  var end: Int { start + count }

  func append(_ event: consuming Event, size: Int) {
    (slots + count).initialize(to: event)
    bytesBeforeSlot[count] = bytesBeforeStart + bytes
    count += 1
    bytes += size
  }

  func event(at position: Int) -> Event { slots[position - start] }
  func bytesBefore(_ position: Int) -> Int { bytesBeforeSlot[position - start] }

  deinit {
    slots.deinitialize(count: count)
    slots.deallocate()
    bytesBeforeSlot.deallocate()
  }
}
