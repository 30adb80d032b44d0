import Foundation
import Testing
@testable import LoupeRPC
@testable import LoupeClient

/// The live handshake the DAP and MCP share: how it fails, and that a request cut off by the
/// time limit is reported as the time limit.
@Suite(.timeLimit(.minutes(1))) struct LiveHandshakeTests {
  /// A program that never answers: the handshake closes the connection after the time allowed,
  /// which fails the waiting `initialize`, and says it timed out (not that the connection closed).
  @Test func aProgramThatNeverAnswersTimesOut() async throws {
    let client = try LoupeClient.launch(["/bin/sleep", "30"])
    let outcome = await client.handshake(clientName: "test", clientVersion: nil, timeout: .milliseconds(100))
    guard case .failure(.timedOut) = outcome else {
      Issue.record("expected a time-out, got \(outcome)")
      return
    }
    client.program?.terminate()
    _ = await client.program?.waitForExit()
  }

  /// A program that ends without answering: `initialize` is the request that failed.
  @Test func aProgramThatEndsFailsAtInitialize() async throws {
    let client = try LoupeClient.launch(["/bin/true"])
    let outcome = await client.handshake(clientName: "test", clientVersion: nil, timeout: .seconds(50))
    guard case .failure(.failed(let request, _)) = outcome else {
      Issue.record("expected a failed request, got \(outcome)")
      return
    }
    #expect(request == InitializeRequest.method)
    #expect(await client.program?.waitForExit() == .exited(0))
  }
}
