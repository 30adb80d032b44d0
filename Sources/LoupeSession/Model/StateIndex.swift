import LoupeCore
/// Where each root store's snapshots and changes are, and checkpoints of states already
/// rebuilt, so a state at any event is its root's last snapshot (or a checkpoint after it)
/// with at most the changes since applied: usually at most
/// ``StateRebuilder/checkpointSpacing`` of them, never more than the store's snapshot policy
/// allows (CONTRACT §10).
///
/// Positions are whatever the owner numbers its events by, in `seq` order: ``SessionModel``
/// uses its event positions, ``TraceStateIndex`` the positions of the state events it keeps.
/// The owner reads an event back by its position when a rebuild needs it.
package struct StateIndex {
  package struct Root {
    /// Positions of the root's `state.snapshot` events.
    package var snapshots: [Int32] = []
    /// Positions of the `state.changed` events of the root and its scoped stores.
    package var changes: [Int32] = []
    /// States already rebuilt: from the snapshot numbered `base` (-1: none) with
    /// `changes[..<applied]` applied.
    package var checkpoints: [(base: Int, applied: Int, state: RebuiltState)] = []
  }

  package var roots: [String: Root] = [:]

  mutating package func add(_ event: Event, at index: Int) {
    if let snapshot = StateRebuilder.snapshot(in: event) {
      add(snapshotOf: StateRebuilder.rootStore(of: snapshot.store), at: index)
    } else if case .stateChanged(let e) = event.payload {
      add(changeOf: StateRebuilder.rootStore(of: e.store), at: index)
    }
  }

  mutating package func add(snapshotOf root: String, at index: Int) {
    roots[root, default: Root()].snapshots.append(Int32(index))
  }

  mutating package func add(changeOf root: String, at index: Int) {
    roots[root, default: Root()].changes.append(Int32(index))
  }

  /// The position of `root`'s last snapshot at or before `index`.
  package func lastSnapshot(of root: String, atOrBefore index: Int) -> Int? {
    guard let list = roots[root]?.snapshots, let position = Self.lastPosition(in: list, atOrBefore: index) else { return nil }
    return Int(list[position])
  }

  /// The state of root store `rootID` right after the event at `index`; `nil` when nothing of
  /// it is known by then. `event` reads an event back by its position (`nil`: unreadable).
  mutating package func rootState(_ rootID: String, at index: Int, event: (Int) -> Event?) -> RebuiltState? {
    guard let root = roots[rootID] else { return nil }
    let snapshot = Self.lastPosition(in: root.snapshots, atOrBefore: index)
    let base = snapshot ?? -1
    // Changes after the snapshot and up to `index`: positions [first, end) in `root.changes`.
    let first = snapshot.map { Self.firstPosition(in: root.changes, after: Int(root.snapshots[$0])) } ?? 0
    let end = Self.firstPosition(in: root.changes, after: index)
    var state: RebuiltState
    var applied: Int
    if let checkpoint = root.checkpoints.last(where: { $0.base == base && $0.applied >= first && $0.applied <= end }) {
      (applied, state) = (checkpoint.applied, checkpoint.state)
    } else if let snapshot {
      guard let read = event(Int(root.snapshots[snapshot])), let event = StateRebuilder.snapshot(in: read) else { return nil }
      state = RebuiltState(event)
      applied = first
    } else {
      guard end > 0 else { return nil }
      state = RebuiltState(value: .object([:]), approximate: true)
      applied = 0
    }
    while applied < end {
      if case .stateChanged(let e)? = event(Int(root.changes[applied]))?.payload {
        StateRebuilder.applyChanges(
          of: e, to: &state.value, approximate: &state.approximate, shape: &state.shape, placing: snapshot == nil)
      } else {
        state.approximate = true  // a change that could not be read back
      }
      applied += 1
      if applied % StateRebuilder.checkpointSpacing == 0 {
        remember(rootID, base: base, applied: applied, state)
      }
    }
    return state
  }

  private mutating func remember(_ rootID: String, base: Int, applied: Int, _ state: RebuiltState) {
    guard var root = roots[rootID], !root.checkpoints.contains(where: { $0.base == base && $0.applied == applied }) else { return }
    roots[rootID] = nil  // no second copy of the arrays while editing
    root.checkpoints.append((base, applied, state))
    root.checkpoints.sort { ($0.base, $0.applied) < ($1.base, $1.applied) }
    if root.checkpoints.count > StateRebuilder.checkpointLimit {
      // Thin out evenly: keep every other one.
      root.checkpoints = root.checkpoints.enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
    }
    roots[rootID] = root
  }

  // MARK: - Binary search over sorted positions

  /// How many of the sorted `list` are at or before `index`.
  static package func firstPosition<Position: BinaryInteger>(in list: [Position], after index: Int) -> Int {
    var low = 0
    var high = list.count
    while low < high {
      let mid = (low + high) / 2
      if Int(list[mid]) <= index { low = mid + 1 } else { high = mid }
    }
    return low
  }

  static package func lastPosition(in list: [Int32], atOrBefore index: Int) -> Int? {
    let position = firstPosition(in: list, after: index)
    return position > 0 ? position - 1 : nil
  }
}
