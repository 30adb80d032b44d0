import LoupeCore
import Synchronization
import Testing
@testable import LoupeRPC

/// A ``RequestHandler`` with fixed answers, and what it was asked.
final class TypedHandler: RequestHandler, Sendable {
  let asked = Mutex<[String]>([])
  /// `loupe/state` answers later, through the reply kept here.
  let pendingState = Mutex<TypedReply<StateRequest>?>(nil)

  func initialize(_ request: InitializeRequest) -> InitializeResult {
    InitializeResult(serverInfo: .init(name: "typed", version: "0"), process: .init(pid: 2, name: "typed"))
  }

  func handle(_ request: SubscribeRequest, reply: TypedReply<SubscribeRequest>) {
    asked.withLock { $0.append("subscribe history=\(request.history)") }
    reply(.init(history: 3))
  }

  func handle(_ request: UnsubscribeRequest, reply: TypedReply<UnsubscribeRequest>) {
    asked.withLock { $0.append("unsubscribe") }
    reply(NullResult())
  }

  func handle(_ request: StoresRequest, reply: TypedReply<StoresRequest>) throws(ResponseError) {
    asked.withLock { $0.append("stores") }
    throw .internalError("no stores here")
  }

  func handle(_ request: StateRequest, reply: TypedReply<StateRequest>) {
    asked.withLock { $0.append("state \(request.store) id=\(reply.id)") }
    pendingState.withLock { $0 = reply }
  }

  func handle(_ request: MarkRequest, reply: TypedReply<MarkRequest>) {
    asked.withLock { $0.append("mark \(request.label)") }
    reply(.init(seq: 7))
  }

  func handle(_ request: SendRequest, reply: TypedReply<SendRequest>) {
    asked.withLock { $0.append("send \(request.store) \(request.action.jsonText)") }
    reply(.init(seq: nil))
  }

  func handle(_ request: SetStateRequest, reply: TypedReply<SetStateRequest>) throws(ResponseError) {
    asked.withLock { $0.append("setState \(request.store)") }
    throw .controlNotAllowed(SetStateRequest.method)
  }
}

@Suite struct RequestDispatchTests {
  /// A session over a ``TypedHandler``, initialized; returns each answer's exact text.
  final class Harness: Sendable {
    final class Sent: Sendable {
      let bodies = Mutex<[String]>([])
    }
    let handler = TypedHandler()
    let output = Sent()
    let session: ServerSession

    init() {
      let output = self.output
      session = ServerSession(
        handler: handler,
        send: { body in output.bodies.withLock { $0.append(String(decoding: body, as: UTF8.self)) } },
        exit: {})
      send(#"{"jsonrpc":"2.0","id":0,"method":"initialize"}"#)
    }

    @discardableResult
    func send(_ text: String) -> [String] {
      let before = output.bodies.withLock { $0.count }
      session.receive(Array(text.utf8))
      return output.bodies.withLock { Array($0[before...]) }
    }
  }

  @Test func everyRequestIsAnsweredByTheSessionOrByOneRoute() {
    let lifecycle = ServerSession.lifecycleRequests.map { $0.method }
    #expect(lifecycle == ["initialize", "shutdown"])
    #expect(
      RequestDispatch.methods == [
        "loupe/subscribe", "loupe/unsubscribe", "loupe/stores", "loupe/state", "loupe/mark", "loupe/send", "loupe/setState",
      ])
    #expect(Set(lifecycle).isDisjoint(with: RequestDispatch.methods))
    #expect(Set(MessageRegistry.requests.map { $0.method }) == Set(lifecycle).union(RequestDispatch.methods))
    // `initialize` lists them in this order (the wire format).
    #expect(
      MessageRegistry.serverMethods == [
        "initialize", "loupe/subscribe", "loupe/unsubscribe", "loupe/stores", "loupe/state", "loupe/mark", "loupe/send",
        "loupe/setState", "shutdown", "initialized", "exit", "$/cancelRequest",
      ])
  }

  @Test func typedResultsAreEncodedByTheirRequestType() {
    let harness = Harness()
    #expect(
      harness.send(#"{"jsonrpc":"2.0","id":1,"method":"loupe/subscribe","params":{"history":true}}"#)
        == [#"{"jsonrpc":"2.0","id":1,"result":{"history":3}}"#])
    #expect(
      harness.send(#"{"jsonrpc":"2.0","id":2,"method":"loupe/unsubscribe","params":{}}"#)
        == [#"{"jsonrpc":"2.0","id":2,"result":null}"#])
    #expect(
      harness.send(#"{"jsonrpc":"2.0","id":"m","method":"loupe/mark","params":{"label":"tap"}}"#)
        == [#"{"jsonrpc":"2.0","id":"m","result":{"seq":7}}"#])
    #expect(
      harness.send(#"{"jsonrpc":"2.0","id":3,"method":"loupe/send","params":{"store":"App#1","action":{"add":2}}}"#)
        == [#"{"jsonrpc":"2.0","id":3,"result":{"seq":null}}"#])
    #expect(harness.handler.asked.withLock { $0 } == ["subscribe history=true", "unsubscribe", "mark tap", #"send App#1 {"add":2}"#])
  }

  @Test func controlParamsAreCheckedAndARefusalIsMinus32004() {
    let harness = Harness()
    #expect(
      harness.send(#"{"jsonrpc":"2.0","id":1,"method":"loupe/send","params":{"store":"App#1"}}"#)
        == [#"{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"loupe/send params: 'action' is required"}}"#])
    #expect(
      harness.send(#"{"jsonrpc":"2.0","id":2,"method":"loupe/setState","params":{"store":"App#1","state":{}}}"#)
        == [
          #"{"jsonrpc":"2.0","id":2,"error":{"code":-32004,"message":"Control not allowed: loupe/setState acts on the program, which it allows only when started with LOUPE_CONTROL=1 (or Inspector.shared.configuration.allowsControl = true)"}}"#
        ])
    #expect(harness.handler.asked.withLock { $0 } == ["setState App#1"])
  }

  @Test func unknownMethodsBadParamsAndThrownErrorsAreAnswered() {
    let harness = Harness()
    #expect(
      harness.send(#"{"jsonrpc":"2.0","id":1,"method":"loupe/nope"}"#)
        == [#"{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found: loupe/nope"}}"#])
    #expect(
      harness.send(#"{"jsonrpc":"2.0","id":2,"method":"loupe/mark","params":{"label":1}}"#)
        == [
          #"{"jsonrpc":"2.0","id":2,"error":{"code":-32602,"message":"loupe/mark params: 'label' must be a string, not number"}}"#
        ])
    #expect(
      harness.send(#"{"jsonrpc":"2.0","id":3,"method":"loupe/stores","params":{}}"#)
        == [#"{"jsonrpc":"2.0","id":3,"error":{"code":-32603,"message":"no stores here"}}"#])
    // Params that do not decode never reach the handler.
    #expect(harness.handler.asked.withLock { $0 } == ["stores"])
  }

  @Test func aReplyKeptForLaterAnswersItsRequest() {
    let harness = Harness()
    #expect(harness.send(#"{"jsonrpc":"2.0","id":4,"method":"loupe/state","params":{"store":"App#1"}}"#).isEmpty)
    #expect(harness.handler.asked.withLock { $0 } == ["state App#1 id=4"])
    harness.handler.pendingState.withLock { $0 }?(.init(store: "App#1", seq: 9, state: ["count": 1]))
    #expect(
      harness.output.bodies.withLock { $0.last }
        == #"{"jsonrpc":"2.0","id":4,"result":{"store":"App#1","seq":9,"state":{"count":1}}}"#)
  }
}
