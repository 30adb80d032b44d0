import LoupeCore
extension SessionModel {
  /// The whole state of `store` right after the event at `index`, or `nil` when nothing of it
  /// is known yet (or the store's path is not in its root's state then).
  ///
  /// A root without snapshots is rebuilt once from its start (CONTRACT §10). In a recording
  /// (``init(tracePath:)``), a question about one of its scoped stores far from any
  /// checkpoint (``focusingFrom`` changes or more) is answered by a rebuild focused on that
  /// store (``ScopeFocus``: the changes of other stores that land beside it are skimmed, not
  /// decoded), while the root is rebuilt whole on a thread of its own
  /// (``RootRebuildAside``); its checkpoints serve the questions after it. A question about
  /// the root itself, or one a focus cannot answer, waits for that rebuild.
  public func state(of store: String, at index: Int) -> RebuiltState? {
    let rootID = StateRebuilder.rootStore(of: store)
    adoptRebuildsAside(of: nil)
    if let focused = focusedState(of: store, rootID, at: index) { return focused }
    adoptRebuildsAside(of: rootID)
    guard let rootState = rootState(rootID, at: index) else { return nil }
    return StateRebuilder.scoped(rootState, store: store)
  }

  /// The state of scoped `store` right after the event at `index`, rebuilt focused on it while
  /// its root is rebuilt aside; `nil` when the question is not one for a focus (see
  /// ``state(of:at:)``) or a change on the way breaks it.
  private func focusedState(of store: String, _ rootID: String, at index: Int) -> RebuiltState?? {
    guard !rebuiltAside.contains(rootID), storage.isFinishedFile,
      let applying = stateIndex.changesToApplyWithoutSnapshot(rootID, at: index), applying >= focusingFrom,
      let focus = ScopeFocus(store: store)
    else { return nil }
    if rebuildsAside[rootID] == nil {
      // Without a second reader (no descriptor left), the root is rebuilt here, whole.
      guard let file = storage.secondReaderOfFinishedTrace() else { return nil }
      let count = stateIndex.changesBeforeFirstSnapshot(of: rootID)
      let positions = stateIndex.roots[rootID]?.changes.positions(in: 0..<count) ?? []
      rebuildsAside[rootID] = RootRebuildAside(
        root: rootID, file: file, lines: positions.map(storage.location(at:)), checkpointBudget: stateIndex.checkpointBudget)
    }
    // The index knows each change's store, and which changes it cannot leave out by it.
    let pinned = stateIndex.roots[rootID]?.pinned ?? PositionList()
    let reader = FocusedChangeReader(
      focus, reading: { self.storage.line(at: $0) },
      indexedStore: { position in
        guard pinned.first(after: position - 1) != position else { return nil }
        let code = self.storeCode(at: position)
        return code > 0 ? code : nil
      },
      storeName: { self.storeNames[$0 - 1] })
    let state = stateIndex.rootState(rootID, at: index, leavingOut: reader.leavesOut) { position in
      // What ``EventStorage/event(at:remembering:)`` decodes, from the line already skimmed.
      let event = reader.line(at: position).flatMap { try? Event.decoded(jsonText: $0) }
      reader.check(event)
      return event
    }
    if reader.broken { return nil }
    focusedAnswers += 1
    return .some(state.flatMap { StateRebuilder.scoped($0, store: store) })
  }

  /// Adopts the checkpoints of the rebuilds aside that are done (`root` `nil`), or waits for
  /// `root`'s (when one is under way) and adopts them.
  private func adoptRebuildsAside(of root: String?) {
    for (rootID, aside) in rebuildsAside where root == nil || rootID == root {
      guard let checkpoints = aside.checkpoints(waiting: root != nil) else { continue }
      rebuildsAside[rootID] = nil
      rebuiltAside.insert(rootID)
      stateIndex.adopt(checkpoints, of: rootID)
    }
  }

  /// Waits for every rebuild aside and adopts its checkpoints (tests).
  package func finishRebuildsAside() {
    for rootID in Array(rebuildsAside.keys) { adoptRebuildsAside(of: rootID) }
  }

  /// The state of `store` right after the event numbered `seq` (the last event before it when
  /// no event has that number), at `path` inside it.
  public func state(of store: String, atSeq seq: Int, path: StatePath = StatePath()) -> RebuiltState? {
    let end = firstIndex(atOrAfterSeq: seq)
    let index = end < count && self.seq(at: end) == seq ? end : end - 1
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
    return self.seq(at: Int(root.snapshots[position]))
  }

  private func rootState(_ rootID: String, at index: Int) -> RebuiltState? {
    stateIndex.rootState(rootID, at: index) { storage.event(at: $0, remembering: false) }
  }

  static package func lastPosition(in list: [Int32], atOrBefore index: Int) -> Int? {
    StateIndex.lastPosition(in: list, atOrBefore: index)
  }
}
