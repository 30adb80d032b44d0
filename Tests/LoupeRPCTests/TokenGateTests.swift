import LoupeCore
import Testing

@testable import LoupeRPC

/// CONTRACT §14's door for TCP clients, frame by frame (end to end, with real sockets and a
/// Python client: `.ci/checks/67-tcp-token.sh`).
@Suite struct TokenGateTests {
  private func body(_ text: String) -> [UInt8] { Array(text.utf8) }

  @Test func theRightTokenPassesWithoutIt() {
    let gate = TokenGate(token: "s3cret")
    let decision = gate.check(
      body(#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"clientInfo":{"name":"t"},"token":"s3cret"}}"#))
    #expect(decision == .pass(body(#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"clientInfo":{"name":"t"}}}"#)))
    // Then everything passes as it is.
    #expect(gate.check(body(#"{"jsonrpc":"2.0","id":2,"method":"loupe/stores"}"#)) == .pass(body(#"{"jsonrpc":"2.0","id":2,"method":"loupe/stores"}"#)))
  }

  @Test(arguments: [
    (#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"#, "1"),
    (#"{"jsonrpc":"2.0","id":"a","method":"initialize","params":{"token":"s3cres"}}"#, #""a""#),
    (#"{"jsonrpc":"2.0","id":3,"method":"initialize","params":{"token":"s3cret-and-more"}}"#, "3"),
    (#"{"jsonrpc":"2.0","id":4,"method":"loupe/stores","params":{"token":"s3cret"}}"#, "4"),
    (#"{"jsonrpc":"2.0","method":"initialize","params":{"token":"s3cret"}}"#, "null"),
    (#"[{"jsonrpc":"2.0","id":5,"method":"initialize","params":{"token":"s3cret"}}]"#, "null"),
    ("not json", "null"),
  ])
  func anythingElseIsRefusedThenDropped(first: String, id: String) {
    let gate = TokenGate(token: "s3cret")
    guard case .refuse(let answer) = gate.check(body(first)) else {
      Issue.record("not refused: \(first)")
      return
    }
    let text = String(decoding: answer, as: UTF8.self)
    #expect(text.hasPrefix(#"{"jsonrpc":"2.0","id":\#(id),"error":{"code":-32003,"#))
    #expect(!text.contains("s3cret"))
    // The connection is closing: even the right token is not let in any more.
    #expect(gate.check(body(#"{"jsonrpc":"2.0","id":9,"method":"initialize","params":{"token":"s3cret"}}"#)) == .drop)
  }

  @Test func constantTimeComparison() {
    let secret = Array("0123456789abcdef".utf8)
    #expect(TokenGate.equalInConstantTime(secret, secret))
    #expect(!TokenGate.equalInConstantTime(secret, Array("0123456789abcdeg".utf8)))
    #expect(!TokenGate.equalInConstantTime(secret, Array("0123456789abcde".utf8)))
    #expect(!TokenGate.equalInConstantTime(secret, Array("0123456789abcdef0".utf8)))
    #expect(!TokenGate.equalInConstantTime(secret, []))
    #expect(!TokenGate.equalInConstantTime([], secret))
  }

  @Test func randomTokensAre32HexDigits() {
    let tokens = (0..<8).map { _ in TokenGate.randomToken() }
    #expect(tokens.allSatisfy { $0.count == 32 && $0.allSatisfy(\.isHexDigit) })
    #expect(Set(tokens).count == 8)
  }

  @Test func onlyLoopbackHostsAreAccepted() throws {
    #expect(try LoopbackEndpoint(parsing: "127.0.0.1:0").description == "127.0.0.1:0")
    #expect(try LoopbackEndpoint(parsing: "[::1]:7777").description == "[::1]:7777")
    #expect(try LoopbackEndpoint(parsing: "localhost:7777").port == 7777)
    for refused in ["0.0.0.0:1", "10.0.0.2:1", "example.com:1", "127.0.0.1", "127.0.0.1:70000", "127.0.0.1:x"] {
      #expect(throws: SocketError.self, "\(refused)") { try LoopbackEndpoint(parsing: refused) }
    }
  }
}
