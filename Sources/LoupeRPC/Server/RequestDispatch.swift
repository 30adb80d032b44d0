import LoupeCore

/// Which handler answers each request of ``MessageRegistry/requests``, by method: the one
/// table of the protocol's requests after `initialize`.
///
/// `initialize` and `shutdown` are the session's (``ServerSession/lifecycleRequests``); every
/// other request type has one route here to its ``RequestHandler`` requirement. A method with
/// no route is answered `-32601` here, and only here.
enum RequestDispatch {
  /// Decodes a request's params and calls its handler.
  typealias Route = @Sendable (any RequestHandler, IncomingRequest, Reply) throws(ResponseError) -> Void

  private static let routes: [String: Route] = Dictionary(uniqueKeysWithValues: [
    route(SubscribeRequest.self) { handler, request, reply throws(ResponseError) in
      try handler.handle(request, reply: reply)
    },
    route(UnsubscribeRequest.self) { handler, request, reply throws(ResponseError) in
      try handler.handle(request, reply: reply)
    },
    route(StoresRequest.self) { handler, request, reply throws(ResponseError) in
      try handler.handle(request, reply: reply)
    },
    route(StateRequest.self) { handler, request, reply throws(ResponseError) in
      try handler.handle(request, reply: reply)
    },
    route(MarkRequest.self) { handler, request, reply throws(ResponseError) in
      try handler.handle(request, reply: reply)
    },
    route(SendRequest.self) { handler, request, reply throws(ResponseError) in
      try handler.handle(request, reply: reply)
    },
    route(SetStateRequest.self) { handler, request, reply throws(ResponseError) in
      try handler.handle(request, reply: reply)
    },
  ])

  /// The methods routed to a ``RequestHandler``.
  static var methods: Set<String> { Set(routes.keys) }

  /// Decodes `request`'s params and calls `handler`'s handler for its type; a decoding error,
  /// a thrown error or an unknown method is answered through `reply`.
  static func answer(_ request: IncomingRequest, with handler: any RequestHandler, reply: Reply) {
    guard let route = routes[request.method] else {
      return reply.failure(.methodNotFound(request.method))
    }
    do {
      try route(handler, request, reply)
    } catch {
      reply.failure(error)
    }
  }

  /// A route that decodes the params as `R` and answers with `R`'s result.
  private static func route<R: RequestType>(
    _ type: R.Type,
    _ call: @escaping @Sendable (any RequestHandler, R, TypedReply<R>) throws(ResponseError) -> Void
  ) -> (String, Route) {
    (R.method, { handler, request, reply throws(ResponseError) in
      try call(handler, request.decode(R.self), TypedReply(id: request.id, reply: reply))
    })
  }
}
