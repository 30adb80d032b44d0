/// One started effect (or, for `.driver`, the hidden task that starts the next part of a
/// `concatenate`). Lives on the main actor; its task runs the operation off it.
@MainActor
final class EffectRecord {
  enum Kind { case run, send, driver }
  enum Status { case running, finished, cancelled }

  /// The effect id of the events (unique in the session); drivers, which have no events, get
  /// negative ids.
  let id: Int
  let kind: Kind
  let owner: StoreNode
  let cause: Int
  /// The innermost cancel id, for `cancelID` in events.
  let cancelKey: CancelKey?
  /// Every registry and id it is registered under.
  var registrations: [CancelRegistration]
  /// The line that created the effect (`nil` for drivers): the `source` of its
  /// `effect.started` and of the actions it sends.
  let source: CodeLocation?
  var status = Status.running
  var task: Task<Void, Never>?
  /// Whether its task has returned (a cancelled task may still be running).
  private(set) var hasEnded = false
  private var endWaiters: [CheckedContinuation<Void, Never>] = []
  private var endActions: [@MainActor () -> Void] = []

  init(
    id: Int, kind: Kind, owner: StoreNode, cause: Int, cancelKey: CancelKey?, registrations: [CancelRegistration],
    source: CodeLocation?
  ) {
    self.source = source
    self.id = id
    self.kind = kind
    self.owner = owner
    self.cause = cause
    self.cancelKey = cancelKey
    self.registrations = registrations
  }

  var cancelIDText: String? { cancelKey?.text }

  func markEnded() {
    guard !hasEnded else { return }
    hasEnded = true
    let waiters = endWaiters
    let actions = endActions
    endWaiters = []
    endActions = []
    for action in actions { action() }
    for waiter in waiters { waiter.resume() }
  }

  /// Runs `action` when the effect ends (right away if it has).
  func onEnd(_ action: @escaping @MainActor () -> Void) {
    if hasEnded { action() } else { endActions.append(action) }
  }

  /// Returns once the effect's work has ended (completed, failed, or cancelled and returned).
  func waitUntilEnded() async {
    if hasEnded { return }
    await withCheckedContinuation { endWaiters.append($0) }
  }
}

/// A registry and the cancel id an effect is registered under in it.
struct CancelRegistration {
  let registry: CancellationRegistry
  let key: CancelKey
}

/// Running effects by cancel id. Each store identity has its own; the stores of one session
/// (``EventBus``) created with `cancellation: .processWide` share the session's
/// (`LiveStoreDirectory.processWideCancellation`).
@MainActor
final class CancellationRegistry {
  private var records: [CancelKey: [EffectRecord]] = [:]

  func add(_ record: EffectRecord, for key: CancelKey) {
    records[key, default: []].append(record)
  }

  func remove(_ record: EffectRecord, for key: CancelKey) {
    guard var list = records[key] else { return }
    list.removeAll { $0 === record }
    records[key] = list.isEmpty ? nil : list
  }

  /// The running records registered under `key`, oldest first.
  func records(for key: CancelKey) -> [EffectRecord] {
    (records[key] ?? []).filter { $0.status == .running }.sorted { $0.id < $1.id }
  }
}

/// What one `send` started: the effects a ``StoreTask`` waits for or cancels, and the
/// collectors of the actions those effects sent (so `finish()` waits for the whole chain).
@MainActor
final class EffectCollector {
  private(set) var records: [EffectRecord] = []
  /// What the actions sent by these effects started, in the order they were sent.
  private(set) var children: [EffectCollector] = []
  var isCancelled = false

  func add(_ record: EffectRecord) { records.append(record) }

  /// A collector for an action one of these effects sent.
  func child() -> EffectCollector {
    // A long-running effect (a timer) sends many actions: forget the chains that are over.
    if children.count >= 64 { children.removeAll { $0.hasFinished } }
    let child = EffectCollector()
    children.append(child)
    return child
  }

  /// Whether every effect here and in the chains it started has ended.
  var hasFinished: Bool {
    records.allSatisfy(\.hasEnded) && children.allSatisfy(\.hasFinished)
  }

  /// Waits until ``hasFinished``: the effects, then (transitively) what their actions started.
  func finish() async {
    var index = 0
    while index < records.count {
      await records[index].waitUntilEnded()
      index += 1
    }
    // Once every effect here has ended no child is added any more.
    index = 0
    while index < children.count {
      await children[index].finish()
      index += 1
    }
  }

  /// The effects still running here and in the chains, oldest first.
  var running: [EffectRecord] {
    records.filter { !$0.hasEnded && $0.kind != .driver } + children.flatMap(\.running)
  }

  /// Cancels every effect here and in the chains.
  func cancelAll() {
    isCancelled = true
    for record in records { record.owner.runtime?.cancel(record, reason: .cancel, by: nil) }
    for child in children { child.cancelAll() }
  }
}
