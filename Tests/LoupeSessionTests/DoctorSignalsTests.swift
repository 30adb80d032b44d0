import Testing
@testable import LoupeCore
@testable import LoupeSession

/// The codes each event shows for the DAP's exception filters come from the doctor's own
/// rules: an identity change counts as churn exactly when the doctor counts it.
@Suite struct DoctorSignalsTests {
  static func identity(_ seq: Int, _ identity: String, previous: String?, _ reason: IdentityChanged.Reason) -> Event {
    Event(seq: seq, time: 0, payload: .identityChanged(IdentityChanged(store: "App#1/detail", identity: identity, previous: previous, reason: reason)))
  }
  static func action(_ seq: Int) -> Event {
    Event(seq: seq, time: 0, payload: .actionReceived(ActionReceived(store: "App#1", action: "App.Action.tap", value: "tap", origin: .send)))
  }

  @Test func identityChurnIsTheDoctorsReplacement() {
    var doctor = Doctor()
    let events = [
      Self.action(1), Self.identity(2, "i1", previous: nil, .presented),
      Self.action(3), Self.identity(4, "i1", previous: "i1", .dismissed),
      // Presented again by another action: the normal lifetime, not churn.
      Self.action(5), Self.identity(6, "i2", previous: "i1", .presented),
      // Ended and begun again while handling one action: churn.
      Self.action(7), Self.identity(8, "i2", previous: "i2", .dismissed), Self.identity(9, "i3", previous: "i2", .presented),
      Self.identity(10, "i4", previous: "i3", .replaced),
    ]
    let shown = events.map { doctor.signals(adding: $0) }
    #expect(shown.indices.filter { !shown[$0].isEmpty }.map { events[$0].seq } == [9, 10])
    #expect(shown[8] == [Doctor.Signal.identityChurn])
    #expect(doctor.findings().map(\.code) == ["identity-churn"])
  }

  @Test func eachRuleShowsAtItsEvent() {
    var doctor = Doctor()
    let events = [
      Event(seq: 1, time: 0, payload: .storeCreated(StoreCreated(store: "A#1", type: "A", parent: nil, identity: "a"))),
      Event(seq: 2, time: 0, payload: .effectStarted(EffectStarted(store: "A#1", effect: 1, cause: 1, cancelID: "t"))),
      Event(seq: 3, time: 0, payload: .effectCancelled(EffectCancelled(store: "A#1", effect: 1, cancelID: "t", reason: .cancel, by: .init(store: "B#1", cause: 2)))),
      Event(seq: 4, time: 0, payload: .effectStarted(EffectStarted(store: "A#1", effect: 2, cause: 1, cancelID: nil))),
      Event(seq: 5, time: 0, payload: .storeDestroyed(StoreDestroyed(store: "A#1", identity: "a"))),
      Event(seq: 6, time: 0, payload: .derivedRecomputed(DerivedRecomputed(store: "A#1", derived: "total", cause: nil, outputChanged: false, durationNs: 1))),
      Event(seq: 7, time: 0, payload: .dropped(Dropped(count: 3))),
      Event(seq: 8, time: 0, payload: .warning(Warning(code: "sendToEndedStore", message: "m"))),
    ]
    #expect(events.map { doctor.signals(adding: $0) } == [
      [], [], [Doctor.Signal.crossStoreCancellation], [], [Doctor.Signal.effectOutlivedStore], [Doctor.Signal.derivedUnchanged],
      [Doctor.Signal.droppedEvents], [Doctor.Signal.warning, Doctor.Signal.sendToEndedStore],
    ])
  }
}
