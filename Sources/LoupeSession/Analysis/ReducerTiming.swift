import LoupeCore

/// Reducer time, as `stats` reports it and `export` draws it.
///
/// An action's reducer time runs from its `action.received` to the first later event it
/// caused (its `state.changed`, an `effect.started` or `derived.recomputed` with its `cause`,
/// an `effect.cancelled` by it), provided no other action sent by the program or an effect
/// came in between. An action routed to a child (`origin: parent`) is part of its parent's
/// processing, so the first event it causes also ends the parent's measurement. That spans
/// the reducer and the state diff; an action that changes nothing and starts nothing has no
/// measurement.
package struct ReducerTiming<Info> {
  package struct Pending {
    package var seq: Int
    package var time: Double
    package var info: Info
  }

  package init() {}

  /// Actions being measured: those of the current processing (its root and routed children).
  private var pending: [Int: Pending] = [:]
  /// The last action sent by the program or an effect.
  private var root = 0

  /// An `action.received`. Returns the actions left without a measurement, because a new
  /// processing began.
  mutating package func received(seq: Int, time: Double, origin: ActionReceived.Origin, info: Info) -> [Pending] {
    var unmeasured: [Pending] = []
    if origin != .parent {
      unmeasured = pending.values.sorted { $0.seq < $1.seq }
      pending.removeAll(keepingCapacity: true)
      root = seq
    }
    pending[seq] = Pending(seq: seq, time: time, info: info)
    return unmeasured
  }

  /// An event caused by action `cause` at `time`: the actions whose measurement it ends.
  mutating package func caused(by cause: Int, at time: Double) -> [Pending] {
    // Only an action of the current processing (the root or a child it routed to) counts.
    guard let action = pending.removeValue(forKey: cause) else { return [] }
    var ended = [action]
    if cause != root, let parent = pending.removeValue(forKey: root) { ended.append(parent) }
    return ended
  }

  /// What is still unmeasured at the end.
  mutating package func finish() -> [Pending] {
    defer { pending.removeAll() }
    return pending.values.sorted { $0.seq < $1.seq }
  }

  /// The `cause` an event gives, if it ends reducer measurements: the `seq` it refers to
  /// (``Event/referencedSeq``), but for a `state.snapshot`, which the store takes after the
  /// reducer's work rather than as part of it.
  package static func cause(of event: Event) -> Int? {
    if case .stateSnapshot = event.payload { return nil }
    return event.referencedSeq
  }
}
