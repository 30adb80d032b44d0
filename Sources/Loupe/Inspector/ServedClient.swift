import LoupeRPC

/// A client the inspector serves, with what the exit handler needs to know about it.
final class ServedClient: Sendable {
  /// How the client reached the program.
  enum Origin: Sendable, Hashable {
    /// `LOUPE=stdio`, or a transport given to ``Inspector/serve(input:output:)``: a client
    /// that launched the program (or was handed to it) and is expected to speak from its start.
    case launcher
    /// An accepted `LOUPE=unix:` connection: clients come and go during the program's life.
    case socket
  }

  let handler: InspectorClient
  let connection: Connection
  let session: ServerSession
  let origin: Origin
  let connectedAt: ContinuousClock.Instant
  /// The client's side is a terminal: a person, not a program speaking the protocol, so it
  /// will never subscribe.
  let isTerminal: Bool

  init(
    handler: InspectorClient, connection: Connection, session: ServerSession, origin: Origin,
    connectedAt: ContinuousClock.Instant, isTerminal: Bool
  ) {
    self.handler = handler
    self.connection = connection
    self.session = session
    self.origin = origin
    self.connectedAt = connectedAt
    self.isTerminal = isTerminal
  }

  /// Whether the process, exiting since `exitStart` and allowed to wait `window`, should keep
  /// serving this client before the final flush: it has a request whose answer is not queued
  /// yet, or it may still subscribe (see ``awaitsSubscription(exitStart:window:)``).
  func holdsExit(exitStart: ContinuousClock.Instant, window: Duration) -> Bool {
    guard connection.isReading else { return false }  // gone, or leaving: nothing more will come
    return session.hasUnansweredRequests || awaitsSubscription(exitStart: exitStart, window: window)
  }

  /// A client that has not subscribed yet but may: connected, not a terminal, not shutting
  /// down, never subscribed — and, for a socket client, connected less than `window` before
  /// the exit began (one still in its handshake, not one that only queries).
  func awaitsSubscription(exitStart: ContinuousClock.Instant, window: Duration) -> Bool {
    guard !isTerminal, !handler.hasSubscribed else { return false }
    switch session.lifecycle {
    case .uninitialized, .initialized: break
    case .shutDown, .exited: return false
    }
    switch origin {
    case .launcher: return true
    case .socket: return exitStart - connectedAt < window
    }
  }
}
