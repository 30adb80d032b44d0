import Loupe

/// A typical stream of events: what a feature with a list of pages, a timer effect per page
/// and a derived value emits. It repeats every 18 events (one page): 6 `action.received`,
/// 6 `state.changed`, 2 `effect.started`, 1 `effect.finished`, 1 `effect.cancelled`,
/// 1 `derived.recomputed` and 1 lifecycle event (`identity.changed`, `store.created` or a
/// `mark`, in turn), so a page's store is new every 18 events.
public enum EventMix {
  /// `count` events of the mix, numbered from 1.
  public static func events(count: Int) -> [Event] {
    var generator = Generator()
    var events: [Event] = []
    events.reserveCapacity(count)
    // Times as the bus makes them (`EventBus.now()`): whole nanoseconds, in milliseconds.
    var nanoseconds = 3_250_000
    while events.count < count {
      nanoseconds += 137_021
      events.append(Event(seq: events.count + 1, time: Double(nanoseconds) / 1e6, payload: generator.next()))
    }
    return events
  }

  /// Produces the mix's payloads one at a time, forever, each with storage of its own (its
  /// strings, changes and values are built afresh, as a program builds every event), so that
  /// memory measurements see what a real program's events hold.
  public struct Generator {
    private var pending: [Event.Payload] = []
    private var position = 0
    private var seq = 0
    private var effect = 0
    private var page = 1

    public init() {}

    public mutating func next() -> Event.Payload {
      if position == pending.count {
        pending.removeAll(keepingCapacity: true)
        position = 0
        cycle()
      }
      seq += 1
      defer { position += 1 }
      return pending[position]
    }

    /// One page's worth: 18 events.
    private mutating func cycle() {
      let page = self.page
      self.page += 1
      var seq = self.seq
      var payloads: [Event.Payload] = []
      func add(_ payload: Event.Payload) {
        seq += 1
        payloads.append(payload)
      }
      let store = "AppFeature#1/pages[id: \(page)]"
      let cause = seq + 1
      add(.actionReceived(ActionReceived(
        store: store, action: "PageFeature.Action.startTapped", value: .string("startTapped"), origin: .send)))
      add(.stateChanged(StateChanged(
        store: store, cause: cause,
        changes: [Change(path: "isPlaying", op: .replace, old: .bool(false), new: .bool(true))],
        summary: "\(store): _isPlaying changed.")))
      effect += 1
      add(.effectStarted(EffectStarted(store: store, effect: effect, cause: cause, cancelID: "PageFeature.CancelID.timer")))
      for tick in 0..<3 {
        let tickCause = seq + 1
        add(.actionReceived(ActionReceived(
          store: store, action: "PageFeature.Action.timerTicked", value: .string("timerTicked"), origin: .effect, effect: effect)))
        add(.stateChanged(StateChanged(
          store: store, cause: tickCause,
          changes: [
            Change(path: "count", op: .replace, old: .int(tick), new: .int(tick + 1)),
            Change(path: "elapsed", op: .replace, old: .double(Double(tick) * 0.25), new: .double(Double(tick + 1) * 0.25)),
          ],
          summary: "\(store): _count, _elapsed changed.")))
      }
      add(.derivedRecomputed(DerivedRecomputed(
        store: "AppFeature#1", derived: "totalCount", cause: seq, outputChanged: true, durationNs: 1_250 + page)))
      let rootCause = seq + 1
      add(.actionReceived(ActionReceived(
        store: "AppFeature#1", action: "AppFeature.Action.pages",
        value: .object(["element": .object(["id": .int(page), "action": .string("stopTapped")])]), origin: .send)))
      add(.actionReceived(ActionReceived(
        store: store, action: "PageFeature.Action.stopTapped", value: .string("stopTapped"), origin: .parent)))
      add(.stateChanged(StateChanged(
        store: store, cause: rootCause,
        changes: [Change(path: "isPlaying", op: .replace, old: .bool(true), new: .bool(false))],
        summary: "\(store): _isPlaying changed.")))
      add(.effectCancelled(EffectCancelled(
        store: store, effect: effect, cancelID: "PageFeature.CancelID.timer", reason: .cancel,
        by: .init(store: store, cause: rootCause))))
      effect += 1
      add(.effectStarted(EffectStarted(store: store, effect: effect, cause: rootCause, cancelID: nil)))
      add(.effectFinished(EffectFinished(store: store, effect: effect, outcome: .completed)))
      add(.stateChanged(StateChanged(
        store: "AppFeature#1", cause: rootCause,
        changes: [Change(path: "pages[id: \(page + 1)]", op: .insert, new: .object(["id": .int(page + 1), "count": .int(0)]), index: page)],
        summary: "AppFeature#1: _pages changed.")))
      switch page % 3 {
      case 0: add(.identityChanged(IdentityChanged(store: store, identity: "i\(page)", previous: nil, reason: .inserted)))
      case 1: add(.storeCreated(StoreCreated(store: store, type: "PageFeature", parent: "AppFeature#1", identity: "i\(page)")))
      default: add(.mark(Mark(label: "page \(page) done")))
      }
      pending = payloads
    }
  }
}
