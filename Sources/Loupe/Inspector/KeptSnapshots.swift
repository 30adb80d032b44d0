import LoupeCore

/// For every live root store: its latest `state.snapshot` and the `state.changed` events of it
/// and its scoped stores since, each at its position in the hub's ``EventLog``.
///
/// The log evicts its oldest events; what is kept here survives that, so a history replay can
/// begin, for every live root store, with a snapshot the replay includes (CONTRACT §10) — the
/// root's latest one and its changes since, with their own `seq`s, ahead of the log's events —
/// and `loupe/state` with `at` can rebuild a state from before the log's oldest event. Nothing
/// here needs the program's thread: a late subscriber is served even while the main actor is
/// busy or gone (at exit).
///
/// Memory is bounded by the snapshot policy (``SnapshotPolicy``: a new snapshot lets go of
/// the changes before it, at the latest once they hold 1 MiB by default) and, whatever the
/// policy, by the log's byte limit: a root whose changes since its snapshot pass it is no
/// longer kept until its next snapshot. Every event kept is also (or was) in the log: keeping
/// it costs a reference, not a copy.
///
/// ``note(_:at:size:)`` runs on the program's thread under the hub's lock: O(1) per event.
struct KeptSnapshots: Sendable {
  struct Kept: Sendable {
    let position: Int
    let event: Event
  }

  struct Root: Sendable {
    var snapshot: Kept
    var changes: [Kept] = []
    /// The bytes of ``changes`` (``Event/approximateBytes``).
    var bytes = 0
  }

  private(set) var roots: [String: Root] = [:] {
    didSet { lastChanged = nil }
  }
  /// The store of the last `state.changed` kept and its root's place in ``roots``: a store's
  /// changes come in runs, and this spares the id's scan and its hash (valid until ``roots``
  /// gains or loses a root; a root's own changes move nothing).
  private var lastChanged: (store: String, index: Dictionary<String, Root>.Index)?
  /// The most bytes of changes kept per root.
  let byteLimit: Int

  init(byteLimit: Int) {
    self.byteLimit = byteLimit
  }

  /// Takes note of `event` (of `size` bytes) appended at `position`. Returns what it let go
  /// of, to be released after the hub's lock.
  mutating func note(_ event: Event, at position: Int, size: Int) -> Root? {
    switch event.payload {
    case .stateSnapshot(let snapshot):
      return roots.updateValue(Root(snapshot: Kept(position: position, event: event)), forKey: snapshot.store)
    case .stateChanged(let changed):
      // Most programs keep no snapshot (none asked for, or the root not yet snapshotted):
      // then nothing to look up. Else one lookup by the root's id.
      guard !roots.isEmpty else { return nil }
      let index: Dictionary<String, Root>.Index
      if let last = lastChanged, last.store == changed.store {
        index = last.index
      } else {
        guard let found = roots.index(forKey: StateRebuilder.rootStore(of: changed.store)) else { return nil }
        index = found
      }
      // One access in place: each read of `roots.values[index]` apart would copy the root.
      let limit = byteLimit
      func keep(_ root: inout Root) -> Bool {
        root.changes.append(Kept(position: position, event: event))
        root.bytes += size
        return root.bytes > limit
      }
      guard keep(&roots.values[index]) else {
        lastChanged = (changed.store, index)
        return nil
      }
      return roots.remove(at: index).value
    case .storeDestroyed(let destroyed) where !destroyed.store.contains("/"):
      return roots.removeValue(forKey: destroyed.store)
    default:
      return nil
    }
  }
}

extension KeptSnapshots {
  /// What a history replay of `log` sends before the log's oldest event: the kept snapshots
  /// and changes the log has evicted, in log order, and in each gap between them (and the log)
  /// a `dropped` event counting what is lost there, with the `seq` of the last event lost (its
  /// `time` is that of the next event kept, or the eviction's own for the last gap). Empty
  /// when the log evicted nothing kept here (then the loss is reported as before).
  func prelude(before log: EventLogSnapshot, evicted: LostEvents?) -> [Event] {
    var kept: [Kept] = []
    for root in roots.values where root.snapshot.position < log.first {
      kept.append(root.snapshot)
      for change in root.changes where change.position < log.first { kept.append(change) }
    }
    guard !kept.isEmpty else { return [] }
    kept.sort { $0.position < $1.position }
    var prelude: [Event] = []
    prelude.reserveCapacity(kept.count * 2 + 1)
    var next = 0  // the first position not accounted for
    for item in kept {
      if item.position > next {
        let lost = LostEvents(count: item.position - next, lastSeq: item.event.seq - 1, lastTime: item.event.time)
        prelude.append(lost.event)
      }
      prelude.append(item.event)
      next = item.position + 1
    }
    if log.first > next, let evicted {
      let lost = LostEvents(count: log.first - next, lastSeq: evicted.lastSeq, lastTime: evicted.lastTime)
      prelude.append(lost.event)
    }
    return prelude
  }
}
