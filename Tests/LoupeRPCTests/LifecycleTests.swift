import LoupeCore
import Testing
@testable import LoupeRPC

@Suite struct LifecycleTests {
  @Test func requestsBeforeInitializeGetServerNotInitialized() {
    let harness = SessionHarness()
    let replies = harness.send(#"{"jsonrpc":"2.0","id":1,"method":"loupe/stores"}"#)
    #expect(errorCode(replies[0]) == (1, -32002))
    // Even shutdown and unknown methods.
    #expect(errorCode(harness.send(#"{"jsonrpc":"2.0","id":2,"method":"shutdown"}"#)[0]) == (2, -32002))
    #expect(errorCode(harness.send(#"{"jsonrpc":"2.0","id":3,"method":"nope"}"#)[0]) == (3, -32002))
    // Notifications are dropped silently.
    #expect(harness.send(#"{"jsonrpc":"2.0","method":"loupe/whatever"}"#).isEmpty)
    #expect(harness.session.lifecycle == .uninitialized)
  }

  @Test func initializeResultAndSecondInitialize() {
    let harness = SessionHarness()
    let replies = harness.send(
      #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"clientInfo":{"name":"nvim","version":"0.10"},"protocolVersion":"1"}}"#)
    let result = replies.first?["result"]
    #expect(result?["protocolVersion"] == "1")
    #expect(result?["serverInfo"] == ["name": "test", "version": "0"])
    #expect(result?["process"] == ["pid": 1, "name": "test"])
    #expect(result?["capabilities"]?["methods"]?.arrayValue?.count == MessageRegistry.serverMethods.count)
    #expect(result?["capabilities"]?["eventKinds"]?.arrayValue?.contains("state.changed") == true)
    #expect(errorCode(harness.send(#"{"jsonrpc":"2.0","id":2,"method":"initialize"}"#)[0]) == (2, -32600))
  }

  @Test func initializeWithBadParams() {
    let harness = SessionHarness()
    let replies = harness.send(#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"clientInfo":{"version":"1"}}}"#)
    #expect(errorCode(replies[0]) == (1, -32602))
    #expect(harness.session.lifecycle == .uninitialized)
  }

  @Test func shutdownThenInvalidRequestThenExit() {
    let harness = SessionHarness()
    harness.initialize()
    #expect(harness.send(#"{"jsonrpc":"2.0","id":1,"method":"shutdown"}"#) == [["jsonrpc": "2.0", "id": 1, "result": nil]])
    #expect(harness.handler.shutdowns.withLock { $0 } == 1)
    #expect(errorCode(harness.send(#"{"jsonrpc":"2.0","id":2,"method":"loupe/stores"}"#)[0]) == (2, -32600))
    #expect(errorCode(harness.send(#"{"jsonrpc":"2.0","id":3,"method":"shutdown"}"#)[0]) == (3, -32600))
    #expect(harness.exitCount == 0)
    #expect(harness.send(#"{"jsonrpc":"2.0","method":"exit"}"#).isEmpty)
    #expect(harness.exitCount == 1)
    #expect(harness.session.lifecycle == .exited)
    // Nothing more is answered.
    #expect(harness.send(#"{"jsonrpc":"2.0","id":4,"method":"loupe/stores"}"#).isEmpty)
    harness.send(#"{"jsonrpc":"2.0","method":"exit"}"#)
    #expect(harness.exitCount == 1)
  }

  @Test func shutdownAndExitWaitForTheRequestsBeforeThem() {
    let harness = SessionHarness()
    harness.initialize()
    // A client that writes its whole session at once.
    #expect(harness.send(#"{"jsonrpc":"2.0","id":1,"method":"test/slow"}"#).isEmpty)
    #expect(harness.send(#"{"jsonrpc":"2.0","id":2,"method":"shutdown"}"#).isEmpty)
    #expect(harness.handler.shutdowns.withLock { $0 } == 1)
    #expect(harness.send(#"{"jsonrpc":"2.0","method":"exit"}"#).isEmpty)
    #expect(harness.exitCount == 0)
    let before = harness.sentMessages.count
    harness.handler.finishSlow(.int(1), with: "done")
    #expect(Array(harness.sentMessages[before...]) == [["jsonrpc": "2.0", "id": 1, "result": "done"], ["jsonrpc": "2.0", "id": 2, "result": nil]])
    #expect(harness.exitCount == 1)
  }

  @Test func cancellingTheLastRequestInFlightLetsExitHappen() {
    let harness = SessionHarness()
    harness.initialize()
    harness.send(#"{"jsonrpc":"2.0","id":"s","method":"test/slow"}"#)
    harness.send(#"{"jsonrpc":"2.0","method":"exit"}"#)
    #expect(harness.exitCount == 0)
    let replies = harness.send(#"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":"s"}}"#)
    #expect(errorCode(replies[0]) == ("s", -32800))
    #expect(harness.exitCount == 1)
  }

  @Test func exitWithoutShutdownClosesToo() {
    let harness = SessionHarness()
    harness.send(#"{"jsonrpc":"2.0","method":"exit"}"#)
    #expect(harness.exitCount == 1)
  }

  @Test func cancelledRequestIsAnsweredRequestCancelled() {
    let harness = SessionHarness()
    harness.initialize()
    #expect(harness.send(#"{"jsonrpc":"2.0","id":"s1","method":"test/slow"}"#).isEmpty)
    let replies = harness.send(#"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":"s1"}}"#)
    #expect(replies.count == 1)
    #expect(errorCode(replies[0]) == ("s1", -32800))
    #expect(harness.handler.cancelledIDs.withLock { $0 } == ["s1"])
    // The late result is discarded.
    let before = harness.sentMessages.count
    harness.handler.finishSlow("s1", with: "late")
    #expect(harness.sentMessages.count == before)
  }

  @Test func cancellingACompletedRequestDoesNothing() {
    let harness = SessionHarness()
    harness.initialize()
    harness.send(#"{"jsonrpc":"2.0","id":7,"method":"test/slow"}"#)
    harness.handler.finishSlow(7, with: "done")
    #expect(harness.sentMessages.last == ["jsonrpc": "2.0", "id": 7, "result": "done"])
    #expect(harness.send(#"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":7}}"#).isEmpty)
    #expect(harness.send(#"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":12345}}"#).isEmpty)
    #expect(harness.handler.cancelledIDs.withLock { $0 }.isEmpty)
  }

  @Test func cancelledRequestInsideABatchStillFillsItsSlot() {
    let harness = SessionHarness()
    harness.initialize()
    let replies = harness.send(
      #"[{"jsonrpc":"2.0","id":1,"method":"loupe/mark","params":{"label":"x"}},{"jsonrpc":"2.0","id":2,"method":"test/slow"}]"#)
    #expect(replies.isEmpty)  // the batch waits for its slow member
    let after = harness.send(#"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":2}}"#)
    let batch = after.first?.arrayValue ?? []
    #expect(batch.count == 2)
    #expect(batch.first?["result"] == ["seq": 1])
    #expect(errorCode(batch.last ?? .null) == (2, -32800))
  }

  @Test func asyncRepliesGoOutWhenReady() {
    let harness = SessionHarness()
    harness.initialize()
    harness.send(#"{"jsonrpc":"2.0","id":1,"method":"test/slow"}"#)
    let quick = harness.send(#"{"jsonrpc":"2.0","id":2,"method":"loupe/mark","params":{"label":"x"}}"#)
    #expect(quick.first?["id"] == 2)
    harness.handler.finishSlow(1, with: 42)
    #expect(harness.sentMessages.last == ["jsonrpc": "2.0", "id": 1, "result": 42])
  }
}
