import LoupeCore
extension SessionModel {
  /// The whole state of `store` right after the event at `index`, or `nil` when nothing of it
  /// is known yet (or the store's path is not in its root's state then).
  public func state(of store: String, at index: Int) -> RebuiltState? {
    let rootID = StateRebuilder.rootStore(of: store)
    guard let rootState = rootState(rootID, at: index) else { return nil }
    return StateRebuilder.scoped(rootState, store: store)
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
