import LoupeCore
import LoupeSession

/// The text views of an event stream: the timeline (`--format text`) and the
/// `_printChanges`-style lines (`--format changes`).
///
/// The renderer is fed every event, shown or not, so it can tell how long an effect ran and
/// which action caused what.
///
/// ```
///   1.750ms      #4  state.changed       AppFeature#1  AppFeature#1: _pages changed.
///                      + pages[id: 2]: {"count":0}
///   3.250ms      #6  effect.started      PageFeature#2  effect 1, cancel id "timer" (from #5 onAppear)  PageFeature.swift:46
///   5.000ms      #9  effect.cancelled    AppFeature#1/pages[id: 2]  effect 1 after 2.5ms: cancel, by AppFeature#1/pages[id: 3] (#8) at PageFeature.swift:51 — another store
/// ```
struct TimelineRenderer {
  enum Format: String, CaseIterable, Sendable {
    case text, json, changes
  }

  let style: Style
  /// Effects started and not yet ended: when and by which action.
  var runningEffects: [Int: (time: Double, cause: Int)] = [:]
  var actions = RecentActions()

  /// Width of the kind column ("derived.recomputed").
  static let kindWidth = 18
  /// Indentation of the lines under an event (its changes).
  static let detailIndent = String(repeating: " ", count: 22)

  init(style: Style) {
    self.style = style
  }

  /// The lines for `event` in `format` (`.text` or `.changes`), each ending in a line break,
  /// or `""` when the format shows nothing for it or `shown` is false.
  ///
  /// Call it for every event in order, shown or not: the renderer notes what later events
  /// need (when an effect started, which action a `seq` was).
  mutating func render(_ event: Event, format: Format, shown: Bool = true) -> String {
    switch event.payload {
    case .actionReceived(let e): actions.record(seq: event.seq, label: e.action)
    case .effectStarted(let e): runningEffects[e.effect] = (event.time, e.cause)
    default: break
    }
    defer {
      switch event.payload {
      case .effectFinished(let e): runningEffects[e.effect] = nil
      case .effectCancelled(let e): runningEffects[e.effect] = nil
      default: break
      }
    }
    guard shown else { return "" }
    switch format {
    case .changes:
      guard case .stateChanged(let change) = event.payload else { return "" }
      return change.summary + "\n"
    case .text, .json:
      return timelineText(event)
    }
  }

  private func timelineText(_ event: Event) -> String {
    let kind = Formatting.rightPad(event.kind, Self.kindWidth)
    let (details, extra) = self.details(event)
    // One string grown in place: this runs for every event of a trace.
    var text = ""
    text.reserveCapacity(128 + details.utf8.count + extra.count * 48)
    TimelineHeader.append(time: event.time, seq: event.seq, style: style, to: &text)
    text += "  "
    text += color(for: event, kind)
    if let store = event.store {
      text += "  "
      text += style.bold(store)
    }
    if !details.isEmpty {
      text += "  "
      text += details
    }
    text += "\n"
    for extraLine in extra {
      text += Self.detailIndent
      text += extraLine
      text += "\n"
    }
    return text
  }

  private func color(for event: Event, _ text: String) -> String {
    switch event.payload {
    case .actionReceived: style.apply(.cyan, text)
    case .stateChanged, .stateSnapshot: style.apply(.yellow, text)
    case .effectStarted, .effectFinished, .effectCancelled: style.apply(.magenta, text)
    case .storeCreated, .storeDestroyed, .identityChanged: style.apply(.blue, text)
    case .derivedRecomputed: style.apply(.green, text)
    case .dropped, .warning: style.apply(.boldRed, text)
    case .mark: style.bold(text)
    case .sessionStarted, .unknown: text
    }
  }

  private func ran(_ effect: Int, until time: Double) -> String {
    guard let start = runningEffects[effect] else { return "" }
    return " after " + Formatting.duration(milliseconds: time - start.time)
  }

  /// What to print after an action's label: nothing for a case without payload (rendered as
  /// its case name), `(payload)` for `{"case": payload}`, else the value.
  static func payload(of action: ActionReceived) -> String? {
    ActionText.payload(label: action.action, value: action.value, shape: action.shape)
  }

  /// `  PageFeature.swift:42`, dim, after an event that says where in the code it came from
  /// (CONTRACT §9); nothing when it does not.
  private func located(_ source: CodeLocation?) -> String {
    guard let source else { return "" }
    return "  " + style.dim(source.shortDescription)
  }

  private func details(_ event: Event) -> (String, [String]) {
    switch event.payload {
    case .sessionStarted(let e):
      return ("\(e.program) (pid \(e.pid)), started \(e.startedAt)", [])
    case .storeCreated(let e):
      var text = "type \(e.type)"
      if let parent = e.parent { text += ", parent \(parent)" }
      if e.identity != e.store { text += ", identity \(e.identity)" }
      return (text, [])
    case .storeDestroyed(let e):
      return (e.identity == e.store ? "" : "identity \(e.identity)", [])
    case .identityChanged(let e):
      if let previous = e.previous { return ("\(e.reason.rawValue): \(previous) → \(e.identity)", []) }
      return ("\(e.reason.rawValue) \(e.identity)", [])
    case .actionReceived(let e):
      // The payload belongs to the action (`rowsDeleted([0])`); where it came from follows.
      var text = style.apply(.cyan, e.action)
      if let payload = Self.payload(of: e) { text += style.dim(payload) }
      switch e.origin {
      case .send: break
      case .parent: text += style.dim(" (from parent)")
      case .effect: text += style.dim(e.effect.map { " (from effect \($0))" } ?? " (from an effect)")
      case .tool: text += style.apply(.yellow, " (sent by tool \(e.client ?? "unnamed"))")
      }
      return (text + located(e.source), [])
    case .stateChanged(let e):
      guard e.origin == .tool else { return (e.summary, ChangeLines.lines(e.changes, style: style)) }
      return (e.summary + style.apply(.yellow, " (state set by tool \(e.client ?? "unnamed"))"), ChangeLines.lines(e.changes, style: style))
    case .stateSnapshot(let e):
      var text = "whole state, \(Formatting.plural(e.state.jsonText.utf8.count, "byte")) of JSON"
      if e.truncated { text += style.apply(.yellow, ", truncated (a state rebuilt from it is approximate)") }
      if let cause = e.cause { text += style.dim(" (after #\(cause)\(actions[cause].map { " \($0)" } ?? ""))") }
      return (text, [])
    case .effectStarted(let e):
      var text = "effect \(e.effect)"
      if let id = e.cancelID { text += ", cancel id \"\(id)\"" }
      text += style.dim(" (from #\(e.cause)\(actions[e.cause].map { " \($0)" } ?? ""))")
      return (text + located(e.source), [])
    case .effectFinished(let e):
      var text = "effect \(e.effect) \(e.outcome.rawValue)\(ran(e.effect, until: event.time))"
      if let error = e.error { text += ": " + style.red(error) }
      return (text, [])
    case .effectCancelled(let e):
      var text = "effect \(e.effect) cancelled\(ran(e.effect, until: event.time)): \(e.reason.rawValue)"
      if let by = e.by {
        text += " by \(by.store) (#\(by.cause)\(actions[by.cause].map { " \($0)" } ?? ""))"
        if let source = by.source { text += " at " + style.dim(source.shortDescription) }
        if by.store != e.store, e.reason == .cancel || e.reason == .cancelInFlight {
          text += " " + style.apply(.boldRed, "— another store")
        }
      }
      return (text, [])
    case .derivedRecomputed(let e):
      let output = e.outputChanged ? "output changed" : style.apply(.yellow, "output unchanged")
      var text = "\(e.derived) in \(Formatting.duration(nanoseconds: Double(e.durationNs))), \(output)"
      if let cause = e.cause { text += style.dim(" (from #\(cause))") }
      return (text + located(e.source), [])
    case .mark(let e):
      return (style.bold("── \(e.label) ──"), [])
    case .dropped(let e):
      return (style.apply(.boldRed, "\(Formatting.plural(e.count, "event")) dropped"), [])
    case .warning(let e):
      return (style.apply(.yellow, "\(e.code): \(e.message)") + located(e.source), [])
    case .unknown(_, var fields):
      fields["store"] = nil
      return (fields.isEmpty ? "" : style.dim(Formatting.json(.object(fields), limit: 160)), [])
    }
  }
}
