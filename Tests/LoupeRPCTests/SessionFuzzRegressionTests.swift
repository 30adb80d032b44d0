import LoupeCore
import Testing
@testable import LoupeRPC

/// Inputs the fuzzers (`fuzz/`) found mishandled, each kept as a seed in `fuzz/Corpus/` too.
@Suite struct SessionFuzzRegressionTests {
  /// `fuzz-messages`: a batch reusing the id of a request still in flight lost the first
  /// answer, so the batch was never answered at all. Now the second use is `-32600`.
  @Test func aBatchReusingAnInFlightIDIsAnsweredInFull() {
    let harness = SessionHarness()
    harness.initialize()
    let replies = harness.send(
      #"[{"jsonrpc":"2.0","id":1,"method":"test/slow"},{"jsonrpc":"2.0","id":1,"method":"test/slow"}]"#)
    #expect(replies.isEmpty)  // the batch waits for its slow request
    harness.handler.finishSlow(1, with: "done")
    let batch = harness.sentMessages.last?.arrayValue ?? []
    #expect(batch.count == 2)
    #expect(batch.first?["result"] == "done")
    #expect(batch.last?["id"] == 1)
    #expect(batch.last?["error"]?["code"] == -32600)
    #expect(batch.last?["error"]?["message"] == "Invalid request: id 1 is already in use by a request in flight")
  }

  @Test func aRequestReusingAnInFlightIDIsInvalidAndTheFirstStillAnswers() {
    let harness = SessionHarness()
    harness.initialize()
    #expect(harness.send(#"{"jsonrpc":"2.0","id":"x","method":"test/slow"}"#).isEmpty)
    let second = harness.send(#"{"jsonrpc":"2.0","id":"x","method":"loupe/mark","params":{"label":"m"}}"#)
    #expect(second.count == 1)
    #expect(second.first?["id"] == "x")
    #expect(second.first?["error"]?["code"] == -32600)
    harness.handler.finishSlow("x", with: 7)
    #expect(harness.sentMessages.last?["result"] == 7)
    #expect(harness.sentMessages.last?["id"] == "x")
    // Once answered, the id is free again.
    #expect(harness.send(#"{"jsonrpc":"2.0","id":"x","method":"loupe/mark","params":{"label":"m"}}"#).first?["result"] == ["seq": 1])
  }
}
