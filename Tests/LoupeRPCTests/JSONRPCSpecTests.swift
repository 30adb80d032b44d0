import LoupeCore
import Testing
import TestSupport
@testable import LoupeRPC

/// The examples of JSON-RPC 2.0 §7, adapted to this protocol's methods: `loupe/mark` stands in
/// for `subtract`/`sum`, `loupe/stores` for `get_data`, and the spec's unknown methods stay
/// unknown.
@Suite struct JSONRPCSpecTests {
  let harness: SessionHarness = {
    let harness = SessionHarness()
    harness.initialize()
    return harness
  }()

  @Test func callWithNamedParams() {
    let replies = harness.send(#"{"jsonrpc": "2.0", "method": "loupe/mark", "params": {"label": "a"}, "id": 3}"#)
    #expect(replies == [["jsonrpc": "2.0", "id": 3, "result": ["seq": 1]]])
  }

  @Test func stringIDsAreEchoedUnchanged() {
    let replies = harness.send(#"{"jsonrpc": "2.0", "method": "loupe/mark", "params": {"label": "a"}, "id": "req-7é"}"#)
    #expect(replies == [["jsonrpc": "2.0", "id": "req-7é", "result": ["seq": 1]]])
  }

  @Test func notificationsAreNeverAnswered() {
    #expect(harness.send(#"{"jsonrpc": "2.0", "method": "update", "params": [1,2,3,4,5]}"#).isEmpty)
    #expect(harness.send(#"{"jsonrpc": "2.0", "method": "foobar"}"#).isEmpty)
    // Not even a notification for a real method with bad params.
    #expect(harness.send(#"{"jsonrpc": "2.0", "method": "loupe/mark", "params": {"label": 3}}"#).isEmpty)
    #expect(harness.send(#"{"jsonrpc": "2.0", "method": "$/cancelRequest", "params": {"id": 999}}"#).isEmpty)
  }

  @Test func nonExistentMethod() {
    let replies = harness.send(#"{"jsonrpc": "2.0", "method": "foobar", "id": "1"}"#)
    #expect(replies.count == 1)
    #expect(errorCode(replies[0]) == ("1", -32601))
  }

  @Test func invalidJSON() {
    let replies = harness.send(#"{"jsonrpc": "2.0", "method": "foobar, "params": "bar", "baz]"#)
    #expect(replies.count == 1)
    #expect(errorCode(replies[0]) == (.null, -32700))
  }

  @Test func invalidRequestObject() {
    let replies = harness.send(#"{"jsonrpc": "2.0", "method": 1, "params": "bar"}"#)
    #expect(replies.count == 1)
    #expect(errorCode(replies[0]) == (.null, -32600))
  }

  @Test func batchWithInvalidJSON() {
    let replies = harness.send(
      #"[{"jsonrpc": "2.0", "method": "loupe/mark", "params": {"label": "a"}, "id": "1"},{"jsonrpc": "2.0", "method" ]"#)
    #expect(replies.count == 1)
    #expect(errorCode(replies[0]) == (.null, -32700))
  }

  @Test func emptyArray() {
    let replies = harness.send("[]")
    #expect(replies.count == 1)
    #expect(replies[0].arrayValue == nil)  // a single error, not a batch
    #expect(errorCode(replies[0]) == (.null, -32600))
  }

  @Test func invalidBatchButNotEmpty() {
    let replies = harness.send("[1]")
    #expect(replies.count == 1)
    let batch = replies[0].arrayValue ?? []
    #expect(batch.count == 1)
    #expect(errorCode(batch[0]) == (.null, -32600))
  }

  @Test func invalidBatch() {
    let replies = harness.send("[1,2,3]")
    let batch = replies.first?.arrayValue ?? []
    #expect(batch.count == 3)
    for element in batch { #expect(errorCode(element) == (.null, -32600)) }
  }

  @Test func mixedBatch() {
    let replies = harness.send(
      """
      [
        {"jsonrpc": "2.0", "method": "loupe/mark", "params": {"label": "sum"}, "id": "1"},
        {"jsonrpc": "2.0", "method": "notify_hello", "params": [7]},
        {"jsonrpc": "2.0", "method": "loupe/mark", "params": {"label": "subtract"}, "id": "2"},
        {"foo": "boo"},
        {"jsonrpc": "2.0", "method": "foo.get", "params": {"name": "myself"}, "id": "5"},
        {"jsonrpc": "2.0", "method": "loupe/stores", "id": "9"}
      ]
      """)
    #expect(replies.count == 1)
    let batch = replies.first?.arrayValue ?? []
    #expect(batch.count == 5)
    guard batch.count == 5 else { return }
    #expect(batch[0] == ["jsonrpc": "2.0", "id": "1", "result": ["seq": 1]])
    #expect(batch[1] == ["jsonrpc": "2.0", "id": "2", "result": ["seq": 2]])
    #expect(errorCode(batch[2]) == (.null, -32600))
    #expect(errorCode(batch[3]) == ("5", -32601))
    #expect(
      batch[4] == [
        "jsonrpc": "2.0", "id": "9",
        "result": ["stores": [["id": "App#1", "type": "App", "parent": nil, "identity": "App#1@1"]]],
      ])
  }

  @Test func batchOfNotificationsGetsNoReply() {
    let replies = harness.send(
      #"[{"jsonrpc": "2.0", "method": "notify_sum", "params": [1,2,4]},{"jsonrpc": "2.0", "method": "notify_hello", "params": [7]}]"#)
    #expect(replies.isEmpty)
  }

  @Test func otherInvalidRequests() {
    for text in [
      #"{"method": "loupe/stores", "id": 1}"#,  // no jsonrpc
      #"{"jsonrpc": "1.0", "method": "loupe/stores", "id": 1}"#,
      #"{"jsonrpc": "2.0", "method": "loupe/stores", "params": 3, "id": 1}"#,
      #"{"jsonrpc": "2.0", "method": "loupe/stores", "params": "x", "id": 1}"#,
      #"{"jsonrpc": "2.0", "id": 1}"#,  // no method
    ] {
      let replies = harness.send(text)
      #expect(replies.count == 1, "\(text)")
      #expect(errorCode(replies.first ?? .null) == (1, -32600), "\(text)")
    }
    for text in [
      #"{"jsonrpc": "2.0", "method": "loupe/stores", "id": 1.5}"#,
      #"{"jsonrpc": "2.0", "method": "loupe/stores", "id": null}"#,
      #"{"jsonrpc": "2.0", "method": "loupe/stores", "id": [1]}"#,
      #""just a string""#, "42", "null",
    ] {
      let replies = harness.send(text)
      #expect(errorCode(replies.first ?? .null) == (.null, -32600), "\(text)")
    }
  }

  @Test func nullParamsAreTreatedAsAbsent() {
    let replies = harness.send(#"{"jsonrpc": "2.0", "method": "loupe/stores", "params": null, "id": 1}"#)
    #expect(replies.first?["result"]?["stores"]?.arrayValue?.count == 1)
  }

  @Test func invalidParams() {
    for text in [
      #"{"jsonrpc": "2.0", "method": "loupe/mark", "params": {"label": 3}, "id": 1}"#,
      #"{"jsonrpc": "2.0", "method": "loupe/mark", "params": {}, "id": 1}"#,
      #"{"jsonrpc": "2.0", "method": "loupe/mark", "id": 1}"#,
      #"{"jsonrpc": "2.0", "method": "loupe/mark", "params": [1], "id": 1}"#,
    ] {
      let replies = harness.send(text)
      #expect(errorCode(replies.first ?? .null) == (1, -32602), "\(text)")
    }
    let message = harness.send(#"{"jsonrpc": "2.0", "method": "loupe/mark", "params": {"label": 3}, "id": 1}"#)
      .first?["error"]?["message"]
    #expect(message == "loupe/mark params: 'label' must be a string, not number")
  }

  @Test func badUTF8IsAParseError() {
    harness.session.receive([UInt8(ascii: "\""), 0xFF, UInt8(ascii: "\"")])
    #expect(errorCode(harness.sentMessages.last ?? .null) == (.null, -32700))
  }
}

@Suite struct ServerSessionFuzzTests {
  /// Random bodies — JSON-ish noise and mutations of real messages — never trap, and every
  /// answer is a well-formed JSON-RPC response or array of them.
  @Test func randomBodiesNeverTrap() {
    var random = SplitMix64(seed: 2024)
    let seeds = [
      #"{"jsonrpc":"2.0","id":1,"method":"loupe/mark","params":{"label":"x"}}"#,
      #"[{"jsonrpc":"2.0","id":"a","method":"loupe/stores"},{"jsonrpc":"2.0","method":"exit"}]"#,
      #"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":1}}"#,
      #"{"jsonrpc":"2.0","id":2,"method":"initialize","params":{"clientInfo":{"name":"n"}}}"#,
    ].map { Array($0.utf8) }
    let alphabet = Array(#"{}[],:"0123456789-.eE truefalsnuljsonrpcidmethodparams\é"#.utf8)
    for round in 0..<3_000 {
      let harness = SessionHarness()
      if round % 2 == 0 { harness.initialize() }
      var body = seeds[Int.random(in: 0..<seeds.count, using: &random)]
      for _ in 0..<Int.random(in: 0...6, using: &random) where !body.isEmpty {
        let position = Int.random(in: 0..<body.count, using: &random)
        switch Int.random(in: 0..<3, using: &random) {
        case 0: body[position] = alphabet[Int.random(in: 0..<alphabet.count, using: &random)]
        case 1: body.remove(at: position)
        default: body.insert(alphabet[Int.random(in: 0..<alphabet.count, using: &random)], at: position)
        }
      }
      harness.session.receive(body)
      for reply in harness.sentMessages {
        for item in reply.arrayValue ?? [reply] {
          #expect(item["jsonrpc"] == "2.0")
          #expect((item["result"] != nil) != (item["error"] != nil))
        }
      }
    }
  }
}
