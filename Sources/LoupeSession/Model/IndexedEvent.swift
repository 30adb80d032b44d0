import LoupeCore

/// What ``SessionModel`` indexes of an event: its `seq`, kind, store, the `seq` it refers to
/// (``Event/referencedSeq``), and what its kind adds (an action's origin, a source line) — the
/// whole event for kinds read in full. The index pass of a large trace reads this much of its
/// commonest lines without decoding them (``EventIndexSkim``).
package struct IndexedEvent {
  package enum Details {
    /// An `action.received`.
    case action(origin: ActionReceived.Origin, effect: Int?, source: CodeLocation?)
    /// A `state.changed`; `besideByStore`: a focus may leave it out by its store alone
    /// (``StateIndex/Root/pinned``).
    case change(besideByStore: Bool)
    /// A `derived.recomputed`.
    case derived(source: CodeLocation?)
    /// Any event, decoded (boxed: the entries of the commonest kinds stay small to copy).
    case event(Decoded)
  }

  package final class Decoded {
    package let event: Event
    init(_ event: Event) { self.event = event }
  }

  package var seq: Int
  package var kind: String
  package var store: String?
  package var referencedSeq: Int?
  package var details: Details

  package init(seq: Int, kind: String, store: String?, referencedSeq: Int?, details: Details) {
    self.seq = seq
    self.kind = kind
    self.store = store
    self.referencedSeq = referencedSeq
    self.details = details
  }

  package init(_ event: Event) {
    self.init(seq: event.seq, kind: event.kind, store: event.store, referencedSeq: event.referencedSeq, details: .event(Decoded(event)))
  }
}
