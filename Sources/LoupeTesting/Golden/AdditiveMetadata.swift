import LoupeCore

/// The fields of events that only help readers render them — added to the format after
/// goldens were recorded — and how a golden-trace comparison treats them.
///
/// A golden pins behaviour: which actions, state changes and effects happened. Rendering
/// metadata is not behaviour, and a newer Loupe adds more of it; a golden recorded by an older
/// one must keep passing. So, field by field:
///
/// - `source` (CONTRACT §9) is never compared: ``TraceNormalizer`` leaves it out of both sides.
/// - `shape` (of `action.received` and `state.snapshot`) and `oldShape`/`newShape` (of a
///   `state.changed`'s changes) are compared only when the golden has them: a golden that
///   carries one of them in none of its events was written before it existed, and the
///   stream's are left out too. A golden that has it anywhere pins it everywhere.
///
/// A future field that is rendering metadata (it changes how a reader shows an event, not what
/// happened) joins this list when it is added to the format, so that upgrading never breaks a
/// golden. A field that says what happened (a new `reason`, an id) is behaviour, and is not
/// listed: an old golden that lacks it then fails, and is recorded anew.
enum AdditiveMetadata: CaseIterable {
  /// `shape` of `action.received` and `state.snapshot`.
  case shape
  /// `oldShape` and `newShape` of a `state.changed`'s changes.
  case changeShapes

  /// The fields of this list that no event of `golden` carries.
  static func absent(from golden: [Event]) -> Set<AdditiveMetadata> {
    Set(allCases.filter { field in !golden.contains(where: { field.isCarried(by: $0) }) })
  }

  /// `events` without the fields in `fields`.
  static func removing(_ fields: Set<AdditiveMetadata>, from events: [Event]) -> [Event] {
    guard !fields.isEmpty else { return events }
    return events.map { event in
      var event = event
      for field in fields { field.remove(from: &event) }
      return event
    }
  }

  private func isCarried(by event: Event) -> Bool {
    switch (self, event.payload) {
    case (.shape, .actionReceived(let e)): e.shape != nil
    case (.shape, .stateSnapshot(let e)): e.shape != nil
    case (.changeShapes, .stateChanged(let e)): e.changes.contains { $0.oldShape != nil || $0.newShape != nil }
    default: false
    }
  }

  private func remove(from event: inout Event) {
    switch (self, event.payload) {
    case (.shape, .actionReceived(var e)):
      e.shape = nil
      event.payload = .actionReceived(e)
    case (.shape, .stateSnapshot(var e)):
      e.shape = nil
      event.payload = .stateSnapshot(e)
    case (.changeShapes, .stateChanged(var e)):
      for index in e.changes.indices {
        e.changes[index].oldShape = nil
        e.changes[index].newShape = nil
      }
      event.payload = .stateChanged(e)
    default:
      break
    }
  }
}
