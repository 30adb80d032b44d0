/// Where each root store's snapshots and changes are, and checkpoints of states already
/// rebuilt, so a ``SessionModel`` answers a state at any event by applying at most the changes
/// since the last snapshot, and usually at most ``StateRebuilder/checkpointSpacing`` of them.
struct StateIndex {
  struct Root {
    /// Positions of the root's `state.snapshot` events.
    var snapshots: [Int32] = []
    /// Positions of the `state.changed` events of the root and its scoped stores.
    var changes: [Int32] = []
    /// States already rebuilt: from the snapshot numbered `base` (-1: none) with
    /// `changes[..<applied]` applied.
    var checkpoints: [(base: Int, applied: Int, state: RebuiltState)] = []
  }

  var roots: [String: Root] = [:]

  mutating func add(_ event: Event, at index: Int) {
    if let snapshot = StateRebuilder.snapshot(in: event) {
      roots[StateRebuilder.rootStore(of: snapshot.store), default: Root()].snapshots.append(Int32(index))
    } else if case .stateChanged(let e) = event.payload {
      roots[StateRebuilder.rootStore(of: e.store), default: Root()].changes.append(Int32(index))
    }
  }
}

extension SessionModel {
  /// The whole state of `store` right after the event at `index`, or `nil` when nothing of it
  /// is known yet (or the store's path is not in its root's state then).
  public func state(of store: String, at index: Int) -> RebuiltState? {
    let rootID = StateRebuilder.rootStore(of: store)
    guard let root = stateIndex.roots[rootID], let rootState = rootState(rootID, root, at: index) else { return nil }
    return StateRebuilder.scoped(rootState, store: store)
  }

  /// The state of `store` right after the event numbered `seq` (the last event before it when
  /// no event has that number), at `path` inside it.
  public func state(of store: String, atSeq seq: Int, path: StatePath = StatePath()) -> RebuiltState? {
    let end = firstIndex(atOrAfterSeq: seq)
    let index = end < count && entries[end].seq == seq ? end : end - 1
    guard index >= 0 else { return nil }
    return state(of: store, at: index)?.at(path)
  }

  /// The root stores with a snapshot or a change, sorted.
  public var rootStoresWithState: [String] { stateIndex.roots.keys.sorted() }

  /// The `seq` of the snapshot a state at `index` of `store` is rebuilt from, if any.
  public func snapshotSeq(of store: String, atOrBefore index: Int) -> Int? {
    guard let root = stateIndex.roots[StateRebuilder.rootStore(of: store)],
      let position = Self.lastPosition(in: root.snapshots, atOrBefore: index)
    else { return nil }
    return entries[Int(root.snapshots[position])].seq
  }

  private func rootState(_ rootID: String, _ root: StateIndex.Root, at index: Int) -> RebuiltState? {
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
      guard let event = StateRebuilder.snapshot(in: self.event(at: Int(root.snapshots[snapshot]))) else { return nil }
      state = RebuiltState(event)
      applied = first
    } else {
      guard end > 0 else { return nil }
      state = RebuiltState(value: .object([:]), approximate: true)
      applied = 0
    }
    while applied < end {
      if case .stateChanged(let e) = event(at: Int(root.changes[applied])).payload {
        StateRebuilder.applyChanges(
          of: e, to: &state.value, approximate: &state.approximate, shape: &state.shape, placing: snapshot == nil)
      }
      applied += 1
      if applied % StateRebuilder.checkpointSpacing == 0 {
        remember(rootID, base: base, applied: applied, state)
      }
    }
    return state
  }

  private func remember(_ rootID: String, base: Int, applied: Int, _ state: RebuiltState) {
    guard var root = stateIndex.roots[rootID], !root.checkpoints.contains(where: { $0.base == base && $0.applied == applied }) else { return }
    stateIndex.roots[rootID] = nil  // no second copy of the arrays while editing
    root.checkpoints.append((base, applied, state))
    root.checkpoints.sort { ($0.base, $0.applied) < ($1.base, $1.applied) }
    if root.checkpoints.count > StateRebuilder.checkpointLimit {
      // Thin out evenly: keep every other one.
      root.checkpoints = root.checkpoints.enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
    }
    stateIndex.roots[rootID] = root
  }

  static func lastPosition(in list: [Int32], atOrBefore index: Int) -> Int? {
    let position = firstPosition(in: list, after: index)
    return position > 0 ? position - 1 : nil
  }

  /// The member or element at `component` of `value`.
  public static func child(_ value: JSON, _ component: StatePath.Component) -> JSON? {
    switch component {
    case .field(let name), .key(let name):
      return value[name]
    case .index(let index):
      guard let array = value.arrayValue, array.indices.contains(index) else { return nil }
      return array[index]
    case .id(let id):
      return value.arrayValue?.first { $0["id"] == id }
    }
  }
}
