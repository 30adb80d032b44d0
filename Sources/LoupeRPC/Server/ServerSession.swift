import LoupeCore

/// The JSON-RPC 2.0 server side of one connection, without I/O.
///
/// Feed it frame bodies with ``receive(_:)`` (in order, from one thread); it answers through
/// `send` with complete bodies (one message, or one array for a batch) and calls `exit` when
/// the client sends `exit`. It implements:
///
/// - parse errors (`-32700`) and invalid requests (`-32600`) with id `null` unless the id was
///   readable; the empty batch as one invalid request; batches answered with one array, in
///   request order, and not at all when they hold only notifications;
/// - the lifecycle: `-32002` for anything before `initialize`, `initialize` once, `shutdown`
///   (answered after every request before it) then `-32600` for every request, `exit` ends
///   the connection — once every request received before it is answered (or cancelled), so
///   a client may send its requests, `shutdown` and `exit` at once and still read every
///   answer, in order when the handler answers in order;
/// - `$/cancelRequest {id}`: a request still in flight is answered `-32800` at once and its
///   later result discarded;
/// - notifications are never answered, even malformed ones or unknown methods.
///
/// ``hasUnansweredRequests`` and the `onChange` callback let a server that is about to end
/// wait until every request it has received is answered.
public final class ServerSession: Sendable {
  public enum Lifecycle: Sendable, Hashable {
    case uninitialized, initialized, shutDown, exited
  }

  /// The requests this session answers itself, as it moves through ``Lifecycle``; every other
  /// request goes to the handler (a ``RequestHandler`` routes it by ``RequestDispatch``).
  /// `exit`, `initialized` and `$/cancelRequest` are its notifications.
  static let lifecycleRequests: [any RequestType.Type] = [InitializeRequest.self, ShutdownRequest.self]

  private struct State {
    var lifecycle = Lifecycle.uninitialized
    /// In-flight requests by id: a token telling this request from an earlier one with the
    /// same id, and where its answer goes (its batch slot, or alone).
    var inflight: [RequestID: InFlight] = [:]
    var nextToken = 0
    /// The thread inside ``receive(_:)`` right now, if any.
    var receivingThread: ThreadID?
    /// `shutdown` came while requests were in flight: answered when the last of them is.
    var pendingShutdown: (id: RequestID, batch: BatchReply?, index: Int)?
    /// `exit` came while requests were in flight: call `exit` when the last is answered.
    var exitPending = false

    /// What waited for the requests in flight, now that none is left (and no longer waits).
    mutating func takeDue() -> (shutdown: (id: RequestID, batch: BatchReply?, index: Int)?, exit: Bool) {
      guard inflight.isEmpty else { return (nil, false) }
      defer {
        pendingShutdown = nil
        exitPending = false
      }
      return (pendingShutdown, exitPending)
    }
  }

  private struct InFlight {
    var token: Int
    var batch: BatchReply?
    var index: Int
  }

  private let handler: any ServerHandler
  private let send: @Sendable ([UInt8]) -> Void
  private let exit: @Sendable () -> Void
  private let onChange: @Sendable () -> Void
  private let answerLimit: AnswerLimit
  private let state = Lock(State())

  /// - Parameters:
  ///   - send: writes one complete body (the caller frames it).
  ///   - exit: called once after the client sent `exit`, when every request received before
  ///     it has been answered (at once when none is in flight), on the thread that delivered
  ///     the last answer.
  ///   - onChange: called (on any thread) after each frame is handled and after each answer
  ///     is sent: when ``lifecycle`` or ``hasUnansweredRequests`` may have changed.
  ///   - maxAnswerBytes: the largest body sent; an answer (or a batch's answers) over it is
  ///     replaced by a `-32603` error that says so (see `protocol/errors.md`).
  public init(
    handler: any ServerHandler, send: @escaping @Sendable ([UInt8]) -> Void, exit: @escaping @Sendable () -> Void,
    onChange: @escaping @Sendable () -> Void = {}, maxAnswerBytes: Int = 16 << 20
  ) {
    answerLimit = AnswerLimit(maxBytes: maxAnswerBytes)
    self.handler = handler
    self.send = send
    self.exit = exit
    self.onChange = onChange
  }

  public var lifecycle: Lifecycle { state.withLock { $0.lifecycle } }

  /// Whether a request this session has received still waits for its answer: one the
  /// handler has not answered yet, or a frame being handled right now on another thread.
  /// Called from inside this session's own ``receive(_:)`` (a program that exits while
  /// handling a request), it is `false`: that thread cannot wait for itself.
  public var hasUnansweredRequests: Bool {
    let current = ThreadID.current
    return state.withLock { state in
      if let receiving = state.receivingThread {
        return receiving != current
      }
      return !state.inflight.isEmpty
    }
  }

  /// Handles one frame body.
  public func receive(_ body: some Collection<UInt8>) {
    state.withLock { $0.receivingThread = .current }
    defer {
      state.withLock { $0.receivingThread = nil }
      onChange()
    }
    switch IncomingBody.decode(body) {
    case .single(let item):
      handle(item, batch: nil, index: 0)
    case .batch(let items):
      let batch = BatchReply(count: items.count) { [send, answerLimit] messages in
        if !messages.isEmpty { send(answerLimit.batchBody(for: messages)) }
      }
      for (index, item) in items.enumerated() { handle(item, batch: batch, index: index) }
    }
  }

  /// The client closed its end after its last frame: the same as `exit` (`exit` is called
  /// once every request received is answered). For a connection started with `onEndOfInput`.
  public func inputEnded() {
    notification(method: ExitNotification.method, params: nil)
  }

  private func handle(_ item: IncomingItem, batch: BatchReply?, index: Int) {
    switch item {
    case .invalid(let id, let error):
      deliver(.failure(id: id, error), batch: batch, index: index)
    case .message(.response):
      batch?.fill(index, with: nil)  // this server sends no requests; stray responses are ignored
    case .message(.notification(let method, let params)):
      batch?.fill(index, with: nil)
      notification(method: method, params: params)
    case .message(.request(let id, let method, let params)):
      request(IncomingRequest(id: id, method: method, params: params), batch: batch, index: index)
    }
  }

  private func request(_ request: IncomingRequest, batch: BatchReply?, index: Int) {
    let lifecycle = self.lifecycle
    let id = request.id
    if lifecycle == .exited {
      batch?.fill(index, with: nil)
      return
    }
    if request.method == InitializeRequest.method {
      guard lifecycle == .uninitialized else {
        let message = lifecycle == .initialized ? "Already initialized" : "Server is shut down"
        return deliver(.failure(id: id, .invalidRequest(message)), batch: batch, index: index)
      }
      do {
        let params = try request.decode(InitializeRequest.self)
        let result = handler.initialize(params)
        state.withLock { $0.lifecycle = .initialized }
        deliver(.success(id: id, InitializeRequest.encodeResult(result)), batch: batch, index: index)
      } catch {
        deliver(.failure(id: id, error), batch: batch, index: index)
      }
      return
    }
    switch lifecycle {
    case .uninitialized:
      return deliver(.failure(id: id, .serverNotInitialized), batch: batch, index: index)
    case .shutDown, .exited:
      return deliver(
        .failure(id: id, .invalidRequest("Server is shut down: only 'exit' is accepted")), batch: batch, index: index)
    case .initialized:
      break
    }
    if request.method == ShutdownRequest.method {
      // Answered after every request before it, as a language server does.
      let answerNow = state.withLock { state in
        state.lifecycle = .shutDown
        guard !state.inflight.isEmpty else { return true }
        state.pendingShutdown = (id, batch, index)
        return false
      }
      handler.shutdown()
      if answerNow { deliver(.success(id: id, .null), batch: batch, index: index) }
      return
    }
    // An id still in flight cannot name a second request: its answer would be ambiguous, and
    // the first request's answer would be lost (leaving its batch unanswered for good).
    let token: Int? = state.withLock { state in
      guard state.inflight[id] == nil else { return nil }
      state.nextToken += 1
      state.inflight[id] = InFlight(token: state.nextToken, batch: batch, index: index)
      return state.nextToken
    }
    guard let token else {
      return deliver(
        .failure(id: id, .invalidRequest("Invalid request: id \(id) is already in use by a request in flight")),
        batch: batch, index: index)
    }
    handler.handle(
      request,
      reply: Reply { [weak self] result in
        guard let self else { return }
        let current = self.state.withLock { state in
          guard state.inflight[id]?.token == token else { return false }
          state.inflight[id] = nil
          return true
        }
        guard current else { return }  // cancelled (already answered) or answered twice
        self.deliver(.response(id: id, result: result), batch: batch, index: index)
        self.settleIfDue()
      })
  }

  private func notification(method: String, params: JSON?) {
    switch method {
    case ExitNotification.method:
      let first = state.withLock { state in
        guard state.lifecycle != .exited else { return false }
        state.lifecycle = .exited
        state.exitPending = true
        return true
      }
      if first { settleIfDue() }
    case CancelRequestNotification.method:
      guard let cancel = try? CancelRequestNotification(params: params) else { return }
      guard let entry = state.withLock({ $0.inflight.removeValue(forKey: cancel.id) }) else { return }
      // Answered now, in its batch slot or alone; the handler's later reply is discarded.
      deliver(.failure(id: cancel.id, .requestCancelled), batch: entry.batch, index: entry.index)
      handler.cancelled(cancel.id)
      settleIfDue()
    case InitializedNotification.method:
      return
    default:
      guard lifecycle == .initialized else { return }
      handler.handleNotification(method: method, params: params)
    }
  }

  /// Answers `shutdown` and calls `exit` if they waited for the last request in flight.
  private func settleIfDue() {
    let (shutdown, exits) = state.withLock { $0.takeDue() }
    if let shutdown { deliver(.success(id: shutdown.id, .null), batch: shutdown.batch, index: shutdown.index) }
    if exits { exit() }
  }

  private func deliver(_ message: Message, batch: BatchReply?, index: Int) {
    if let batch {
      batch.fill(index, with: message)
    } else {
      send(answerLimit.body(for: message))
    }
    onChange()
  }
}
