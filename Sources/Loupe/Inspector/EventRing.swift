/// A fixed-capacity FIFO of events: appending to a full ring evicts the oldest.
///
/// The hub keeps the session's recent events in one (for `history: true`); each client's
/// queue is one too (where a full queue refuses new events instead, see ``ClientQueue``).
struct EventRing: Sendable {
  private var storage: [Event?]
  private var head = 0
  private(set) var count = 0

  init(capacity: Int) {
    storage = Array(repeating: nil, count: max(1, capacity))
  }

  var capacity: Int { storage.count }
  var isEmpty: Bool { count == 0 }
  var isFull: Bool { count == storage.count }

  /// Appends `event`; returns the oldest event if it had to be evicted.
  @discardableResult
  mutating func append(_ event: Event) -> Event? {
    if count == storage.count {
      let evicted = storage[head]
      storage[head] = event
      head = (head + 1) % storage.count
      return evicted
    }
    storage[(head + count) % storage.count] = event
    count += 1
    return nil
  }

  /// Removes and returns up to `limit` of the oldest events.
  mutating func removeFirst(upTo limit: Int) -> [Event] {
    let taken = min(limit, count)
    var events: [Event] = []
    events.reserveCapacity(taken)
    for _ in 0..<taken {
      events.append(storage[head]!)
      storage[head] = nil
      head = (head + 1) % storage.count
    }
    count -= taken
    return events
  }

  mutating func removeAll() {
    storage = Array(repeating: nil, count: storage.count)
    head = 0
    count = 0
  }

  /// The buffered events, oldest first.
  var elements: [Event] {
    (0..<count).map { storage[(head + $0) % storage.count]! }
  }
}
