/// Takes out of a stream what differs from run to run, so two recordings of the same
/// behaviour compare equal (golden traces):
///
/// - `time` becomes 0, and `durationNs` of `derived.recomputed` 0;
/// - `session.started` (and a trace's header) get a fixed `pid`, `program` and `startedAt`;
/// - `seq` is renumbered 1, 2, 3… in order, and the `seq`s that events refer to
///   (``Event/referencedSeq``) with it; a reference to an event that is not in the stream (left out by a
///   filter, or from before a recorder was attached) becomes 0;
/// - effect ids are renumbered 1, 2, 3… in the order they first appear;
/// - identities are renumbered `i1`, `i2`… in the order they first appear (in warnings'
///   messages too);
/// - `source` locations (CONTRACT §9) are left out: a golden trace pins behaviour, and
///   moving a line of code, or building on another machine, must not change it.
///
/// Store ids, action labels, values and changes are kept: they are the behaviour. Normalizing
/// a normalized stream changes nothing.
public struct TraceNormalizer {
  /// The header of a normalized trace.
  public static let header = TraceHeader(program: "program", pid: 0, startedAt: "1970-01-01T00:00:00.000Z")

  private var seqs: [Int: Int] = [:]
  private var effects: [Int: Int] = [:]
  private var identities: [String: String] = [:]

  public init() {}

  /// `events`, normalized.
  public static func normalize(_ events: [Event]) -> [Event] {
    var normalizer = TraceNormalizer()
    return events.map { normalizer.normalize($0) }
  }

  /// One event, normalized; numbering continues from the events normalized before it.
  public mutating func normalize(_ event: Event) -> Event {
    var event = event
    event.time = 0
    let seq = seqs.count + 1
    seqs[event.seq] = seq
    event.seq = seq
    event = event.mappingReferencedSeq { seqs[$0] ?? 0 }
    switch event.payload {
    case .sessionStarted(var e):
      e.pid = Self.header.pid
      e.program = Self.header.program
      e.startedAt = Self.header.startedAt
      event.payload = .sessionStarted(e)
    case .storeCreated(var e):
      e.identity = identity(e.identity)
      event.payload = .storeCreated(e)
    case .storeDestroyed(var e):
      e.identity = identity(e.identity)
      event.payload = .storeDestroyed(e)
    case .identityChanged(var e):
      e.previous = e.previous.map { identity($0) }
      e.identity = identity(e.identity)
      event.payload = .identityChanged(e)
    case .actionReceived(var e):
      e.effect = e.effect.map { effect($0) }
      e.source = nil
      event.payload = .actionReceived(e)
    case .effectStarted(var e):
      e.effect = effect(e.effect)
      e.source = nil
      event.payload = .effectStarted(e)
    case .effectFinished(var e):
      e.effect = effect(e.effect)
      event.payload = .effectFinished(e)
    case .effectCancelled(var e):
      e.effect = effect(e.effect)
      e.by?.source = nil
      event.payload = .effectCancelled(e)
    case .derivedRecomputed(var e):
      e.durationNs = 0
      e.source = nil
      event.payload = .derivedRecomputed(e)
    case .warning(var e):
      e.message = renumberIdentities(in: e.message)
      e.source = nil
      event.payload = .warning(e)
    case .stateChanged, .stateSnapshot, .mark, .dropped, .unknown:
      break
    }
    return event
  }

  private mutating func effect(_ id: Int) -> Int {
    if let known = effects[id] { return known }
    let new = effects.count + 1
    effects[id] = new
    return new
  }

  private mutating func identity(_ id: String) -> String {
    if let known = identities[id] { return known }
    let new = "i\(identities.count + 1)"
    identities[id] = new
    return new
  }

  /// Replaces the identities already seen when they stand as whole words in `text`.
  private func renumberIdentities(in text: String) -> String {
    var result = ""
    var word = ""
    func flush() {
      result += identities[word] ?? word
      word = ""
    }
    for character in text {
      if character.isLetter || character.isNumber || character == "#" {
        word.append(character)
      } else {
        flush()
        result.append(character)
      }
    }
    flush()
    return result
  }
}
