import LoupeCore
import LoupeSession

/// Which `loupe doctor` finding a single event shows, for the exception breakpoint filters:
/// the same rules and thresholds as ``Doctor``, asked of one event where the view can stop.
///
/// `effect-never-ended` has no single event (it is about the end of a trace) and is not a
/// filter. `identity-churn` stops at each replacement of a live identity (the doctor reports
/// churn once a store has had ``Doctor/identityChurnThreshold`` of them).
enum DoctorSignals {
  static let crossStoreCancellation = "effect-cancelled-by-another-store"
  static let effectOutlivedStore = "effect-outlived-store"
  static let identityChurn = "identity-churn"
  static let derivedUnchanged = "derived-unchanged-output"
  static let droppedEvents = "dropped-events"
  static let sendToEndedStore = "send-to-ended-store"
  /// Every `warning` event, whatever its code.
  static let warning = "warning"

  /// The filter codes the event at `index` shows.
  static func codes(at index: Int, in model: SessionModel) -> [String] {
    let event = model.event(at: index)
    switch event.payload {
    case .effectCancelled(let e):
      return Doctor.isCrossStoreCancellation(e) ? [crossStoreCancellation] : []
    case .storeDestroyed(let e):
      return model.runningEffects(of: e.store, at: index).isEmpty ? [] : [effectOutlivedStore]
    case .identityChanged(let e):
      // Each replacement of a live identity, which the doctor counts towards churn.
      return e.reason == .replaced || (e.previous != nil && e.reason != .dismissed && e.reason != .removed) ? [identityChurn] : []
    case .derivedRecomputed(let e):
      return e.outputChanged ? [] : [derivedUnchanged]
    case .dropped:
      return [droppedEvents]
    case .warning(let e):
      return e.code == "sendToEndedStore" ? [warning, sendToEndedStore] : [warning]
    default:
      return []
    }
  }
}
