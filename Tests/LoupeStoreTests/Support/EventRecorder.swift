import Loupe
import LoupeCore

/// Collects the events of a private bus, and prints them as compact lines for golden tests:
///
///     3 action.received Counter#1 Counter.Action.increment send
///     4 state.changed Counter#1 cause=3 [count: 0 → 1] "Counter#1: _count changed."
final class EventRecorder: EventSink {
  private let storage = Lock<[Event]>([])
  private let consumed = Lock(0)

  func receive(_ event: Event) { storage.withLock { $0.append(event) } }

  var events: [Event] { storage.withLock { $0 } }

  /// Every event but `session.started`, as lines.
  var lines: [String] { events.filter { $0.kind != SessionStarted.kind }.map(Self.line) }

  /// The lines since the last call to `take()` (or since the start).
  func take() -> [String] {
    let all = events
    let start = consumed.withLock { value in
      defer { value = all.count }
      return value
    }
    return all[start...].filter { $0.kind != SessionStarted.kind }.map(Self.line)
  }

  static func line(_ event: Event) -> String {
    let body: String
    switch event.payload {
    case .identityChanged(let e):
      body = "identity.changed \(e.store) \(e.identity) \(e.reason.rawValue)" + (e.previous.map { " previous=\($0)" } ?? "")
    case .storeCreated(let e):
      body = "store.created \(e.store) type=\(e.type) parent=\(e.parent ?? "-") \(e.identity)"
    case .storeDestroyed(let e):
      body = "store.destroyed \(e.store) \(e.identity)"
    case .actionReceived(let e):
      body = "action.received \(e.store) \(e.action) \(e.origin.rawValue)" + (e.effect.map { " e\($0)" } ?? "")
    case .stateChanged(let e):
      let changes = e.changes.map(describe).joined(separator: ", ")
      body = "state.changed \(e.store) cause=\(e.cause) [\(changes)] \"\(e.summary)\""
    case .effectStarted(let e):
      body = "effect.started \(e.store) e\(e.effect) cause=\(e.cause)" + (e.cancelID.map { " id=\($0)" } ?? "")
    case .effectFinished(let e):
      body = "effect.finished \(e.store) e\(e.effect) \(e.outcome.rawValue)" + (e.error.map { ": \($0)" } ?? "")
    case .effectCancelled(let e):
      body = "effect.cancelled \(e.store) e\(e.effect) \(e.reason.rawValue)" + (e.cancelID.map { " id=\($0)" } ?? "")
        + " by=" + (e.by.map { "\($0.store)@\($0.cause)" } ?? "-")
    case .derivedRecomputed(let e):
      body = "derived.recomputed \(e.store) \(e.derived) cause=\(e.cause.map(String.init) ?? "-") changed=\(e.outputChanged)"
    case .stateSnapshot(let e):
      body = "state.snapshot \(e.store) cause=\(e.cause.map(String.init) ?? "-") \(e.state.jsonText)" + (e.truncated ? " truncated" : "")
    case .warning(let e):
      body = "warning \(e.code) \(e.store ?? "-"): \(e.message)"
    default:
      body = event.kind
    }
    return "\(event.seq) \(body)"
  }

  static func describe(_ change: Change) -> String {
    let path = change.path.isEmpty ? "@" : change.path
    switch change.op {
    case .replace: return "\(path): \(change.old?.jsonText ?? "?") → \(change.new?.jsonText ?? "?")"
    case .insert: return "+\(path): \(change.new?.jsonText ?? "?")"
    case .remove: return "-\(path): \(change.old?.jsonText ?? "?")"
    }
  }
}

/// A private session with a recorder attached. Snapshots are off unless asked for: the golden
/// lines of the other suites are about actions, changes and effects (`SnapshotPolicyTests`
/// pins the snapshots).
func makeSession(snapshots: SnapshotPolicy = .off) -> (EventBus, EventRecorder) {
  let bus = EventBus(program: "test", pid: 1)
  bus.snapshotPolicy = snapshots
  let recorder = EventRecorder()
  bus.attach(recorder)
  return (bus, recorder)
}

/// A flag set from an `@Sendable` closure (observation's `onChange`).
final class Flag: Sendable {
  private let storage = Lock(false)
  var value: Bool { storage.withLock { $0 } }
  func set() { storage.withLock { $0 = true } }
}
