import LoupeCore

/// Reading the state events back: each decoded (``event(at:)``), or, for a rebuild focused on
/// one store, the changes that land beside it only skimmed (``focusedState(_:at:_:)``).
extension TraceStateIndex {
  /// The event at `position`, decoded (from the line a focused rebuild skimmed last, when it is that one).
  func event(at position: Int) -> Event? {
    // Mostly `state.changed` lines: decoded the short way (the same event).
    let bytes = focused?.line(at: position) ?? file.read(offset: offsets[position], length: Int(lengths[position]))
    let event = try? Event.decoded(jsonText: bytes)
    if let event, let snapshot = StateRebuilder.snapshot(in: event) { lastSnapshotShape = (position, snapshot.shape) }
    return event
  }

  /// The state of root store `rootID` right after the event at `position`, right at least
  /// for `focus`'s store: the changes that land beside its scope are left out
  /// (``ScopeFocus``, ``FocusedChangeReader``). `nil` when a change read may rename an element
  /// on the scope's way (``ScopeFocus/mayRename(_:)``): the caller rebuilds it whole.
  func focusedState(_ rootID: String, at position: Int, _ focus: ScopeFocus) -> RebuiltState?? {
    let reader = FocusedChangeReader(focus) { self.file.read(offset: self.offsets[$0], length: Int(self.lengths[$0])) }
    focused = reader
    defer { focused = nil }
    let state = index.rootState(rootID, at: position, leavingOut: reader.leavesOut) { position in
      let event = self.event(at: position)
      reader.check(event)
      return event
    }
    changesLeftOut += reader.leftOut
    if reader.broken { return .none }
    return .some(state)
  }
}
