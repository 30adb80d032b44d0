import Dispatch
import Foundation
import LoupeCore
@testable import LoupeRPC
import Synchronization
import Testing

/// What a server that is about to end needs: which requests still wait for their answer, and
/// being told when that may have changed.
@Suite struct UnansweredRequestsTests {
  @Test func aRequestIsUnansweredUntilItsReplyIsSent() {
    let harness = SessionHarness()
    harness.initialize()
    #expect(!harness.session.hasUnansweredRequests)
    harness.send(#"{"jsonrpc":"2.0","id":1,"method":"test/slow"}"#)
    #expect(harness.session.hasUnansweredRequests)
    harness.handler.finishSlow(.int(1), with: "done")
    #expect(!harness.session.hasUnansweredRequests)
    harness.send(#"{"jsonrpc":"2.0","id":2,"method":"test/slow"}"#)
    harness.send(#"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":2}}"#)
    #expect(!harness.session.hasUnansweredRequests)  // cancelled: answered -32800
  }

  @Test func aFrameBeingHandledCountsOnlyForOtherThreads() {
    let handler = BlockingHandler()
    let changes = Lock(0)
    let session = ServerSession(handler: handler, send: { _ in }, exit: {}, onChange: { changes.withLock { $0 += 1 } })
    handler.session.withLock { $0 = session }
    session.receive(Array(#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}"#.utf8))
    #expect(changes.withLock { $0 } >= 1)

    let received = DispatchSemaphore(value: 0)
    let receiving = Thread {
      session.receive(Array(#"{"jsonrpc":"2.0","id":1,"method":"loupe/mark","params":{"label":"x"}}"#.utf8))
      received.signal()
    }
    receiving.start()
    handler.entered.wait()
    // Seen from here, the request is being handled and not answered yet.
    #expect(session.hasUnansweredRequests)
    handler.proceed.signal()
    received.wait()
    // Seen from inside its own handling, it would wait for itself: it does not count.
    #expect(handler.seenFromInside.withLock { $0 } == false)
    #expect(!session.hasUnansweredRequests)
  }
}

/// Blocks in `loupe/mark` until the test lets it go, and looks at the session from inside.
final class BlockingHandler: ServerHandler, Sendable {
  let entered = DispatchSemaphore(value: 0)
  let proceed = DispatchSemaphore(value: 0)
  let session = Lock<ServerSession?>(nil)
  let seenFromInside = Lock<Bool?>(nil)

  func initialize(_ request: InitializeRequest) -> InitializeResult {
    InitializeResult(serverInfo: .init(name: "test", version: "0"), process: .init(pid: 1, name: "test"))
  }

  func handle(_ request: IncomingRequest, reply: Reply) {
    entered.signal()
    proceed.wait()
    let inside = session.withLock { $0 }?.hasUnansweredRequests
    seenFromInside.withLock { $0 = inside }
    reply(MarkRequest.self, .init(seq: 1))
  }
}
