import LoupeCore

/// Reading the state events back: each decoded (``event(at:)``), or, for a rebuild focused on
/// one store, the changes that land beside it only skimmed (``focusedState(_:at:_:)``).
extension TraceStateIndex {
  /// The event at `position`, decoded (from the line a focused rebuild skimmed last, when it is that one).
  func event(at position: Int) -> Event? {
    // Mostly `state.changed` lines: decoded the short way (the same event).
    let bytes: [UInt8]
    if let lastLine, lastLine.position == position {
      bytes = lastLine.bytes
    } else {
      bytes = file.read(offset: offsets[position], length: Int(lengths[position]))
    }
    lastLine = nil
    let event = try? Event.decoded(jsonText: bytes)
    if let event, let snapshot = StateRebuilder.snapshot(in: event) { lastSnapshotShape = (position, snapshot.shape) }
    return event
  }

  /// The state of root store `rootID` right after the event at `position`, right at least
  /// for `focus`'s store: the changes that land beside its scope are left out
  /// (``ScopeFocus``). `nil` when a change read may rename an element on the scope's way
  /// (``ScopeFocus/mayRename(_:)``): the caller rebuilds it whole.
  func focusedState(_ rootID: String, at position: Int, _ focus: ScopeFocus) -> RebuiltState?? {
    focusBroken = false
    let state = index.rootState(rootID, at: position, leavingOut: { self.leavesOut($0, $1, $2, focus) }) { position in
      let event = self.event(at: position)
      if !self.focusBroken, case .stateChanged(let e)? = event?.payload, focus.mayRename(e) { self.focusBroken = true }
      return event
    }
    if focusBroken { return .none }
    return .some(state)
  }

  /// Whether the change at `position` lands beside `focus`'s scope in `value`, the root's
  /// state (``ScopeFocus``), read from its line's `store` and paths (``StateChangeSkim``).
  /// Every change is, once the rebuild is known to be wasted (``focusBroken``).
  private func leavesOut(_ position: Int, _ value: JSON, _ directory: IDDirectory, _ focus: ScopeFocus) -> Bool {
    if focusBroken { return true }
    let bytes = file.read(offset: offsets[position], length: Int(lengths[position]))
    lastLine = (position, bytes)
    let leaves = bytes.withUnsafeBufferPointer { line in
      guard let store = StateChangeSkim.read(line, paths: &skimmedPaths) else { return false }
      switch focus.reach(ofStore: UnsafeBufferPointer(rebasing: line[store])) {
      case .reaches:
        return false
      case .beside(let depth, let element, let pathsMatter):
        if pathsMatter {
          for path in skimmedPaths where !ScopeFocus.pathLeavesIDAlone(UnsafeBufferPointer(rebasing: line[path])) { return false }
        }
        return focus.holdsSibling(value, depth: depth, element: element, directory: directory)
      }
    }
    if leaves { changesLeftOut += 1 }
    return leaves
  }
}
