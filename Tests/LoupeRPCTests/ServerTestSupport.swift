import LoupeCore
@testable import LoupeRPC
import Synchronization

/// A handler with two real methods (`loupe/mark`, `loupe/stores`) and `test/slow`, which
/// answers only when the test says so (for cancellation).
final class TestHandler: ServerHandler, Sendable {
  let seq = Lock(0)
  let slow = Lock<[RequestID: Reply]>([:])
  let cancelledIDs = Lock<[RequestID]>([])
  let shutdowns = Lock(0)

  func initialize(_ request: InitializeRequest) -> InitializeResult {
    InitializeResult(serverInfo: .init(name: "test", version: "0"), process: .init(pid: 1, name: "test"))
  }

  func handle(_ request: IncomingRequest, reply: Reply) {
    do {
      switch request.method {
      case MarkRequest.method:
        _ = try request.decode(MarkRequest.self)
        let seq = seq.withLock { seq in
          seq += 1
          return seq
        }
        reply(MarkRequest.self, .init(seq: seq))
      case StoresRequest.method:
        reply(StoresRequest.self, [StoreInfo(id: "App#1", type: "App", parent: nil, identity: "App#1@1")])
      case "test/kilobyte":
        reply.success(.string(String(repeating: "k", count: 1_000)))
      case "test/slow":
        slow.withLock { $0[request.id] = reply }
      default:
        reply.failure(.methodNotFound(request.method))
      }
    } catch {
      reply.failure(error)
    }
  }

  func shutdown() { shutdowns.withLock { $0 += 1 } }
  func cancelled(_ id: RequestID) { cancelledIDs.withLock { $0.append(id) } }

  func finishSlow(_ id: RequestID, with result: JSON) {
    slow.withLock { $0.removeValue(forKey: id) }?.success(result)
  }
}

/// A session plus everything it sent, parsed.
final class SessionHarness: Sendable {
  final class Output: Sendable {
    let sent = Lock<[JSON]>([])
    let exits = Lock(0)
  }

  let handler = TestHandler()
  let output = Output()
  let session: ServerSession
  var sentMessages: [JSON] { output.sent.withLock { $0 } }
  var exitCount: Int { output.exits.withLock { $0 } }

  init() {
    let output = self.output
    session = ServerSession(
      handler: handler,
      send: { body in output.sent.withLock { $0.append((try? JSONParser.parse(body)) ?? "unparseable") } },
      exit: { output.exits.withLock { $0 += 1 } })
  }

  /// Sends `text` as one body and returns what the session answered to it.
  @discardableResult
  func send(_ text: String) -> [JSON] {
    let before = sentMessages.count
    session.receive(Array(text.utf8))
    return Array(sentMessages[before...])
  }

  func initialize() {
    send(#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}"#)
    send(#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#)
  }
}

/// `{"jsonrpc":"2.0","id":ID,"error":{"code":CODE,...}}` → (id, code).
func errorCode(_ json: JSON) -> (id: JSON?, code: Int?) {
  (json["id"], json["error"]?["code"]?.intValue)
}
