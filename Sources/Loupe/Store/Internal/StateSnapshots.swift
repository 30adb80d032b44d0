/// A root store's `state.snapshot` bookkeeping (CONTRACT §10, ``SnapshotPolicy``): what was
/// processed since its last snapshot.
struct SnapshotSchedule {
  /// ``EventBus/attachmentCount`` when the last snapshot was emitted; `-1` before the first.
  var epoch = -1
  /// Actions processed since the last snapshot.
  var actions = 0
  /// Bytes of changes reported since the last snapshot (``EventMemory/size(of:)``).
  var bytes = 0
}

extension RuntimeBase {
  /// Emits the root store's whole state as a `state.snapshot`; `cause` is the action after
  /// which it is taken (`nil` for the initial state, or a store's first snapshot for a sink
  /// attached after it was created).
  func emitSnapshot(cause: Int?) {
    let (state, shape) = ValueRenderer.renderWithShape(rootStateBox, options: bus.renderOptions)
    snapshots = SnapshotSchedule(epoch: bus.attachmentCount)
    bus.emit(.stateSnapshot(StateSnapshot(
      store: root.id, cause: cause, state: state, truncated: RenderMarker.showsCut(state), shape: shape.nonEmpty)))
  }

  /// Before an action is reported (with a sink attached): a snapshot first when a sink was
  /// attached since the last one (or there was none), so every sink can rebuild the states.
  func snapshotIfMissed() {
    guard snapshots.epoch < bus.attachmentCount, bus.snapshotPolicy.isEnabled else { return }
    emitSnapshot(cause: nil)
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
    // Read where they lie: a `for` loop copies each change out (a retain and a release of
    // each string and value; this runs on the program's thread after every recorded action).
    changes.withUnsafeBufferPointer { changes in
      var total = 0
      for index in changes.indices {
        total += Self.change + size(changes[index].path) + size(changes[index].old) + size(changes[index].new)
      }
      return total
    }
  }
}
