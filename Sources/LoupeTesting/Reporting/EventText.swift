/// The one-line text of an event in failure messages:
///
/// ```
/// #16 effect.started PageFeature#2 effect: 2, cause: #15, cancelID: PageFeature.CancelID.timer, source: PageFeature.swift:46
/// #17 effect.cancelled PageFeature#1 effect: 1, cancelID: PageFeature.CancelID.timer, reason: cancelInFlight, by: PageFeature#2 (#16, PageFeature.swift:51)
/// ```
///
/// `#seq`, the kind, the store, then the fields an expectation can name, in the same order
/// and with the same names as ``EventExpectation``'s text, so an expected line and the
/// actual line it should have matched read alike; last, where in the code the event came
/// from (`source`, CONTRACT §9), when it says. Times and durations are left out: they
/// differ on every run.
enum EventText {
  /// Values longer than this are cut with `…`.
  static let maxValueLength = 60

  static func line(_ event: Event) -> String {
    "#\(event.seq) " + body(event)
  }

  /// The line without `#seq`.
  static func body(_ event: Event) -> String {
    let parts = [event.kind, event.store].compactMap { $0 } + [fields(event.payload).joined(separator: ", ")]
    return parts.filter { !$0.isEmpty }.joined(separator: " ")
  }

  static func fields(_ payload: Event.Payload) -> [String] {
    switch payload {
    case .sessionStarted(let e):
      return ["program: \(e.program)", "pid: \(e.pid)"]
    case .storeCreated(let e):
      return ["type: \(e.type)"] + (e.parent.map { ["parent: \($0)"] } ?? []) + ["identity: \(e.identity)"]
    case .storeDestroyed(let e):
      return ["identity: \(e.identity)"]
    case .identityChanged(let e):
      return ["identity: \(e.identity)"] + (e.previous.map { ["previous: \($0)"] } ?? []) + ["reason: \(e.reason.rawValue)"]
    case .actionReceived(let e):
      var fields = ["action: \(e.action)"]
      if let value = actionValue(label: e.action, value: e.value, shape: e.shape) { fields.append("value: \(value)") }
      fields.append("origin: \(e.origin.rawValue)")
      if let effect = e.effect { fields.append("effect: \(effect)") }
      return fields + source(e.source)
    case .stateChanged(let e):
      return ["changes: [" + e.changes.map(change).joined(separator: ", ") + "]"]
    case .stateSnapshot(let e):
      return ["state: \(value(e.state, shape: e.shape))", "cause: " + (e.cause.map { "#\($0)" } ?? "nil")] + (e.truncated ? ["truncated"] : [])
    case .effectStarted(let e):
      return ["effect: \(e.effect)", "cause: #\(e.cause)"] + (e.cancelID.map { ["cancelID: \($0)"] } ?? []) + source(e.source)
    case .effectFinished(let e):
      return ["effect: \(e.effect)", "outcome: \(e.outcome.rawValue)"] + (e.error.map { ["error: \($0)"] } ?? [])
    case .effectCancelled(let e):
      return ["effect: \(e.effect)"] + (e.cancelID.map { ["cancelID: \($0)"] } ?? [])
        + ["reason: \(e.reason.rawValue)", "by: " + (e.by.map { "\($0.store) (#\($0.cause)\($0.source.map { ", \($0.shortDescription)" } ?? ""))" } ?? "nil")]
    case .derivedRecomputed(let e):
      return ["derived: \(e.derived)", "cause: " + (e.cause.map { "#\($0)" } ?? "nil"), "outputChanged: \(e.outputChanged)"]
    case .mark(let e):
      return ["label: \(e.label)"]
    case .dropped(let e):
      return ["count: \(e.count)"]
    case .warning(let e):
      return ["code: \(e.code)", "message: \(e.message)"] + source(e.source)
    case .unknown(_, let fields):
      return fields.members.filter { $0.key != "store" }.map { "\($0.key): \(value($0.value))" }
    }
  }

  /// `source: PageFeature.swift:46`, when the event says where it came from.
  static func source(_ location: CodeLocation?) -> [String] {
    location.map { ["source: \($0.shortDescription)"] } ?? []
  }

  /// The action's rendered value (as Swift where its shape says: `.rows(.element(id: 1))`),
  /// unless it says no more than the label (a case without payload renders as its name).
  static func actionValue(label: String, value json: JSON, shape: ValueShape? = nil) -> String? {
    if case .string(let name) = json, label.hasSuffix("." + name) || label == name { return nil }
    if json.isNull { return nil }
    return value(json, shape: shape)
  }

  /// `count: 0 → 1`, `todos[id: 3]: inserted {…}`, `todos[id: 1]: removed`.
  static func change(_ change: Change) -> String {
    let path = change.path.isEmpty ? "@self" : change.path
    switch change.op {
    case .replace:
      return "\(path): \(value(change.old ?? .null, shape: change.oldShape)) → \(value(change.new ?? .null, shape: change.newShape))"
    case .insert: return "\(path): inserted \(value(change.new ?? .null, shape: change.newShape))"
    case .remove: return "\(path): removed"
    }
  }

  static func value(_ json: JSON, shape: ValueShape? = nil) -> String {
    ValueText.compact(json, shape: shape, maxLength: maxValueLength)
  }
}
