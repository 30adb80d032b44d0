extension Event {
  /// About how many bytes this event holds in memory: its strings, its JSON values and a
  /// fixed overhead per part. The inspector's buffers are bounded by this as well as by a
  /// count of events, so that large events (a whole state inserted at a new identity, a long
  /// list rendered in a change) cannot make them grow beyond their byte budgets.
  ///
  /// O(number of values), not of bytes: a native string knows its UTF-8 length.
  var approximateBytes: Int {
    typealias M = EventMemory
    switch payload {
    case .sessionStarted(let e): return M.event + M.size(e.program) + M.size(e.startedAt)
    case .storeCreated(let e): return M.event + M.size(e.store) + M.size(e.type) + M.size(e.parent) + M.size(e.identity)
    case .storeDestroyed(let e): return M.event + M.size(e.store) + M.size(e.identity)
    case .identityChanged(let e): return M.event + M.size(e.store) + M.size(e.identity) + M.size(e.previous)
    case .actionReceived(let e): return M.event + M.size(e.store) + M.size(e.action) + M.size(e.value)
    case .stateChanged(let e):
      // The changes read where they lie: a `for` loop copies each one out (retains and
      // releases of its strings and values; this runs on the program's thread per event).
      return e.changes.withUnsafeBufferPointer { changes in
        var total = M.event + M.size(e.store) + M.size(e.summary) + M.container
        for index in changes.indices {
          total += M.change + M.size(changes[index].path) + M.size(changes[index].old) + M.size(changes[index].new)
        }
        return total
      }
    case .stateSnapshot(let e): return M.event + M.size(e.store) + M.size(e.state)
    case .effectStarted(let e): return M.event + M.size(e.store) + M.size(e.cancelID)
    case .effectFinished(let e): return M.event + M.size(e.store) + M.size(e.error)
    case .effectCancelled(let e): return M.event + M.size(e.store) + M.size(e.cancelID) + M.size(e.by?.store)
    case .derivedRecomputed(let e): return M.event + M.size(e.store) + M.size(e.derived)
    case .mark(let e): return M.event + M.size(e.label)
    case .dropped: return M.event
    case .warning(let e): return M.event + M.size(e.code) + M.size(e.message) + M.size(e.store)
    case .unknown(let kind, let fields): return M.event + M.size(kind) + M.size(.object(fields))
    }
  }
}

/// The overheads ``Event/approximateBytes`` counts.
///
/// Measured against real memory (peak RSS of a program whose trace file stalls, with 4 kB
/// values: `Benchmarks/scripts/record_queue_memory.py`): a string's heap storage is its bytes
/// plus a 32-byte header, a terminating NUL and malloc's own header and rounding (16 more on
/// average), and an event's payload lives in a box of its own; the figures below include that.
enum EventMemory {
  static let event = 128
  static let change = 64
  static let container = 32
  static let value = 24

  /// A string's bytes: small ones (up to 15 UTF-8 bytes) live inside the value itself.
  static func size(_ string: String) -> Int {
    let count = string.utf8.count
    return count > 15 ? count + 48 : 0
  }

  static func size(_ string: String?) -> Int {
    string.map(size) ?? 0
  }

  /// An absent value holds nothing.
  static func size(_ json: JSON?) -> Int {
    guard let json else { return 0 }
    return size(json)
  }

  static func size(_ json: JSON) -> Int {
    switch json {
    case .null, .bool, .int, .double: return value
    case .string(let s): return value + size(s)
    // Elements and members read in place (a `for` loop copies each one out).
    case .array(let elements):
      return elements.withUnsafeBufferPointer { elements in
        var total = value + container
        for index in elements.indices { total += size(elements[index]) }
        return total
      }
    case .object(let object):
      return object.members.withUnsafeBufferPointer { members in
        var total = value + container
        for index in members.indices { total += size(members[index].key) + size(members[index].value) }
        return total
      }
    }
  }
}
