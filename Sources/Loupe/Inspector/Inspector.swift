import Foundation
import LoupeRPC
import Synchronization

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
/// Events still queued when the process exits are written first, for at most
/// ``InspectorConfiguration/exitFlushTimeout``.
public final class Inspector: Sendable {
  /// Where the inspector serves or records.
  public enum Channel: Sendable, Hashable {
    /// The process's own stdin/stdout (fd 1 is then pointed at stderr; fd 0 at /dev/null).
    case stdio
    /// A Unix-domain socket at this path (mode 0600, removed at exit); clients come and go.
    case unix(String)
    /// A trace file at this path (CONTRACT §7), written by the program itself.
    case record(String)
  }

  /// The inspector of ``EventBus/shared``, the one stores use.
  public static let shared = Inspector(bus: .shared)

  /// Starts `channel` on the shared inspector.
  public static func start(_ channel: Channel) throws(InspectorError) { try shared.start(channel) }

  public let bus: EventBus

  private struct State {
    var configuration = InspectorConfiguration()
    var hub: EventHub?
    var clients: [ObjectIdentifier: (client: InspectorClient, connection: Connection)] = [:]
    var listeners: [UnixSocketListener] = []
    var recorders: [TraceRecorder] = []
    var stdioStarted = false
  }

  private let state = Mutex(State())

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
      try serve(input: input, output: output)
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
      listener.start { [weak self] fd in
        guard let self else { return closeDescriptor(fd) }
        do {
          try self.serve(input: fd, output: fd)
        } catch {
          closeDescriptor(fd)
        }
      }
    case .record(let path):
      let configuration = self.configuration
      let recorder = try TraceRecorder(path: path, bus: bus, capacity: configuration.recordQueueCapacity)
      state.withLock { $0.recorders.append(recorder) }
      ExitFlush.register(self)
      bus.attach(recorder)
    }
  }

  /// Serves one client over `input`/`output` (which the inspector then owns): for custom
  /// transports and tests.
  public func serve(input: Int32, output: Int32) throws(InspectorError) {
    let configuration = self.configuration
    let connection: Connection
    do {
      connection = try Connection(
        input: input, output: output,
        options: .init(frameLimits: .init(maxBodySize: configuration.maxFrameBodySize)))
    } catch {
      throw InspectorError("Cannot set up a connection: \(error)")
    }
    let hub = startHub()
    let queue = ClientQueue(
      capacity: configuration.clientQueueCapacity, maxBatch: configuration.maxEventsPerNotification,
      wake: { [weak connection] in connection?.wakeWriter() })
    let client = InspectorClient(bus: bus, hub: hub, queue: queue)
    let key = ObjectIdentifier(client)
    state.withLock { $0.clients[key] = (client, connection) }
    ExitFlush.register(self)
    ServerSession.serve(client, on: connection, source: queue) { [weak self] _ in
      client.closed()
      self?.state.withLock { _ = $0.clients.removeValue(forKey: key) }
    }
  }

  /// The hub, attached to the bus on first use (which starts the session).
  private func startHub() -> EventHub {
    let (hub, isNew) = state.withLock { state in
      if let hub = state.hub { return (hub, false) }
      let hub = EventHub(historyCapacity: state.configuration.historyCapacity)
      state.hub = hub
      return (hub, true)
    }
    if isNew { bus.attach(hub) }
    return hub
  }

  /// Connected clients right now.
  public var clientCount: Int { state.withLock { $0.clients.count } }

  /// Waits until every client's queued events and every trace line are written, for at most
  /// `timeout`. Returns whether everything was flushed.
  @discardableResult
  public func flush(timeout: Duration) -> Bool {
    let deadline = ContinuousClock.now + timeout
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
    let (listeners, clients, recorders) = state.withLock { state in
      defer {
        state.listeners = []
        state.recorders = []
      }
      return (state.listeners, Array(state.clients.values), state.recorders)
    }
    for listener in listeners { listener.close() }
    for (_, connection) in clients { connection.close() }
    for recorder in recorders {
      recorder.flush(timeout: configuration.exitFlushTimeout)
      bus.detach(recorder)
      recorder.close()
    }
  }

  /// At exit: write what is queued (bounded), remove socket files, close trace files.
  func finishAtExit() {
    flush(timeout: configuration.exitFlushTimeout)
    let (listeners, recorders) = state.withLock { ($0.listeners, $0.recorders) }
    for listener in listeners { listener.close() }
    for recorder in recorders { recorder.close() }
  }
}

/// Why the inspector could not start a channel.
public struct InspectorError: Error, Sendable, Hashable, CustomStringConvertible {
  public var message: String
  public init(_ message: String) { self.message = message }
  public var description: String { message }
}
