import Foundation
import LoupeCore
import LoupeRPC

/// The inspector in the program: serves the Loupe protocol to editors and the CLI, and records
/// trace files, from the events the program's stores emit.
///
/// Usually it turns itself on from the environment when the first store is created
/// (`LOUPE=stdio`, `LOUPE=unix:PATH`, `LOUPE_RECORD=FILE`, `LOUPE_REDACT=GLOB,...`; see
/// ``InspectorAutostart``). The same can be done in code, before or after stores exist:
///
/// ```swift
/// try Inspector.start(.unix("/tmp/myapp.loupe"))
/// try Inspector.start(.record("run.loupe"))
/// ```
///
/// Whatever the clients do, the program is never blocked or slowed beyond an append to memory
/// per event: each client has a bounded queue and its own writer thread, a client that stops
/// reading loses events (reported as `dropped`), and a client that vanishes is forgotten.
/// When the process exits, the inspector finishes its clients' business first, for at most
/// ``InspectorConfiguration/exitFlushTimeout``: see ``finishAtExit()``.
public final class Inspector: Sendable {
  /// Where the inspector serves or records.
  public enum Channel: Sendable, Hashable {
    /// The process's own stdin/stdout (fd 1 is then pointed at stderr; fd 0 at /dev/null).
    case stdio
    /// A Unix-domain socket at this path (mode 0600, removed at exit); clients come and go.
    case unix(String)
    /// A trace file at this path (CONTRACT §7), written by the program itself.
    case record(String)
    /// TCP on a loopback host (CONTRACT §14), for clients that come through a tunnel; each
    /// must open with `initialize` carrying `token`. See ``startTCP(on:token:)``.
    case tcp(LoopbackEndpoint, token: String)
  }

  /// The inspector of ``EventBus/shared``, the one stores use.
  public static let shared = Inspector(bus: .shared)

  /// Starts `channel` on the shared inspector.
  public static func start(_ channel: Channel) throws(InspectorError) { try shared.start(channel) }

  public let bus: EventBus

  private struct State {
    var configuration = InspectorConfiguration()
    var hub: EventHub?
    var clients: [ObjectIdentifier: ServedClient] = [:]
    var listeners: [UnixSocketListener] = []
    var tcpListeners: [TCPListener] = []
    var recorders: [TraceRecorder] = []
    var stdioStarted = false
  }

  private let state = Lock(State())
  /// Wakes ``finishAtExit()`` when a client's state changes.
  private let activity = ClientActivity()

  public init(bus: EventBus) {
    self.bus = bus
  }

  /// Sizes and timeouts; changes apply to what starts afterwards.
  public var configuration: InspectorConfiguration {
    get { state.withLock { $0.configuration } }
    set { state.withLock { $0.configuration = newValue } }
  }

  /// Starts serving or recording on `channel`. Several channels may run at once.
  public func start(_ channel: Channel) throws(InspectorError) {
    switch channel {
    case .stdio:
      let claimed = state.withLock { state in
        defer { state.stdioStarted = true }
        return !state.stdioStarted
      }
      guard claimed else { throw InspectorError("The stdio channel is already in use") }
      let (input, output) = try StdioChannel.takeOver()
      try serve(input: input, output: output, origin: .launcher)
    case .unix(let path):
      let listener: UnixSocketListener
      do {
        listener = try UnixSocketListener(path: path)
      } catch {
        throw InspectorError("Cannot listen on '\(path)': \(error)")
      }
      state.withLock { $0.listeners.append(listener) }
      ExitFlush.register(self)
      // Buffer from now on, so a client that connects later can ask for everything.
      _ = startHub()
      listener.start(refusal: Self.outOfDescriptors, threadNiceness: configuration.threadNiceness) { [weak self] fd in
        guard let self else { return closeDescriptor(fd) }
        self.serveAccepted(fd, gate: nil)
      }
    case .tcp(let endpoint, let token):
      _ = try startTCP(on: endpoint, token: token)
    case .record(let path):
      let configuration = self.configuration
      let recorder = try TraceRecorder(
        path: path, bus: bus, capacity: configuration.recordQueueCapacity, byteCapacity: configuration.recordQueueByteLimit,
        threadNiceness: configuration.threadNiceness)
      state.withLock { $0.recorders.append(recorder) }
      ExitFlush.register(self)
      AppLifecycleFlush.watch(self)
      bus.attach(recorder)
    }
  }

  /// Listens on TCP at `endpoint` (a loopback host; port 0 picks a free one) and returns where
  /// it listens. Every client must open with `initialize` carrying `token` (``TokenGate``);
  /// the others get `-32003` and are closed.
  @discardableResult
  public func startTCP(on endpoint: LoopbackEndpoint, token: String) throws(InspectorError) -> LoopbackEndpoint {
    let listener: TCPListener
    do {
      listener = try TCPListener(endpoint: endpoint)
    } catch {
      throw InspectorError("\(error)")
    }
    state.withLock { $0.tcpListeners.append(listener) }
    ExitFlush.register(self)
    _ = startHub()
    listener.start(refusal: Self.outOfDescriptors, threadNiceness: configuration.threadNiceness) { [weak self] fd in
      guard let self else { return closeDescriptor(fd) }
      self.serveAccepted(fd, gate: TokenGate(token: token))
    }
    return listener.endpoint
  }

  private static let outOfDescriptors = ClientRefusal.frame("This program is out of file descriptors: try again later")

  /// A client a listener accepted (a Unix socket's, or TCP's with its token gate): refused
  /// when the program has too many, otherwise served.
  private func serveAccepted(_ fd: Int32, gate: TokenGate?) {
    if let refusal = refusal(for: fd) { return ClientRefusal.send(refusal, to: fd) }
    do {
      try serve(input: fd, output: fd, origin: .socket, gate: gate)
    } catch {
      ClientRefusal.send(ClientRefusal.frame("This program cannot serve a client now (\(error)): try again later"), to: fd)
    }
  }

  /// Serves one client over `input`/`output` (which the inspector then owns): for custom
  /// transports and tests. At exit it is treated like the `LOUPE=stdio` client (see
  /// ``finishAtExit()``).
  public func serve(input: Int32, output: Int32) throws(InspectorError) {
    try serve(input: input, output: output, origin: .launcher)
  }

  private func serve(input: Int32, output: Int32, origin: ServedClient.Origin, gate: TokenGate? = nil) throws(InspectorError) {
    let configuration = self.configuration
    let connection: Connection
    do {
      connection = try Connection(
        input: input, output: output,
        options: .init(
          frameLimits: .init(maxBodySize: configuration.maxFrameBodySize), threadNiceness: configuration.threadNiceness,
          // Socket clients come and go, and may stay silent: no thread until one speaks.
          waitsOnSharedThread: origin == .socket))
    } catch {
      throw InspectorError("Cannot set up a connection: \(error)")
    }
    let hub = startHub()
    let queue = ClientSubscription(
      hub: hub, capacity: configuration.clientQueueCapacity, byteCapacity: configuration.clientQueueByteLimit,
      maxBatch: configuration.maxEventsPerNotification,
      wake: { [weak connection] in connection?.wakeWriter() })
    let activity = self.activity
    let handler = InspectorClient(
      bus: bus, hub: hub, queue: queue, onSubscribe: activity.changed,
      allowsControl: { [weak self] in self?.configuration.allowsControl ?? false })
    let session = ServerSession(
      handler: handler,
      send: { [weak connection] body in connection?.send(body: body) },
      // After every answer (ServerSession waits for them): the events queued so far, then close.
      // A client that never subscribed has no events to drain: it ends without a writer
      // (hundreds of idle clients leaving at once must not start hundreds of threads).
      exit: { [weak connection] in
        hub.unsubscribe(queue, keepingQueued: true)
        connection?.finish(drainingSource: handler.hasSubscribed)
      },
      onChange: activity.changed,
      // Half of what may wait unwritten: the reader pauses past that (see Connection).
      maxAnswerBytes: connection.options.maxQueuedBytes / 2)
    let client = ServedClient(
      handler: handler, connection: connection, session: session, origin: origin, connectedAt: .now,
      isTerminal: LibC.isTerminal(input))
    let key = ObjectIdentifier(client)
    state.withLock { $0.clients[key] = client }
    ExitFlush.register(self)
    connection.start(
      source: queue,
      onFrame: { [weak connection] body in
        guard let gate else { return session.receive(body) }
        switch gate.check(body) {
        case .pass(let admitted): session.receive(admitted)
        case .refuse(let answer):
          connection?.send(body: answer)
          connection?.finish(drainingSource: false)
        case .drop: break
        }
      },
      // A client that closes its end after its last request still gets the answers.
      onEndOfInput: { session.inputEnded() },
      onClose: { [weak self] _ in
        handler.closed()
        self?.state.withLock { _ = $0.clients.removeValue(forKey: key) }
        activity.changed()
      })
  }

  /// Why the socket client on `fd` cannot be served, as the frame that tells it; `nil` when
  /// it can. Served clients are bounded by ``InspectorConfiguration/maxClients``, and by the
  /// descriptors the program needs for itself (``InspectorConfiguration/reservedDescriptors``).
  private func refusal(for fd: Int32) -> [UInt8]? {
    let (configuration, socketClients) = state.withLock { state in
      (state.configuration, state.clients.values.count { $0.origin == .socket })
    }
    if socketClients >= configuration.maxClients {
      return ClientRefusal.frame(
        "This program serves at most \(configuration.maxClients) clients at once (LOUPE_MAX_CLIENTS): try again when one has left")
    }
    // A connection takes 4 more descriptors (its wake pipes); descriptors are handed out
    // lowest first, so `fd` tells how many are in use.
    let limit = ClientRefusal.descriptorLimit
    let reserved = configuration.reservedDescriptors ?? max(64, limit / 8)
    if limit != .max, Int(fd) + 4 + reserved >= limit {
      return ClientRefusal.frame(
        "This program keeps its last \(reserved) of \(limit) file descriptors for itself: try again when a client has left")
    }
    return nil
  }

  /// The hub, attached to the bus on first use (which starts the session).
  private func startHub() -> EventHub {
    let (hub, isNew) = state.withLock { state in
      if let hub = state.hub { return (hub, false) }
      let hub = EventHub(
        historyCapacity: state.configuration.historyCapacity, historyByteLimit: state.configuration.historyByteLimit,
        threadNiceness: state.configuration.threadNiceness)
      state.hub = hub
      return (hub, true)
    }
    if isNew { bus.attach(hub) }
    return hub
  }

  /// The connections of the clients connected right now (tests).
  var servedConnections: [Connection] { state.withLock { $0.clients.values.map(\.connection) } }

  /// Connected clients right now.
  public var clientCount: Int { state.withLock { $0.clients.count } }

  /// Waits until every client's queued events and every trace line are written, for at most
  /// `timeout`. Returns whether everything was flushed.
  @discardableResult
  public func flush(timeout: Duration) -> Bool {
    flush(until: .now + timeout)
  }

  /// Writes every recorded event queued so far to its trace file (`LOUPE_RECORD`, or
  /// ``Channel/record(_:)``), waiting at most `timeout`; returns whether all of it is written.
  ///
  /// For apps the system suspends: iOS may end a suspended app without `exit`, when no
  /// `atexit` flush runs. On UIKit platforms Loupe calls this itself when the app resigns
  /// active or enters the background; call it wherever else your app saves its state (a
  /// watchOS app's `WKApplicationDelegate`, a scene phase change in SwiftUI).
  @discardableResult
  public func flushRecordings(timeout: Duration = .seconds(1)) -> Bool {
    let deadline = ContinuousClock.now + timeout
    let recorders = state.withLock { $0.recorders }
    var flushed = true
    for recorder in recorders {
      flushed = recorder.flush(timeout: max(.zero, deadline - .now)) && flushed
    }
    return flushed
  }

  /// ``flushRecordings(timeout:)`` of the shared inspector, the one `LOUPE_RECORD` starts:
  /// `Inspector.flushRecording()`.
  @discardableResult
  public static func flushRecording(timeout: Duration = .seconds(1)) -> Bool {
    shared.flushRecordings(timeout: timeout)
  }

  @discardableResult
  private func flush(until deadline: ContinuousClock.Instant) -> Bool {
    let (connections, recorders) = state.withLock { ($0.clients.values.map(\.connection), $0.recorders) }
    var flushed = true
    for connection in connections {
      flushed = connection.flush(timeout: max(.zero, deadline - .now)) && flushed
    }
    for recorder in recorders {
      flushed = recorder.flush(timeout: max(.zero, deadline - .now)) && flushed
    }
    return flushed
  }

  /// Stops listening, closes every client and finishes trace files. The program goes on.
  public func stop() {
    let tcpListeners = state.withLock { state in
      defer { state.tcpListeners = [] }
      return state.tcpListeners
    }
    for listener in tcpListeners { listener.close() }
    let (listeners, clients, recorders) = state.withLock { state in
      defer {
        state.listeners = []
        state.recorders = []
      }
      return (state.listeners, Array(state.clients.values), state.recorders)
    }
    for listener in listeners { listener.close() }
    for client in clients { client.connection.close() }
    for recorder in recorders {
      recorder.flush(timeout: configuration.exitFlushTimeout)
      bus.detach(recorder)
      recorder.close()
    }
  }

  /// At exit (`atexit`), within ``InspectorConfiguration/exitFlushTimeout`` in all:
  ///
  /// 1. stop accepting socket clients (the socket file is removed);
  /// 2. keep serving the clients already connected while one of them still has a request
  ///    whose answer is not queued, or may still subscribe: a client that has not subscribed
  ///    yet — launched with the program (`LOUPE=stdio`) and not a terminal, or on the socket
  ///    and connected less than the timeout before the exit — gets its `loupe/subscribe`
  ///    answered with the whole history;
  /// 3. write what is queued for every client and trace file, then close the trace files.
  ///
  /// When the process exits on the main thread the main actor never runs again, so
  /// `loupe/state` is answered with an error from then on instead of waiting for it.
  func finishAtExit() {
    let timeout = configuration.exitFlushTimeout
    let exitStart = ContinuousClock.now
    let deadline = exitStart + timeout
    let (listeners, tcpListeners) = state.withLock { state in
      defer {
        state.listeners = []
        state.tcpListeners = []
      }
      return (state.listeners, state.tcpListeners)
    }
    for listener in listeners { listener.close() }
    for listener in tcpListeners { listener.close() }
    let clients = state.withLock { Array($0.clients.values) }
    if Thread.isMainThread {
      for client in clients { client.handler.mainActorStopped() }
    }
    _ = activity.wait(until: deadline) {
      !clients.contains { $0.holdsExit(exitStart: exitStart, window: timeout) }
    }
    flush(until: deadline)
    for recorder in state.withLock({ $0.recorders }) { recorder.close() }
  }
}

/// Why the inspector could not start a channel.
public struct InspectorError: Error, Sendable, Hashable, CustomStringConvertible {
  public var message: String
  public init(_ message: String) { self.message = message }
  public var description: String { message }
}
