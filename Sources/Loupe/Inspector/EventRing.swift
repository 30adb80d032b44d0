/// A fixed-capacity FIFO of events: appending to a full ring evicts the oldest.
///
/// The hub keeps the session's recent events in one (for `history: true`); each client's
/// queue is one too (where a full queue refuses new events instead, see ``ClientQueue``).
/// The ring also adds up the events' sizes (``Event/approximateBytes``, or what the caller
/// passes), so that its owner can bound it by bytes as well as by count.
struct EventRing: Sendable {
  private var storage: [Event?]
  private var sizes: [Int]
  private var head = 0
  private(set) var count = 0
  /// The sizes of the events held, added up.
  private(set) var bytes = 0

  init(capacity: Int) {
    storage = Array(repeating: nil, count: max(1, capacity))
    sizes = Array(repeating: 0, count: max(1, capacity))
  }

  var capacity: Int { storage.count }
  var isEmpty: Bool { count == 0 }
  var isFull: Bool { count == storage.count }

  /// Appends `event` (of `size` bytes); returns the oldest event if it had to be evicted.
  @discardableResult
  mutating func append(_ event: Event, size: Int? = nil) -> Event? {
    let size = size ?? event.approximateBytes
    var evicted: Event?
    if count == storage.count { evicted = removeOldest() }
    let index = (head + count) % storage.count
    storage[index] = event
    sizes[index] = size
    count += 1
    bytes += size
    return evicted
  }

  /// Removes and returns the oldest event.
  @discardableResult
  mutating func removeOldest() -> Event? {
    guard count > 0 else { return nil }
    let event = storage[head]
    storage[head] = nil
    bytes -= sizes[head]
    head = (head + 1) % storage.count
    count -= 1
    return event
  }

  /// Removes and returns up to `limit` of the oldest events.
  mutating func removeFirst(upTo limit: Int) -> [Event] {
    let taken = min(limit, count)
    var events: [Event] = []
    events.reserveCapacity(taken)
    for _ in 0..<taken { events.append(removeOldest()!) }
    return events
  }

  mutating func removeAll() {
    storage = Array(repeating: nil, count: storage.count)
    sizes = Array(repeating: 0, count: storage.count)
    head = 0
    count = 0
    bytes = 0
  }

  /// The buffered events, oldest first.
  var elements: [Event] {
    (0..<count).map { storage[(head + $0) % storage.count]! }
  }
}
