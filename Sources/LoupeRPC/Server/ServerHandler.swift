import LoupeCore

/// A request the server session has validated and passed the lifecycle checks.
public struct IncomingRequest: Sendable {
  public var id: RequestID
  public var method: String
  public var params: JSON?

  public init(id: RequestID, method: String, params: JSON?) {
    self.id = id
    self.method = method
    self.params = params
  }

  /// The typed request, or `-32602` naming what is wrong with the params.
  public func decode<R: RequestType>(_ type: R.Type) throws(ResponseError) -> R {
    try R(params: params)
  }
}

/// The answer channel for one request. Call it exactly once, from any thread; later calls and
/// calls after the request was cancelled are ignored.
public struct Reply: Sendable {
  let deliver: @Sendable (Result<JSON, ResponseError>) -> Void

  public init(_ deliver: @escaping @Sendable (Result<JSON, ResponseError>) -> Void) {
    self.deliver = deliver
  }

  public func callAsFunction(_ result: Result<JSON, ResponseError>) { deliver(result) }
  public func success(_ result: JSON) { deliver(.success(result)) }
  public func failure(_ error: ResponseError) { deliver(.failure(error)) }

  /// Answers with a typed result.
  public func callAsFunction<R: RequestType>(_ type: R.Type, _ result: R.Result) {
    deliver(.success(R.encodeResult(result)))
  }
}

/// What a server does for its methods. ``ServerSession`` handles everything generic — framing
/// errors, batches, `initialize`/`shutdown`/`exit`, `-32002` before initialize, `-32600` after
/// shutdown, `$/cancelRequest` — and calls the handler only for the rest. A Loupe server is a
/// ``RequestHandler``, which answers the rest by request type.
public protocol ServerHandler: AnyObject, Sendable {
  /// The `initialize` result for this connection.
  func initialize(_ request: InitializeRequest) -> InitializeResult
  /// A request other than `initialize` and `shutdown`, after `initialize`. Answer through
  /// `reply` exactly once (now or later, from any thread); unknown methods answer
  /// ``ResponseError/methodNotFound(_:)``.
  func handle(_ request: IncomingRequest, reply: Reply)
  /// A notification other than the lifecycle ones (`initialized`, `exit`, `$/cancelRequest`).
  func handleNotification(method: String, params: JSON?)
  /// The client asked for `shutdown` (queue no new events for it; it will `exit`). Called
  /// before `shutdown` is answered.
  func shutdown()
  /// The request `id` was cancelled before it completed (it has been answered `-32800`).
  func cancelled(_ id: RequestID)
}

extension ServerHandler {
  public func handleNotification(method: String, params: JSON?) {}
  public func shutdown() {}
  public func cancelled(_ id: RequestID) {}
}
