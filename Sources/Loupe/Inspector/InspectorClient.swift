import Dispatch
import LoupeCore
import LoupeRPC

/// One connected client: the protocol's methods, served from the hub and the bus.
final class InspectorClient: RequestHandler, Sendable {
  let bus: EventBus
  let hub: EventHub
  let queue: ClientSubscription
  private let onSubscribe: @Sendable () -> Void
  /// Whether the program allows control now (``InspectorConfiguration/allowsControl``).
  private let allowsControl: @Sendable () -> Bool
  /// Control requests of this client waiting for the main actor, at most
  /// ``maxPendingControls``: past it the client's reader thread (the inspector's own, never
  /// the program's) waits, so a flood of `loupe/send` queues in the client's socket instead of
  /// as tasks in the program.
  private let controlSlots = DispatchSemaphore(value: InspectorClient.maxPendingControls)
  static let maxPendingControls = 64
  private struct State {
    /// `loupe/state` requests waiting for the main actor.
    var tasks: [RequestID: (task: Task<Void, Never>, reply: TypedReply<StateRequest>)] = [:]
    var hasSubscribed = false
    /// ``EventHub/subscribe(_:filter:history:)`` was called: ``closed()`` must unsubscribe.
    var inHub = false
    /// The process is exiting on the main thread: the main actor will never run again.
    var mainActorStopped = false
    /// `loupe/send` and `loupe/setState` requests waiting for the main actor.
    var controls: [RequestID: (task: Task<Void, Never>, fail: @Sendable (ResponseError) -> Void)] = [:]
    /// The client's name from `initialize`, for what its control causes.
    var clientName = "unnamed client"
    /// The last control request's task: each waits for the one before, so a client's actions
    /// run in the order it sent them.
    var lastControl: Task<Void, Never>?
  }
  private let state = Lock(State())

  /// - Parameter onSubscribe: called after a `loupe/subscribe` was answered and its events
  ///   were let through.
  init(
    bus: EventBus, hub: EventHub, queue: ClientSubscription, onSubscribe: @escaping @Sendable () -> Void = {},
    allowsControl: @escaping @Sendable () -> Bool = { false }
  ) {
    self.bus = bus
    self.hub = hub
    self.queue = queue
    self.onSubscribe = onSubscribe
    self.allowsControl = allowsControl
  }

  /// Whether this client has subscribed at least once (it may have unsubscribed since).
  var hasSubscribed: Bool { state.withLock { $0.hasSubscribed } }

  func initialize(_ request: InitializeRequest) -> InitializeResult {
    if let name = request.clientInfo?.name, !name.isEmpty {
      state.withLock { $0.clientName = String(name.prefix(200)) }
    }
    return InitializeResult(
      serverInfo: .init(name: "loupe", version: loupeVersion),
      process: .init(pid: bus.pid, name: bus.program))
  }

  // MARK: Requests (routed by `RequestDispatch`, on the reader thread)

  func handle(_ request: SubscribeRequest, reply: TypedReply<SubscribeRequest>) {
    state.withLock { $0.inHub = true }
    let history = hub.subscribe(queue, filter: CompiledEventFilter(request.filter), history: request.history)
    // The answer is queued before any event of the subscription is let through.
    reply(.init(history: history))
    queue.release()
    state.withLock { $0.hasSubscribed = true }
    onSubscribe()
  }

  func handle(_ request: UnsubscribeRequest, reply: TypedReply<UnsubscribeRequest>) {
    hub.unsubscribe(queue)
    reply(NullResult())
  }

  func handle(_ request: StoresRequest, reply: TypedReply<StoresRequest>) {
    reply(bus.directory?.liveStores() ?? [])
  }

  func handle(_ request: MarkRequest, reply: TypedReply<MarkRequest>) {
    let seq = bus.emit(.mark(Mark(label: request.label)))
    reply(.init(seq: seq))
  }

  /// The answer to `loupe/state` once the process exits on the main thread.
  static let exitingError = ResponseError.internalError("The program is exiting: its state can no longer be read")

  /// `loupe/state` asks the runtime's directory, which may need the main actor: answer from a
  /// task, so the reader thread never waits for the program.
  func handle(_ request: StateRequest, reply: TypedReply<StateRequest>) throws(ResponseError) {
    let path = try request.statePath()
    if let at = request.at {
      // From the history, on this thread: the program's thread is not needed.
      let (log, kept) = hub.history
      switch HistoryState(log: log, kept: kept).state(of: request.store, at: at, path: path) {
      case .success(let state):
        reply(.init(store: request.store, seq: at, state: state.value, approximate: state.approximate, shape: state.shape))
        return
      case .failure(let failure):
        throw .invalidParams(failure.description)
      }
    }
    guard let directory = bus.directory else {
      throw .invalidParams(StateQueryError.unknownStore(request.store).description)
    }
    // Created under the lock, so the task's own removal cannot run before the insertion.
    let id = reply.id
    let exiting = state.withLock { state in
      if state.mainActorStopped { return true }
      let task = Task { [weak self] in
        defer { _ = self?.state.withLock { $0.tasks.removeValue(forKey: id) } }
        do throws(StateQueryError) {
          let (seq, state, shape) = try await directory.state(of: request.store, path: path)
          reply(.init(store: request.store, seq: seq, state: state, shape: shape))
        } catch {
          reply.failure(.invalidParams(error.description))
        }
      }
      state.tasks[id] = (task, reply)
      return false
    }
    if exiting { throw Self.exitingError }
  }

  // MARK: Control (CONTRACT §16)

  func handle(_ request: SendRequest, reply: TypedReply<SendRequest>) throws(ResponseError) {
    try control(request.store, .send(action: request.action), reply: reply) { done in
      .init(seq: done.seq, through: done.through)
    }
  }

  func handle(_ request: SetStateRequest, reply: TypedReply<SetStateRequest>) throws(ResponseError) {
    try control(request.store, .setState(request.state), reply: reply) { done in .init(seq: done.seq) }
  }

  /// Refused unless the program allows control; else carried out from a task (decoding on
  /// it, the action or the new state on the main actor), so the reader thread never waits.
  private func control<R: RequestType>(
    _ store: String, _ operation: StoreControl, reply: TypedReply<R>,
    result: @escaping @Sendable (StoreControlResult) -> R.Result
  ) throws(ResponseError) {
    guard allowsControl() else { throw .controlNotAllowed(R.method) }
    guard let directory = bus.directory else {
      throw .invalidParams(StoreControlError.unknownStore(store).description)
    }
    let id = reply.id
    if state.withLock({ $0.mainActorStopped }) { throw Self.exitingError }
    controlSlots.wait()
    let slots = controlSlots
    let exiting = state.withLock { state in
      if state.mainActorStopped { return true }
      let client = state.clientName
      let previous = state.lastControl
      let task = Task { [weak self] in
        defer {
          _ = self?.state.withLock { $0.controls.removeValue(forKey: id) }
          slots.signal()
        }
        await previous?.value
        do throws(StoreControlError) {
          reply(result(try await directory.control(store, operation, client: client)))
        } catch {
          reply.failure(.invalidParams(error.description))
        }
      }
      state.controls[id] = (task, { reply.failure($0) })
      state.lastControl = task
      return false
    }
    if exiting {
      controlSlots.signal()
      throw Self.exitingError
    }
  }

  /// The process is exiting on the main thread, so the main actor never runs again: answer
  /// the `loupe/state` requests waiting for it, and every later one, with an error.
  func mainActorStopped() {
    let (pending, controls) = state.withLock { state in
      state.mainActorStopped = true
      defer { state.tasks = [:]; state.controls = [:] }
      return (Array(state.tasks.values), Array(state.controls.values))
    }
    for (task, reply) in pending {
      reply.failure(Self.exitingError)
      task.cancel()
    }
    for (task, fail) in controls {
      fail(Self.exitingError)
      task.cancel()
    }
  }

  /// No new events for this client; those already queued (its history among them) are still
  /// sent before `exit` closes the connection.
  func shutdown() {
    hub.unsubscribe(queue, keepingQueued: true)
  }

  func cancelled(_ id: RequestID) {
    state.withLock { $0.tasks.removeValue(forKey: id) }?.task.cancel()
    // A control request already under way is carried out: the action may have run.
  }

  func closed() {
    // A client that never subscribed has nothing in the hub: its lock, which the program's
    // emit takes, is left alone (500 idle connections closing at once took it 500 times).
    if state.withLock({ $0.inHub }) { hub.unsubscribe(queue) }
    let pending = state.withLock { state in
      defer { state.tasks = [:]; state.controls = [:] }
      return Array(state.tasks.values)
    }
    for (task, _) in pending { task.cancel() }
  }
}

/// This build's version, reported as `serverInfo.version`.
public let loupeVersion = "0.1.0"
