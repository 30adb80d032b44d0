/// The effects of a stream: each `effect.started` with the event that ended it, if any, and
/// the actions that caused things (by `seq`), for the checks' messages.
struct EffectLedger {
  struct Entry {
    let started: Event
    let info: EffectStarted
    /// The `effect.finished` or `effect.cancelled` that ended it.
    var ended: Event?
  }

  private(set) var entries: [Entry] = []
  /// `action.received` events by `seq`.
  private(set) var actions: [Int: Event] = [:]

  init(_ events: [Event]) {
    var index: [Int: Int] = [:]
    for event in events {
      switch event.payload {
      case .actionReceived:
        actions[event.seq] = event
      case .effectStarted(let e):
        index[e.effect] = entries.count
        entries.append(Entry(started: event, info: e))
      case .effectFinished(let e):
        if let position = index[e.effect], entries[position].ended == nil { entries[position].ended = event }
      case .effectCancelled(let e):
        if let position = index[e.effect], entries[position].ended == nil { entries[position].ended = event }
      default:
        break
      }
    }
  }

  /// Effects that started and have neither finished nor been cancelled.
  var running: [Entry] { entries.filter { $0.ended == nil } }

  /// The line of the action with `seq`, when the stream has it.
  func actionLine(_ seq: Int) -> (seq: Int, text: String)? {
    actions[seq].map { ($0.seq, EventText.line($0)) }
  }
}

/// Rows of a failure message gathered from here and there in a stream, printed in `seq`
/// order: context events, the unexpected ones (`+`) and expected ones that are missing (`−`,
/// placed just before or after the event they belong with).
struct StoryRows {
  private var rows: [(key: Double, mark: DiffLines.Mark, text: String)] = []

  /// An event shown as context (once, however often it is added).
  mutating func context(_ event: Event) { add(Double(event.seq), .same, EventText.line(event)) }
  mutating func context(seq: Int, _ text: String) { add(Double(seq), .same, text) }
  mutating func actual(_ event: Event) { add(Double(event.seq), .actual, EventText.line(event)) }
  /// An expected line, placed right after `seq` (or before it when `before` is true).
  mutating func expected(_ text: String, near seq: Int, before: Bool = false) {
    add(Double(seq) + (before ? -0.5 : 0.5), .expected, text)
  }

  private mutating func add(_ key: Double, _ mark: DiffLines.Mark, _ text: String) {
    guard !rows.contains(where: { $0.key == key && $0.text == text }) else { return }
    rows.append((key, mark, text))
  }

  var diff: DiffLines {
    var diff = DiffLines(context: nil)
    for row in rows.sorted(by: { $0.key < $1.key }) { diff.rows.append((row.mark, row.text)) }
    return diff
  }
}

/// Whether `store` is `ancestor` or one of its scoped descendants (`App#1/pages[id: 2]`
/// under `App#1`).
func isSameOrDescendant(_ store: String, of ancestor: String) -> Bool {
  store == ancestor || store.hasPrefix(ancestor + "/")
}
