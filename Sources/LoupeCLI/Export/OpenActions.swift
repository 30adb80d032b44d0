/// The action each store is processing, for exporters that write an action once they know
/// everything it caused.
///
/// A store's action stays open from its `action.received` until the store's next action, the
/// store's end or the end of the trace; events caused by it meanwhile (state changes, effects
/// started, derived recomputations, cancellations) extend its end and may add to its `info`.
/// Memory is bounded by the number of stores, not events.
struct OpenActions<Info> {
  struct Action {
    var seq: Int
    var store: String
    /// Milliseconds, as in the trace.
    var start: Double
    /// The time of the last event it caused (its start when none).
    var end: Double
    var info: Info
  }

  private var byStore: [String: Action] = [:]
  private var storeOfSeq: [Int: String] = [:]
  /// The `seq` of the action received last.
  private var latest: Int?

  /// Opens `seq` for `store`, returning the store's action it closes, if any.
  mutating func open(seq: Int, store: String, time: Double, info: Info) -> Action? {
    let closed = close(store: store, at: time)
    byStore[store] = Action(seq: seq, store: store, start: time, end: time, info: info)
    storeOfSeq[seq] = store
    latest = seq
    return closed
  }

  /// Changes the open action `seq` (an event it caused, at `time`); false when it isn't open.
  @discardableResult
  mutating func update(_ seq: Int, causedAt time: Double, _ body: (inout Action) -> Void = { _ in }) -> Bool {
    guard let store = storeOfSeq[seq], var action = byStore[store], action.seq == seq else { return false }
    action.end = max(action.end, time)
    body(&action)
    byStore[store] = action
    return true
  }

  /// Changes the action received last, if it is still open; false when it isn't.
  mutating func updateLatest(_ body: (inout Action) -> Void) -> Bool {
    guard let latest, let store = storeOfSeq[latest], var action = byStore[store], action.seq == latest else { return false }
    body(&action)
    byStore[store] = action
    return true
  }

  /// Changes `store`'s open action, if it has one; false when it hasn't.
  mutating func updateOpen(in store: String, _ body: (inout Action) -> Void) -> Bool {
    guard var action = byStore[store] else { return false }
    body(&action)
    byStore[store] = action
    return true
  }

  /// Closes `store`'s action; its end is kept before `time` (the next action's start).
  mutating func close(store: String, at time: Double? = nil) -> Action? {
    guard var action = byStore.removeValue(forKey: store) else { return nil }
    storeOfSeq[action.seq] = nil
    if let time { action.end = max(action.start, min(action.end, time)) }
    return action
  }

  /// Closes every open action, in `seq` order.
  mutating func closeAll() -> [Action] {
    defer {
      byStore.removeAll()
      storeOfSeq.removeAll()
    }
    return byStore.values.sorted { $0.seq < $1.seq }
  }
}
