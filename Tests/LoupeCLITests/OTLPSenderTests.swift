import Synchronization
import Testing
@testable import LoupeCLI

/// Delivery to an OTLP/HTTP endpoint: which answers are retried, how long it waits, what it
/// counts. The transport and the sleep are the test's own: nothing waits for real.
@Suite struct OTLPSenderTests {
  /// Answers from a script, recording the bodies it got.
  final class ScriptedTransport: OTLPTransport {
    let script: Mutex<[OTLPPostResult]>
    let posted = Mutex<[[UInt8]]>([])
    init(_ answers: [OTLPPostResult]) { script = Mutex(answers) }
    func post(_ body: [UInt8]) async -> OTLPPostResult {
      posted.withLock { $0.append(body) }
      return script.withLock { $0.isEmpty ? .answered(status: 200, retryAfter: nil, body: "{}") : $0.removeFirst() }
    }
  }

  final class Sleeps: Sendable {
    let waited = Mutex<[Duration]>([])
    var sleep: @Sendable (Duration) async -> Void { { duration in self.waited.withLock { $0.append(duration) } } }
  }

  static let busy = OTLPPostResult.answered(status: 503, retryAfter: nil, body: "")
  static let request: OTLPRequestBatcher.Request = (Array("{}".utf8), 7)

  @Test func busyTwiceThenAccepted() async throws {
    let transport = ScriptedTransport([Self.busy, Self.busy])
    let sleeps = Sleeps()
    var sender = OTLPSender(transport: transport, sleep: sleeps.sleep)
    try await sender.send(Self.request)
    #expect(sender.deliveredSpans == 7)
    #expect(transport.posted.withLock { $0.count } == 3)
    #expect(sleeps.waited.withLock { $0 } == [.milliseconds(500), .seconds(1)])
  }

  @Test func unreachableGivesUpAfterFiveAttempts() async {
    let transport = ScriptedTransport(Array(repeating: .connectionFailed("Could not connect to the server."), count: 9))
    let sleeps = Sleeps()
    var sender = OTLPSender(transport: transport, sleep: sleeps.sleep)
    await #expect(throws: OTLPSender.Failure(reason: "Could not connect to the server.", attempts: 5)) { try await sender.send(Self.request) }
    #expect(sender.deliveredSpans == 0)
    #expect(sleeps.waited.withLock { $0 } == [.milliseconds(500), .seconds(1), .seconds(2), .seconds(4)])
  }

  @Test func onlyThrottlingAndGatewayErrorsAreRetried() async {
    for status in [429, 502, 503, 504] {
      let transport = ScriptedTransport([.answered(status: status, retryAfter: nil, body: "")])
      var sender = OTLPSender(transport: transport, sleep: Sleeps().sleep)
      await #expect(throws: Never.self) { try await sender.send(Self.request) }
    }
    let transport = ScriptedTransport([.answered(status: 400, retryAfter: nil, body: "bad span")])
    var sender = OTLPSender(transport: transport, sleep: Sleeps().sleep)
    await #expect(throws: OTLPSender.Failure(reason: "HTTP 400: bad span", attempts: 1)) { try await sender.send(Self.request) }
  }

  @Test func retryAfterIsHonouredUpToTheCap() async throws {
    let transport = ScriptedTransport([
      .answered(status: 429, retryAfter: 3, body: ""), .answered(status: 429, retryAfter: 3600, body: ""),
    ])
    let sleeps = Sleeps()
    var sender = OTLPSender(transport: transport, sleep: sleeps.sleep)
    try await sender.send(Self.request)
    #expect(sleeps.waited.withLock { $0 } == [.seconds(3), .seconds(30)])
  }

  @Test func aPartialSuccessCountsTheRejectedSpans() async throws {
    let body = #"{"partialSuccess":{"rejectedSpans":"2","errorMessage":"span too old"}}"#
    let transport = ScriptedTransport([.answered(status: 200, retryAfter: nil, body: body)])
    var sender = OTLPSender(transport: transport, sleep: Sleeps().sleep)
    try await sender.send(Self.request)
    #expect(sender.deliveredSpans == 5)
    #expect(sender.rejectedSpans == 2)
    #expect(sender.rejection == "span too old")
    #expect(OTLPSender.rejected(in: #"{"partialSuccess":{}}"#).spans == 0)
    #expect(OTLPSender.rejected(in: "{}").spans == 0)
  }

  @Test func endpointURLs() {
    #expect(URLSessionOTLPTransport.tracesURL("http://localhost:4318")?.absoluteString == "http://localhost:4318/v1/traces")
    #expect(URLSessionOTLPTransport.tracesURL("http://localhost:4318/")?.absoluteString == "http://localhost:4318/v1/traces")
    #expect(URLSessionOTLPTransport.tracesURL("https://otel.example/v1/traces")?.absoluteString == "https://otel.example/v1/traces")
    #expect(URLSessionOTLPTransport.tracesURL("localhost:4318") == nil)
    #expect(URLSessionOTLPTransport.tracesURL("ftp://x") == nil)
  }

  @Test func testsShortenTheBackoffThroughTheEnvironment() {
    #expect(ExportCommand.retryPolicy([:]).initialBackoff == .milliseconds(500))
    #expect(ExportCommand.retryPolicy(["LOUPE_OTLP_BACKOFF_MS": "10"]).initialBackoff == .milliseconds(10))
  }
}
