import LoupeCore
import LoupeRPC
import Synchronization

/// A server handler for the harnesses: it decodes the params of every request with the real
/// request types (filters, globs and state paths included) and answers at once, except
/// `loupe/stores`, which it keeps in flight until ``finish()`` so `$/cancelRequest` and late
/// answers are exercised too. `loupe/mark` is answered twice (the second must be dropped).
final class FuzzHandler: ServerHandler {
  private let pending = Mutex<[Reply]>([])

  func initialize(_ request: InitializeRequest) -> InitializeResult {
    InitializeResult(serverInfo: .init(name: "fuzz", version: "0"), process: .init(pid: 1, name: "fuzz"))
  }

  func handle(_ request: IncomingRequest, reply: Reply) {
    do {
      switch request.method {
      case SubscribeRequest.method:
        let subscribe = try request.decode(SubscribeRequest.self)
        for event in sampleEvents { _ = subscribe.filter.matches(event) }
        guard (try? SubscribeRequest(params: subscribe.params)) == subscribe else {
          fuzzFailure("subscribe params do not round-trip: \(subscribe)")
        }
        reply(SubscribeRequest.self, .init(history: 0))
      case UnsubscribeRequest.method:
        _ = try request.decode(UnsubscribeRequest.self)
        reply(UnsubscribeRequest.self, NullResult())
      case StoresRequest.method:
        _ = try request.decode(StoresRequest.self)
        pending.withLock { $0.append(reply) }
      case StateRequest.method:
        let state = try request.decode(StateRequest.self)
        let path = try state.statePath()
        reply(StateRequest.self, .init(store: state.store, seq: 0, state: .string(path?.description ?? "")))
      case MarkRequest.method:
        let mark = try request.decode(MarkRequest.self)
        reply(MarkRequest.self, .init(seq: mark.label.utf8.count))
        reply(MarkRequest.self, .init(seq: -1))
      default:
        reply.failure(.methodNotFound(request.method))
      }
    } catch {
      reply.failure(error)
    }
  }

  /// Answers the requests kept in flight.
  func finish() {
    for reply in pending.withLock({ $0 }) { reply(StoresRequest.self, []) }
  }

  private let sampleEvents: [Event] = [
    Event(seq: 1, time: 0, payload: .mark(Mark(label: "m"))),
    Event(seq: 2, time: 1, payload: .dropped(Dropped(count: 3))),
    Event(
      seq: 3, time: 2,
      payload: .storeCreated(StoreCreated(store: "App#1/pages[id: 2]", type: "Page", parent: "App#1", identity: "i1"))),
  ]
}

/// Collects what a session sends and checks each body is a well-formed JSON-RPC response (or
/// a non-empty array of them).
final class SentBodies: Sendable {
  private let storage = Mutex<[[UInt8]]>([])

  func append(_ body: [UInt8]) { storage.withLock { $0.append(body) } }

  var bodies: [[UInt8]] { storage.withLock { $0 } }

  func check() {
    for body in bodies {
      guard let json = try? JSONParser.parse(body) else { fuzzFailure("the server sent invalid JSON") }
      let items = json.arrayValue ?? [json]
      guard !items.isEmpty else { fuzzFailure("the server sent an empty batch answer") }
      for item in items {
        guard item["jsonrpc"] == .string("2.0"), item["method"] == nil, let id = item["id"] else {
          fuzzFailure("not a response: \(item.jsonText)")
        }
        guard id.isNull || RequestID(json: id) != nil else { fuzzFailure("bad id: \(item.jsonText)") }
        guard (item["result"] != nil) != (item["error"] != nil) else { fuzzFailure("result xor error: \(item.jsonText)") }
        if let error = item["error"], ResponseError(json: error) == nil { fuzzFailure("bad error: \(item.jsonText)") }
      }
    }
  }
}
