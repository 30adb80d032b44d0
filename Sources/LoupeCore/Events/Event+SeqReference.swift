/// The one table of which fields of an event refer to another event's `seq` (CONTRACT):
///
/// | kind                 | field      |
/// | -------------------- | ---------- |
/// | `state.changed`      | `cause`    |
/// | `state.snapshot`     | `cause?`   |
/// | `effect.started`     | `cause`    |
/// | `effect.cancelled`   | `by.cause` |
/// | `derived.recomputed` | `cause?`   |
///
/// Every reader that follows or rewrites these references (the session model's causes,
/// reducer timing, golden traces' normalization and alignment) goes through here, so a new
/// field that names a `seq` is added once.
extension Event {
  /// The `seq` of the event this one refers to, if it refers to one.
  public var referencedSeq: Int? {
    switch payload {
    case .stateChanged(let e): e.cause
    case .stateSnapshot(let e): e.cause
    case .effectStarted(let e): e.cause
    case .effectCancelled(let e): e.by?.cause
    case .derivedRecomputed(let e): e.cause
    default: nil
    }
  }

  /// This event with the `seq` it refers to, if any, replaced by `transform(seq)`.
  public func mappingReferencedSeq(_ transform: (Int) -> Int) -> Event {
    var event = self
    switch payload {
    case .stateChanged(var e):
      e.cause = transform(e.cause)
      event.payload = .stateChanged(e)
    case .stateSnapshot(var e):
      e.cause = e.cause.map(transform)
      event.payload = .stateSnapshot(e)
    case .effectStarted(var e):
      e.cause = transform(e.cause)
      event.payload = .effectStarted(e)
    case .effectCancelled(var e):
      if let cause = e.by?.cause { e.by?.cause = transform(cause) }
      event.payload = .effectCancelled(e)
    case .derivedRecomputed(var e):
      e.cause = e.cause.map(transform)
      event.payload = .derivedRecomputed(e)
    default:
      break
    }
    return event
  }
}
