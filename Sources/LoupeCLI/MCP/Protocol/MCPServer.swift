import LoupeCore
import LoupeRPC

/// The MCP server behind `loupe mcp`: reads JSON-RPC messages, follows MCP's lifecycle and
/// dispatches requests to their method family (``LifecycleMethods``, ``ToolMethods``).
///
/// - Each request runs in a task of its own, so a slow tool (launching a program) does not hold
///   up a `ping`; answers carry the request's id. `notifications/cancelled` cancels one.
/// - Protocol errors (unparseable lines, unknown methods, a request before `initialize`) are
///   JSON-RPC errors; the server goes on serving after every one of them.
/// - Nothing but protocol messages is written to `send`: logging goes to standard error.
final class MCPServer: Sendable {
  struct State {
    /// The revision `initialize` settled on, once it has been answered.
    var handshakeVersion: String?
    var clientName: String?
    /// Whether `notifications/initialized` came.
    var clientReady = false
    var inFlight: [RequestID: Task<Void, Never>] = [:]
    /// The newest tool request; the next one waits for it.
    var lastOrdered: Task<Void, Never>?
    var ended = false
  }

  let state = Lock(State())
  let tools: ToolBox
  private let sendLine: @Sendable ([UInt8]) -> Void
  let log: @Sendable (String) -> Void

  /// - Parameters:
  ///   - send: writes one message (compact JSON, no line break) to the client.
  ///   - log: writes one line of diagnostics to standard error.
  init(tools: ToolBox, send: @escaping @Sendable ([UInt8]) -> Void, log: @escaping @Sendable (String) -> Void) {
    self.tools = tools
    self.sendLine = send
    self.log = log
  }

  func send(_ message: Message) {
    sendLine(message.body)
  }

  // MARK: Input

  /// One line from the client.
  func receive(_ line: [UInt8]) {
    switch IncomingBody.decode(line) {
    case .single(let item):
      receive(item)
    case .batch:
      // MCP (since 2025-06-18) has no JSON-RPC batches.
      send(.failure(id: nil, .invalidRequest("Invalid request: MCP does not use JSON-RPC batches; send one message per line")))
    }
  }

  /// A line over ``LineChannel/maximumLineLength``, skipped.
  func receiveOversizedLine(length: Int) {
    send(.failure(id: nil, .parseError("Parse error: a message of \(length) bytes is over the limit of \(LineChannel.maximumLineLength); skipped")))
  }

  private func receive(_ item: IncomingItem) {
    switch item {
    case .invalid(let id, let error):
      log("loupe mcp: \(error.message)")
      send(.failure(id: id, error))
    case .message(.request(let id, let method, let params)):
      start(id: id, method: method, params: params)
    case .message(.notification(let method, let params)):
      notification(method, params)
    case .message(.response):
      break  // this server sends no requests
    }
  }

  private func start(id: RequestID, method: String, params: JSON?) {
    // Tool calls run one after another in the order they came (a call may use the session
    // the one before it opened); the lifecycle methods are answered at once.
    let ordered = method == ToolMethods.call || method == ToolMethods.list
    let started = state.withLock { state in
      guard state.inFlight[id] == nil else { return false }
      let previous = ordered ? state.lastOrdered : nil
      let task = Task { [self] in
        await previous?.value
        let message: Message
        do throws(ResponseError) {
          try Task.checkCancellation(orThrow: .requestCancelled)
          message = .success(id: id, try await answer(method: method, params: params))
        } catch {
          message = .failure(id: id, error)
        }
        let current = self.state.withLock { $0.inFlight.removeValue(forKey: id) != nil }
        // A cancelled request is not answered (MCP: the receiver SHOULD NOT respond).
        if current { send(message) }
      }
      state.inFlight[id] = task
      if ordered { state.lastOrdered = task }
      return true
    }
    if !started {
      send(.failure(id: id, .invalidRequest("Invalid request: id \(id) is already in use by a request in progress")))
    }
  }

  private func notification(_ method: String, _ params: JSON?) {
    switch method {
    case "notifications/initialized":
      state.withLock { $0.clientReady = true }
    case "notifications/cancelled":
      guard let raw = params?["requestId"], let id = RequestID(json: raw) else { return }
      let task = state.withLock { $0.inFlight.removeValue(forKey: id) }
      task?.cancel()
    default:
      break  // unknown notifications are ignored
    }
  }

  /// Routes a request to its method family. `initialize`, `ping` and `server/discover` work at
  /// any time; everything else needs the handshake or the `2026-07-28` envelope.
  private func answer(method: String, params: JSON?) async throws(ResponseError) -> JSON {
    let era = try era(of: method, params: params)
    switch method {
    case LifecycleMethods.initialize:
      return try LifecycleMethods.initialize(params, server: self)
    case LifecycleMethods.ping:
      return LifecycleMethods.result([:], era: era)
    case LifecycleMethods.discover:
      return LifecycleMethods.discover(era: era)
    case ToolMethods.list:
      return ToolMethods.list(tools: tools, era: era)
    case ToolMethods.call:
      return try await ToolMethods.call(params, tools: tools, era: era)
    default:
      throw .methodNotFound(method)
    }
  }

  /// How this request reached us: with the `2026-07-28` envelope in `params._meta`, or inside
  /// the `initialize`d session.
  private func era(of method: String, params: JSON?) throws(ResponseError) -> RequestEra? {
    if let meta = params?["_meta"], let requested = meta[MCPProtocolVersion.versionKey] {
      guard let version = requested.stringValue, MCPProtocolVersion.modern.contains(version) else {
        throw .unsupportedProtocolVersion(requested.stringValue ?? requested.jsonText)
      }
      guard meta[MCPProtocolVersion.capabilitiesKey]?.objectValue != nil else {
        throw .invalidParams(
          "Invalid params: a \(version) request needs '\(MCPProtocolVersion.capabilitiesKey)' (an object) in params._meta")
      }
      return .modern(version: version)
    }
    if let version = state.withLock({ $0.handshakeVersion }) { return .handshake(version: version) }
    switch method {
    case LifecycleMethods.initialize, LifecycleMethods.ping, LifecycleMethods.discover: return nil
    default: throw .notInitialized
    }
  }

  // MARK: End

  /// The client closed its end: answer every request it sent (a client may write its requests
  /// and close its end before reading), then close every session, ending the programs this
  /// server launched.
  func inputEnded() async {
    let tasks = state.withLock { state in
      state.ended = true
      return Array(state.inFlight.values) + (state.lastOrdered.map { [$0] } ?? [])
    }
    for task in tasks { await task.value }
    await tools.sessions.closeAll()
  }
}

extension Task where Success == Never, Failure == Never {
  /// Throws `error` when the current task is cancelled.
  static func checkCancellation(orThrow error: ResponseError) throws(ResponseError) {
    if Task<Never, Never>.isCancelled { throw error }
  }
}
