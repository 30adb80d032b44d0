import LoupeCore
import LoupeSession

/// Which `loupe doctor` finding each event shows, for the exception breakpoint filters: the
/// doctor's own rules (``Doctor/signals(adding:)``), fed the session's events in order, once,
/// as far as the view has gone.
///
/// `effect-never-ended` has no single event (it is about the end of a trace) and is not a
/// filter. `identity-churn` stops at each replacement of a live identity (the doctor reports
/// churn once a store has had ``Doctor/identityChurnThreshold`` of them).
struct DoctorSignals {
  static let crossStoreCancellation = Doctor.Signal.crossStoreCancellation
  static let effectOutlivedStore = Doctor.Signal.effectOutlivedStore
  static let identityChurn = Doctor.Signal.identityChurn
  static let derivedUnchanged = Doctor.Signal.derivedUnchanged
  static let droppedEvents = Doctor.Signal.droppedEvents
  static let sendToEndedStore = Doctor.Signal.sendToEndedStore
  /// Every `warning` event, whatever its code.
  static let warning = Doctor.Signal.warning

  private var doctor = Doctor()
  /// The codes of the events fed so far that show any, by position.
  private var shown: [Int: [String]] = [:]
  /// How many of the model's events the doctor has been fed.
  private var fed = 0
  private var model: ObjectIdentifier?

  /// The filter codes the event at `index` of `model` shows.
  mutating func codes(at index: Int, in model: SessionModel) -> [String] {
    if self.model != ObjectIdentifier(model) { self = DoctorSignals(model: ObjectIdentifier(model)) }
    while fed <= index {
      // State changes (most events) matter to no rule: counted, not read back.
      if model.kind(at: fed) == .change {
        doctor.skip(seq: model.seq(at: fed))
      } else {
        let codes = doctor.signals(adding: model.event(at: fed))
        if !codes.isEmpty { shown[fed] = codes }
      }
      fed += 1
    }
    return shown[index] ?? []
  }

  private init(model: ObjectIdentifier) { self.model = model }
  init() {}
}
