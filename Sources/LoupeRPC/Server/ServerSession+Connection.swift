import LoupeCore

extension ServerSession {
  /// Serves `handler` on `connection`: frames go to a new session, answers go back out,
  /// `exit` finishes the connection (answers already queued are still written).
  ///
  /// - Parameters:
  ///   - source: what the writer sends when no answer is queued (events).
  ///   - onClose: called once when the connection has ended, for any reason.
  @discardableResult
  public static func serve(
    _ handler: any ServerHandler, on connection: Connection, source: (any OutgoingSource)? = nil,
    onClose: @escaping @Sendable (Connection.CloseReason) -> Void = { _ in }
  ) -> ServerSession {
    let session = ServerSession(
      handler: handler,
      send: { [weak connection] body in connection?.send(body: body) },
      exit: { [weak connection] in connection?.finish() },
      // Half of what may wait unwritten: the reader pauses past that (see Connection).
      maxAnswerBytes: connection.options.maxQueuedBytes / 2)
    connection.start(source: source, onFrame: { body in session.receive(body) }, onClose: onClose)
    return session
  }
}
