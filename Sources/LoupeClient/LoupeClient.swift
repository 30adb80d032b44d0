import Foundation
import LoupeCore
import LoupeRPC
import LoupeSession

/// A client of the Loupe protocol: what `loupe attach` and the tests use to talk to a program.
///
/// Get one by launching a program (``launch(_:environment:stderr:)``, which sets
/// `LOUPE=stdio` and talks over the child's stdin/stdout), by connecting to a program that
/// listens on a Unix socket (``connect(socketPath:)``), or over any pair of descriptors.
/// Then initialize, subscribe, and read ``events``:
///
/// ```swift
/// let client = try LoupeClient.launch(["./MyApp", "--flag"])
/// let info = try await client.initialize(clientName: "loupe")
/// _ = try await client.subscribe(SubscribeRequest(filter: filter, history: true))
/// for await event in client.events {       // ends when the connection closes
///   print(event.jsonText)
/// }
/// let status = await client.program?.waitForExit()
/// ```
///
/// Any request type of the protocol goes through ``send(_:)``; answers are matched by id, so
/// requests may overlap. Cancelling the awaiting task sends `$/cancelRequest`. Events arrive
/// in `seq` order on ``events`` (buffered without bound on this side: keep reading); other
/// notifications go to ``onNotification`` if set before ``start()``.
public final class LoupeClient: Sendable {
  public let connection: Connection
  /// The launched program, when this client launched one.
  public let program: LaunchedProgram?
  /// Every event the server sends, in order. Finishes when the connection closes.
  public let events: AsyncStream<Event>

  private let eventSink: AsyncStream<Event>.Continuation
  private struct State {
    var nextID = 0
    var pending: [RequestID: CheckedContinuation<Result<JSON, ClientError>, Never>] = [:]
    /// An error the server sent with id `null` (a refusal), reported when it closes.
    var serverError: ResponseError?
    var closeReason: Connection.CloseReason?
    var closeWaiters: [CheckedContinuation<Connection.CloseReason, Never>] = []
    var started = false
    var onNotification: (@Sendable (String, JSON?) -> Void)?
    var onFrame: (@Sendable ([UInt8]) -> Void)?
    var onRawEvents: (@Sendable (NotificationEventLines.Batch) -> Void)?
    var decodesEvents = true
    var onSend: (@Sendable (Message) -> Void)?
    /// Sent in `initialize` (TCP).
    var token: String?
  }
  private let state = Lock(State())

  /// A client over an existing connection (not started yet: call ``start()``; the factory
  /// methods do).
  public init(connection: Connection, program: LaunchedProgram? = nil) {
    self.connection = connection
    self.program = program
    (events, eventSink) = AsyncStream.makeStream(of: Event.self, bufferingPolicy: .unbounded)
  }

  /// Launches `command` (a path or a name looked up in `PATH`, then its arguments) with
  /// `LOUPE=stdio` added to `environment` (default: this process's), and connects to it.
  /// The program's stderr goes to `stderr` (default: this process's); it runs in `directory`
  /// (default: this process's working directory).
  public static func launch(
    _ command: [String], environment: [String: String]? = nil, stderr: FileHandle? = nil, directory: String? = nil
  ) throws(ClientError) -> LoupeClient {
    let (program, connection) = try LaunchedProgram.launch(command, environment: environment, stderr: stderr, directory: directory)
    let client = LoupeClient(connection: connection, program: program)
    client.start()
    return client
  }

  /// Connects to a program listening with `LOUPE=unix:PATH`.
  public static func connect(socketPath: String) throws(ClientError) -> LoupeClient {
    let fd: Int32
    do {
      fd = try UnixSocket.connect(to: socketPath)
    } catch {
      throw .launchFailed("Cannot connect to '\(socketPath)': \(error)")
    }
    do {
      let client = LoupeClient(connection: try Connection(input: fd, output: fd))
      client.start()
      return client
    } catch {
      throw .launchFailed("Cannot set up the connection: \(error)")
    }
  }

  /// Connects to a program listening with `LOUPE=tcp:HOST:PORT`; ``initialize(clientName:clientVersion:)``
  /// then sends `token` (CONTRACT §14).
  public static func connect(tcp endpoint: LoopbackEndpoint, token: String) throws(ClientError) -> LoupeClient {
    let fd: Int32
    do {
      fd = try LoopbackTCP.connect(to: endpoint)
    } catch {
      throw .launchFailed("Cannot connect to \(endpoint): \(error)")
    }
    do {
      let client = LoupeClient(connection: try Connection(input: fd, output: fd))
      client.state.withLock { $0.token = token }
      client.start()
      return client
    } catch {
      throw .launchFailed("Cannot set up the connection: \(error)")
    }
  }

  /// Called with the method and params of each notification other than `loupe/events`.
  /// Set it before ``start()`` (or use ``init(connection:program:)`` then set, then start).
  public var onNotification: (@Sendable (String, JSON?) -> Void)? {
    get { state.withLock { $0.onNotification } }
    set { state.withLock { $0.onNotification = newValue } }
  }

  /// Called with every raw frame body before it is decoded (for recording or bridging), but
  /// the `loupe/events` notifications handed to ``onRawEvents`` when that is set.
  public var onFrame: (@Sendable ([UInt8]) -> Void)? {
    get { state.withLock { $0.onFrame } }
    set { state.withLock { $0.onFrame = newValue } }
  }

  /// Called with the events of each `loupe/events` notification exactly as they came (each
  /// element of `params.events`, one JSON object per line, not decoded, in one buffer), before
  /// they are decoded onto ``events``. For writing them to a trace or a pipe unchanged.
  public var onRawEvents: (@Sendable (_ events: NotificationEventLines.Batch) -> Void)? {
    get { state.withLock { $0.onRawEvents } }
    set { state.withLock { $0.onRawEvents = newValue } }
  }

  /// Whether events are decoded onto ``events`` (default `true`). A client that only passes
  /// raw events on (``onRawEvents``) turns it off: decoding each event and handing it to a
  /// reading task costs most of such a client's time, and a stream nobody reads would grow
  /// without bound. ``events`` then just finishes when the connection closes.
  public var decodesEvents: Bool {
    get { state.withLock { $0.decodesEvents } }
    set { state.withLock { $0.decodesEvents = newValue } }
  }

  /// Called with every message this client sends (for transcripts and debugging).
  public var onSend: (@Sendable (Message) -> Void)? {
    get { state.withLock { $0.onSend } }
    set { state.withLock { $0.onSend = newValue } }
  }

  private func write(_ message: Message) {
    state.withLock { $0.onSend }?(message)
    connection.send(message)
  }

  /// Starts reading. Idempotent.
  public func start() {
    let first = state.withLock { state in
      defer { state.started = true }
      return !state.started
    }
    guard first else { return }
    connection.start(
      onFrame: { [weak self] body in self?.receive(body) },
      onClose: { [weak self] reason in self?.closed(reason) })
  }

  // MARK: - Requests

  /// Sends a request and waits for its answer.
  public func send<R: RequestType>(_ request: R) async throws(ClientError) -> R.Result {
    let json = try await send(method: R.method, params: request.params)
    do {
      return try R.decodeResult(json)
    } catch {
      throw .invalidResponse(error.message)
    }
  }

  /// Sends a request by method name and waits for its raw result.
  public func send(method: String, params: JSON?) async throws(ClientError) -> JSON {
    let id: RequestID = state.withLock { state in
      state.nextID += 1
      return .int(state.nextID)
    }
    let result = await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Result<JSON, ClientError>, Never>) in
        let closed: ClientError? = state.withLock { state in
          if let reason = state.closeReason { return state.serverError.map(ClientError.response) ?? .connectionClosed(reason) }
          state.pending[id] = continuation
          return nil
        }
        if let closed {
          continuation.resume(returning: .failure(closed))
        } else {
          write(.request(id: id, method: method, params: params))
        }
      }
    } onCancel: {
      write(CancelRequestNotification(id: id).message)
    }
    return try result.get()
  }

  /// Sends a notification.
  public func notify(_ notification: some NotificationType) {
    write(notification.message)
  }

  /// `initialize` then `initialized`: the handshake every session starts with.
  public func initialize(clientName: String, clientVersion: String? = nil) async throws(ClientError) -> InitializeResult {
    var request = InitializeRequest(clientInfo: .init(name: clientName, version: clientVersion))
    request.token = state.withLock { $0.token }
    let result = try await send(request)
    notify(InitializedNotification())
    return result
  }

  /// `loupe/subscribe`: events start flowing into ``events``. Returns how many buffered
  /// events are replayed first.
  @discardableResult
  public func subscribe(_ request: SubscribeRequest = SubscribeRequest()) async throws(ClientError) -> Int {
    try await send(request).history
  }

  /// `shutdown` then `exit`: leave politely. The program keeps running.
  public func shutdown() async throws(ClientError) {
    _ = try await send(ShutdownRequest())
    notify(ExitNotification())
  }

  /// Closes the connection now.
  public func close() { connection.close() }

  /// Waits until the connection has closed and returns why.
  public func waitUntilClosed() async -> Connection.CloseReason {
    await withCheckedContinuation { continuation in
      let reason: Connection.CloseReason? = state.withLock { state in
        if let reason = state.closeReason { return reason }
        state.closeWaiters.append(continuation)
        return nil
      }
      if let reason { continuation.resume(returning: reason) }
    }
  }

  // MARK: - Reading

  private func receive(_ body: [UInt8]) {
    let (onFrame, onRawEvents, decodesEvents) = state.withLock { ($0.onFrame, $0.onRawEvents, $0.decodesEvents) }
    // Event notifications, nearly every frame, sliced without decoding when that is enough.
    if onRawEvents != nil || !decodesEvents, let batch = NotificationEventLines.batch(inNotification: body) {
      onRawEvents?(batch)
      guard decodesEvents else { return }
      for line in batch.lines {
        if let json = try? JSONParser.parse(line), let event = try? Event(json: json) { eventSink.yield(event) }
      }
      return
    }
    onFrame?(body)
    switch IncomingBody.decode(body) {
    case .single(let item): receive(item)
    case .batch(let items): items.forEach(receive)
    }
  }

  private func receive(_ item: IncomingItem) {
    switch item {
    case .message(.response(let id?, let result)):
      let continuation = state.withLock { $0.pending.removeValue(forKey: id) }
      continuation?.resume(returning: result.mapError { ClientError.response($0) })
    case .message(.notification(EventsNotification.method, let params)):
      // Decode one event at a time so one bad event does not hide the others.
      guard state.withLock({ $0.decodesEvents }), let events = params?["events"]?.arrayValue else { return }
      for json in events {
        if let event = try? Event(json: json) { eventSink.yield(event) }
      }
    case .message(.notification(let method, let params)):
      state.withLock { $0.onNotification }?(method, params)
    case .message(.request(let id, _, _)):
      write(.failure(id: id, .methodNotFound("client methods")))
    case .message(.response(nil, .failure(let error))):
      // Sent alone, before the server closes: a refusal (`-32001`). Requests waiting when the
      // connection then closes fail with it, not with a bare "connection closed".
      state.withLock { $0.serverError = error }
    case .message(.response(nil, _)), .invalid:
      return  // an error about something we sent that had no readable id; nothing to resume
    }
  }

  private func closed(_ reason: Connection.CloseReason) {
    let (pending, waiters) = state.withLock { state in
      state.closeReason = reason
      defer {
        state.pending = [:]
        state.closeWaiters = []
      }
      return (Array(state.pending.values), state.closeWaiters)
    }
    let serverError = state.withLock { $0.serverError }
    for continuation in pending {
      continuation.resume(returning: .failure(serverError.map(ClientError.response) ?? .connectionClosed(reason)))
    }
    for waiter in waiters { waiter.resume(returning: reason) }
    eventSink.finish()
  }
}
