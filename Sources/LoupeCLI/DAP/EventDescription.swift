import LoupeCore
import LoupeSession

/// How one event reads in the debugger: a frame's name, the text of a stop, and the line of
/// code it came from (CONTRACT §9).
enum EventDescription {
  /// A frame name: `#12 PageFeature.Action.onAppear (send)`.
  static func frameName(_ event: Event) -> String {
    "#\(event.seq) " + summary(event)
  }

  /// What happened, in a few words.
  static func summary(_ event: Event) -> String {
    switch event.payload {
    case .actionReceived(let e):
      let origin =
        switch e.origin {
        case .effect: "effect \(e.effect.map(String.init) ?? "?")"
        case .tool: "sent by tool \(e.client ?? "unnamed")"
        case .send, .parent: e.origin.rawValue
        }
      return "\(e.action) (\(origin))"
    case .stateChanged(let e):
      guard e.origin == .tool else { return e.summary }
      return e.summary + " (state set by tool \(e.client ?? "unnamed"))"
    case .stateSnapshot(let e):
      return "state snapshot of \(e.store)" + (e.truncated ? " (truncated)" : "")
    case .effectStarted(let e):
      return "effect \(e.effect) started" + (e.cancelID.map { " (cancel id \($0))" } ?? "")
    case .effectFinished(let e):
      return "effect \(e.effect) \(e.outcome.rawValue)" + (e.error.map { ": \($0)" } ?? "")
    case .effectCancelled(let e):
      var text = "effect \(e.effect) cancelled: \(e.reason.rawValue)"
      if let by = e.by { text += " by \(by.store) (#\(by.cause))" }
      return text
    case .storeCreated(let e):
      return "store \(e.store) created (\(e.type))"
    case .storeDestroyed(let e):
      return "store \(e.store) destroyed"
    case .identityChanged(let e):
      return "identity \(e.identity) \(e.reason.rawValue)"
    case .derivedRecomputed(let e):
      return "derived \(e.derived) recomputed" + (e.outputChanged ? "" : " (output unchanged)")
    case .sessionStarted(let e):
      return "session started: \(e.program) (pid \(e.pid))"
    case .mark(let e):
      return "mark \"\(e.label)\""
    case .dropped(let e):
      return "\(e.count) events dropped"
    case .warning(let e):
      return "warning \(e.code): \(e.message)"
    case .unknown(let kind, _):
      return kind
    }
  }

  /// The stop text: `#12 action.received PageFeature#1: PageFeature.Action.onAppear (send)`.
  static func stopText(_ event: Event) -> String {
    var text = "#\(event.seq) \(event.kind)"
    if let store = event.store { text += " \(store)" }
    return text + ": " + summary(event)
  }

  /// The line of code behind the event: where an action was sent or an effect created; for a
  /// cancellation, the line that asked for it.
  static func source(_ event: Event) -> CodeLocation? { SessionModel.source(of: event) }

  /// A DAP `Source` for a location: `path` when the trace kept it (`#filePath`), else only the
  /// name (the editor shows it without opening a file).
  static func dapSource(_ location: CodeLocation) -> JSON {
    let file = location.file
    let name = file.lastIndex(of: "/").map { String(file[file.index(after: $0)...]) } ?? file
    var object: JSONObject = ["name": .string(name)]
    if let path = location.path { object["path"] = .string(path) } else { object["presentationHint"] = "deemphasize" }
    return .object(object)
  }
}
