import LoupeRPC
import Synchronization

/// One connected client: the protocol's methods, served from the hub and the bus.
final class InspectorClient: ServerHandler, Sendable {
  let bus: EventBus
  let hub: EventHub
  let queue: ClientQueue
  private let tasks = Mutex<[RequestID: Task<Void, Never>]>([:])

  init(bus: EventBus, hub: EventHub, queue: ClientQueue) {
    self.bus = bus
    self.hub = hub
    self.queue = queue
  }

  func initialize(_ request: InitializeRequest) -> InitializeResult {
    InitializeResult(
      serverInfo: .init(name: "loupe", version: loupeVersion),
      process: .init(pid: bus.pid, name: bus.program))
  }

  func handle(_ request: IncomingRequest, reply: Reply) {
    do {
      switch request.method {
      case SubscribeRequest.method:
        let subscribe = try request.decode(SubscribeRequest.self)
        let history = hub.subscribe(queue, filter: subscribe.filter, history: subscribe.history)
        // The answer is queued before any event of the subscription is let through.
        reply(SubscribeRequest.self, .init(history: history))
        queue.release()
      case UnsubscribeRequest.method:
        _ = try request.decode(UnsubscribeRequest.self)
        hub.unsubscribe(queue)
        reply(UnsubscribeRequest.self, NullResult())
      case StoresRequest.method:
        _ = try request.decode(StoresRequest.self)
        reply(StoresRequest.self, bus.directory?.liveStores() ?? [])
      case StateRequest.method:
        try state(request.decode(StateRequest.self), id: request.id, reply: reply)
      case MarkRequest.method:
        let mark = try request.decode(MarkRequest.self)
        let seq = bus.emit(.mark(Mark(label: mark.label)))
        reply(MarkRequest.self, .init(seq: seq))
      default:
        reply.failure(.methodNotFound(request.method))
      }
    } catch {
      reply.failure(error)
    }
  }

  /// `loupe/state` asks the runtime's directory, which may need the main actor: answer from a
  /// task, so the reader thread never waits for the program.
  private func state(_ request: StateRequest, id: RequestID, reply: Reply) throws(ResponseError) {
    let path = try request.statePath()
    guard let directory = bus.directory else {
      throw .invalidParams(StateQueryError.unknownStore(request.store).description)
    }
    // Created under the lock, so the task's own removal cannot run before the insertion.
    tasks.withLock { tasks in
      tasks[id] = Task { [weak self] in
      defer { _ = self?.tasks.withLock { $0.removeValue(forKey: id) } }
      do throws(StateQueryError) {
        let (seq, state) = try await directory.state(of: request.store, path: path)
        reply(StateRequest.self, .init(store: request.store, seq: seq, state: state))
      } catch {
        reply.failure(.invalidParams(error.description))
      }
      }
    }
  }

  func shutdown() {
    hub.unsubscribe(queue)
  }

  func cancelled(_ id: RequestID) {
    tasks.withLock { $0.removeValue(forKey: id) }?.cancel()
  }

  func closed() {
    hub.unsubscribe(queue)
    let pending = tasks.withLock { tasks in
      defer { tasks = [:] }
      return Array(tasks.values)
    }
    for task in pending { task.cancel() }
  }
}

/// This build's version, reported as `serverInfo.version`.
public let loupeVersion = "0.1.0"
