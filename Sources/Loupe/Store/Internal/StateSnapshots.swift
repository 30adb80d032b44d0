/// A root store's `state.snapshot` bookkeeping (CONTRACT §10, ``SnapshotPolicy``): what was
/// processed since its last snapshot, and what the next one can be derived from.
struct SnapshotSchedule {
  /// ``EventBus/attachmentCount`` when the last snapshot was emitted; `-1` before the first.
  var epoch = -1
  /// Actions processed since the last snapshot.
  var actions = 0
  /// Bytes of changes reported since the last snapshot (``EventMemory/size(of:)``).
  var bytes = 0
  /// The last snapshot, when the next may be derived from it: it, or the one it was derived
  /// from, was rendered without a cap cutting it short.
  var base: StateSnapshot?
  /// About how many bytes ``base``'s state holds.
  var baseBytes = 0
  /// The `state.changed` events of the root and its scoped stores since ``base``, in order;
  /// `nil` once one was cut short by a cap (the next snapshot is rendered).
  var changes: [StateChanged]? = []
  /// Snapshots derived in a row since the last one rendered.
  var derived = 0
}

extension RuntimeBase {
  /// At most this many snapshots in a row are derived from the one before; the next is rendered
  /// from the state again, so a derived state never drifts far from the real one.
  static let derivedSnapshotsInARow = 7

  /// Emits the root store's whole state as a `state.snapshot`; `cause` is the action after
  /// which it is taken (`nil` for the initial state, or a store's first snapshot for a sink
  /// attached after it was created).
  ///
  /// A periodic snapshot (`cause` set) is usually derived, not rendered: the last snapshot
  /// with the changes reported since applied (the rebuilding rule readers use), worked out by
  /// whoever reads it first, on their own thread (``DeferredState``). The program's thread only
  /// emits the event. The state is rendered here instead for the first snapshot, after a change
  /// cut short by a cap, after a snapshot that was, and every ``derivedSnapshotsInARow`` + 1th.
  func emitSnapshot(cause: Int?) {
    let snapshot: StateSnapshot
    var next = SnapshotSchedule(epoch: bus.attachmentCount)
    if cause != nil, let base = snapshots.base, let changes = snapshots.changes, snapshots.derived < Self.derivedSnapshotsInARow {
      let estimate = snapshots.baseBytes + snapshots.bytes
      snapshot = StateSnapshot(
        store: root.id, cause: cause,
        deferred: DeferredState(estimatedBytes: estimate) {
          var state = base.state
          var approximate = base.truncated
          for change in changes { StateRebuilder.applyChanges(of: change, to: &state, approximate: &approximate) }
          return (state, approximate || RenderMarker.showsCut(state))
        })
      next.base = snapshot
      next.baseBytes = estimate
      next.derived = snapshots.derived + 1
    } else {
      let state = ValueRenderer.render(rootStateBox, options: bus.renderOptions)
      let truncated = RenderMarker.showsCut(state)
      snapshot = StateSnapshot(store: root.id, cause: cause, state: state, truncated: truncated)
      if !truncated {
        next.base = snapshot
        next.baseBytes = EventMemory.size(state)
      }
    }
    snapshots = next
    bus.emit(.stateSnapshot(snapshot))
  }

  /// Before an action is reported (with a sink attached): a snapshot first when a sink was
  /// attached since the last one (or there was none), so every sink can rebuild the states.
  func snapshotIfMissed() {
    guard snapshots.epoch < bus.attachmentCount, bus.snapshotPolicy.isEnabled else { return }
    emitSnapshot(cause: nil)
  }

  /// Keeps a `state.changed` just emitted, for the next snapshot to be derived from.
  func noteForSnapshot(_ event: StateChanged) {
    guard snapshots.base != nil, snapshots.changes != nil else { return }
    if event.changes.contains(where: \.truncated) {
      snapshots.changes = nil
    } else {
      snapshots.changes!.append(event)
    }
  }

  /// After an action's `state.changed` events (with a sink attached): counts the action and
  /// the `bytes` its changes hold, and emits a snapshot when the policy says it is due.
  func countForSnapshot(action seq: Int, bytes: Int) {
    snapshots.actions += 1
    snapshots.bytes += bytes
    let policy = bus.snapshotPolicy
    guard policy.isEnabled else { return }
    if (policy.actions > 0 && snapshots.actions >= policy.actions) || (policy.bytes > 0 && snapshots.bytes >= policy.bytes) {
      emitSnapshot(cause: seq)
    }
  }
}

extension EventMemory {
  /// The bytes `changes` hold, as ``Event/approximateBytes`` counts them in a `state.changed`.
  static func size(of changes: [Change]) -> Int {
    var total = 0
    for change in changes {
      total += Self.change + size(change.path)
      if let old = change.old { total += size(old) }
      if let new = change.new { total += size(new) }
    }
    return total
  }
}
