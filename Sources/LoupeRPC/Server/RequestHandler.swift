import LoupeCore

/// The answer channel for one typed request: its result encoded as the request type says.
///
/// Answer exactly once, now or later, from any thread (later calls are ignored, as with
/// ``Reply``).
public struct TypedReply<R: RequestType>: Sendable {
  /// The id of the request being answered.
  public let id: RequestID
  let reply: Reply

  public init(id: RequestID, reply: Reply) {
    self.id = id
    self.reply = reply
  }

  /// Answers with `result`, encoded by ``RequestType/encodeResult(_:)``.
  public func callAsFunction(_ result: R.Result) { reply.success(R.encodeResult(result)) }
  public func failure(_ error: ResponseError) { reply.failure(error) }
}

/// A Loupe server: one typed handler per request of the protocol that is not the session's
/// (``ServerSession`` answers `initialize` and `shutdown` itself and calls ``ServerHandler``
/// for them).
///
/// ``dispatch(_:reply:)`` decodes the params of an ``IncomingRequest`` into its request type
/// (`-32602` when they do not fit), calls the handler for that type, and answers an unknown
/// method `-32601`: the live inspector and `loupe replay` both answer through it. The
/// default ``ServerHandler/handle(_:reply:)`` dispatches at once, on the reader thread; a
/// server that answers elsewhere (replay's work queue) calls ``dispatch(_:reply:)`` there.
///
/// A handler answers through `reply` exactly once, or throws the error to answer with.
///
/// ```swift
/// func handle(_ request: MarkRequest, reply: TypedReply<MarkRequest>) throws(ResponseError) {
///   reply(.init(seq: bus.emit(.mark(Mark(label: request.label)))))
/// }
/// ```
///
/// Adding a method: its request type in `Requests/` and ``MessageRegistry/requests``, a
/// requirement here, its line in ``RequestDispatch``, and the handler in each server.
public protocol RequestHandler: ServerHandler {
  func handle(_ request: SubscribeRequest, reply: TypedReply<SubscribeRequest>) throws(ResponseError)
  func handle(_ request: UnsubscribeRequest, reply: TypedReply<UnsubscribeRequest>) throws(ResponseError)
  func handle(_ request: StoresRequest, reply: TypedReply<StoresRequest>) throws(ResponseError)
  func handle(_ request: StateRequest, reply: TypedReply<StateRequest>) throws(ResponseError)
  func handle(_ request: MarkRequest, reply: TypedReply<MarkRequest>) throws(ResponseError)
  /// Control (CONTRACT §16): a server that cannot act on a program answers `-32004`.
  func handle(_ request: SendRequest, reply: TypedReply<SendRequest>) throws(ResponseError)
  func handle(_ request: SetStateRequest, reply: TypedReply<SetStateRequest>) throws(ResponseError)
}

extension RequestHandler {
  /// Answers `request` through its typed handler (see ``RequestDispatch``).
  public func dispatch(_ request: IncomingRequest, reply: Reply) {
    RequestDispatch.answer(request, with: self, reply: reply)
  }

  public func handle(_ request: IncomingRequest, reply: Reply) {
    dispatch(request, reply: reply)
  }
}
