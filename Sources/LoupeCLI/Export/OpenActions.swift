import LoupeSession
/// The actions being processed, for exporters that write an action once they know
/// everything it caused.
///
/// An action stays open from its `action.received` until the next action sent by the program
/// or an effect (stores process one action at a time, on the main actor; an action a parent
/// routes to a child, origin `parent`, is part of its parent's processing and closes
/// nothing), its store's next action, its store's end or the end of the trace, as
/// ``ReducerTiming`` reads reducer time. Events caused by it meanwhile (state changes,
/// effects started, derived recomputations, cancellations) extend its end and may add to its
/// `info`. Memory is bounded by the actions of one processing, not by events or stores.
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

  /// Opens `seq` for `store`, returning the actions it closes, in `seq` order: every open one
  /// when `closesOthers` (a new processing), else the store's own.
  mutating func open(seq: Int, store: String, time: Double, closesOthers: Bool, info: Info) -> [Action] {
    var closed: [Action] = []
    if closesOthers {
      closed = closeAll(at: time)
    } else if let action = close(store: store, at: time) {
      closed = [action]
    }
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

  /// Closes every open action, in `seq` order, each ending before `time` when given.
  mutating func closeAll(at time: Double? = nil) -> [Action] {
    guard !byStore.isEmpty else { return [] }
    var closed = byStore.values.sorted { $0.seq < $1.seq }
    if let time {
      for index in closed.indices { closed[index].end = max(closed[index].start, min(closed[index].end, time)) }
    }
    byStore.removeAll(keepingCapacity: true)
    storeOfSeq.removeAll(keepingCapacity: true)
    return closed
  }
}
