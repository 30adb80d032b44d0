import LoupeCore

/// What one event shows of the doctor's findings, for a view that stops at events (the DAP's
/// exception filters): the same rules as the findings, asked as the event is added, with the
/// doctor's state of the events before it. A finding with a threshold (identity churn, derived
/// values recomputed for nothing) is shown at each event that counts towards it;
/// `effect-never-ended` and `derived-wide-input` are about the whole trace and no event
/// shows them.
extension Doctor {
  /// The codes an event shows: the findings' codes, and `warning` for every runtime warning.
  package enum Signal {
    package static let crossStoreCancellation = "effect-cancelled-by-another-store"
    package static let effectOutlivedStore = "effect-outlived-store"
    package static let identityChurn = "identity-churn"
    package static let derivedUnchanged = "derived-unchanged-output"
    package static let droppedEvents = "dropped-events"
    package static let sendToEndedStore = "send-to-ended-store"
    /// Every `warning` event, whatever its code.
    package static let warning = "warning"
  }

  /// Adds `event` (as ``add(_:)`` does) and returns the ``Signal`` codes it shows.
  mutating package func signals(adding event: Event) -> [String] {
    var codes: [String] = []
    switch event.payload {
    case .effectCancelled(let e):
      if Self.isCrossStoreCancellation(e) { codes = [Signal.crossStoreCancellation] }
    case .storeDestroyed(let e):
      // An effect of the store still running when it ends (the finding: and never ended after).
      if running.values.contains(where: { $0.store == e.store }) { codes = [Signal.effectOutlivedStore] }
    case .identityChanged(let e):
      if isReplacement(e, row: identities[e.store] ?? IdentityRow()) { codes = [Signal.identityChurn] }
    case .derivedRecomputed(let e):
      if !e.outputChanged { codes = [Signal.derivedUnchanged] }
    case .dropped:
      codes = [Signal.droppedEvents]
    case .warning(let e):
      codes = e.code == "sendToEndedStore" ? [Signal.warning, Signal.sendToEndedStore] : [Signal.warning]
    default:
      break
    }
    add(event)
    return codes
  }

  /// Whether an identity change replaces a live identity, which counts towards churn: replaced
  /// outright, or ended and begun again while handling one action. Presenting or inserting
  /// again after a dismissal by another action is the store's normal lifetime.
  func isReplacement(_ e: IdentityChanged, row: IdentityRow) -> Bool {
    switch e.reason {
    case .replaced: true
    case .created, .presented, .inserted: row.endedDuring != nil && row.endedDuring == currentAction
    case .dismissed, .removed: false
    }
  }
}
