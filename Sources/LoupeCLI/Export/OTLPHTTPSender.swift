#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif
import Foundation
import LoupeCore

/// What one POST of a request body came to.
enum OTLPPostResult: Sendable, Equatable {
  /// The endpoint answered: its HTTP status, its `Retry-After` in seconds if any, the start
  /// of its body.
  case answered(status: Int, retryAfter: Double?, body: String)
  /// No answer: the connection could not be made or was lost.
  case connectionFailed(String)
}

/// Posts one OTLP/HTTP JSON body; the real one uses URLSession, tests use their own.
protocol OTLPTransport: Sendable {
  func post(_ body: [UInt8]) async -> OTLPPostResult
}

/// When to try a request again: on 429, 502, 503, 504 and lost connections, after a delay
/// doubling from `initialBackoff` (or the endpoint's `Retry-After`, whichever is longer, up
/// to `maximumBackoff`), `attempts` times in all.
struct OTLPRetryPolicy: Sendable, Equatable {
  var attempts = 5
  var initialBackoff: Duration = .milliseconds(500)
  var maximumBackoff: Duration = .seconds(30)

  static let retriedStatuses: Set<Int> = [429, 502, 503, 504]

  /// The wait before attempt `attempt + 1` (attempts count from 1).
  func delay(after attempt: Int, retryAfter: Double?) -> Duration {
    var delay = initialBackoff
    for _ in 1..<max(1, attempt) where delay < maximumBackoff { delay *= 2 }
    if let retryAfter, retryAfter.isFinite, retryAfter > 0 { delay = max(delay, .milliseconds(Int(retryAfter * 1000))) }
    return min(delay, maximumBackoff)
  }
}

/// Delivers requests one after another, retrying as its policy says, counting spans delivered.
struct OTLPSender {
  struct Failure: Error, Sendable, Equatable {
    /// What went wrong with the last attempt, e.g. `HTTP 503` or the connection error.
    var reason: String
    var attempts: Int
  }

  let transport: any OTLPTransport
  let policy: OTLPRetryPolicy
  /// Waits between attempts (a test passes one that returns at once and records the delay).
  let sleep: @Sendable (Duration) async -> Void
  /// Spans in the requests the endpoint accepted.
  private(set) var deliveredSpans = 0
  /// Requests the endpoint accepted.
  private(set) var deliveredRequests = 0
  /// Spans the endpoint said it rejected in requests it otherwise accepted (OTLP's
  /// `partialSuccess`), and the first reason it gave.
  private(set) var rejectedSpans = 0
  private(set) var rejection: String?

  init(
    transport: any OTLPTransport, policy: OTLPRetryPolicy = OTLPRetryPolicy(),
    sleep: @escaping @Sendable (Duration) async -> Void = { try? await Task.sleep(for: $0) }
  ) {
    self.transport = transport
    self.policy = policy
    self.sleep = sleep
  }

  mutating func send(_ request: OTLPRequestBatcher.Request) async throws(Failure) {
    var attempt = 1
    while true {
      let result = await transport.post(request.body)
      let reason: String
      var retryAfter: Double?
      switch result {
      case .answered(let status, let after, let body):
        if (200..<300).contains(status) {
          let rejected = Self.rejected(in: body)
          deliveredSpans += max(0, request.spans - rejected.spans)
          deliveredRequests += 1
          rejectedSpans += rejected.spans
          if rejected.spans > 0, rejection == nil { rejection = rejected.message }
          return
        }
        reason = body.isEmpty ? "HTTP \(status)" : "HTTP \(status): \(body)"
        guard OTLPRetryPolicy.retriedStatuses.contains(status) else { throw Failure(reason: reason, attempts: attempt) }
        retryAfter = after
      case .connectionFailed(let message):
        reason = message
      }
      guard attempt < policy.attempts else { throw Failure(reason: reason, attempts: attempt) }
      await sleep(policy.delay(after: attempt, retryAfter: retryAfter))
      attempt += 1
    }
  }
}

extension OTLPSender {
  /// `{"partialSuccess": {"rejectedSpans": "3", "errorMessage": "…"}}` in a success answer.
  static func rejected(in body: String) -> (spans: Int, message: String?) {
    guard body.contains("rejectedSpans"), let answer = try? JSONParser.parse(body), let partial = answer["partialSuccess"] else {
      return (0, nil)
    }
    let spans = partial["rejectedSpans"].flatMap { $0.intValue ?? $0.stringValue.flatMap { Int($0) } } ?? 0
    return (spans, partial["errorMessage"]?.stringValue)
  }
}

/// POSTs `application/json` bodies to an OTLP/HTTP endpoint with URLSession.
struct URLSessionOTLPTransport: OTLPTransport {
  let url: URL
  var timeout: TimeInterval = 30

  /// `BASE/v1/traces`, unless `base` already ends with it; `nil` for anything but http(s).
  static func tracesURL(_ base: String) -> URL? {
    var text = base
    while text.hasSuffix("/") { text.removeLast() }
    if !text.hasSuffix("/v1/traces") { text += "/v1/traces" }
    guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", url.host != nil else {
      return nil
    }
    return url
  }

  func post(_ body: [UInt8]) async -> OTLPPostResult {
    var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
    request.httpMethod = "POST"
    request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    request.httpBody = Data(body)
    return await withCheckedContinuation { continuation in
      let task = URLSession.shared.dataTask(with: request) { data, response, error in
        if let error {
          continuation.resume(returning: .connectionFailed(error.localizedDescription))
          return
        }
        guard let http = response as? HTTPURLResponse else {
          continuation.resume(returning: .connectionFailed("no HTTP response"))
          return
        }
        // The answer on one line: its start for an error message, all of a small one for a
        // partial success.
        let limit = (200..<300).contains(http.statusCode) ? 65_536 : 300
        let text = data.map { String(decoding: $0.prefix(limit), as: UTF8.self) }?.split(whereSeparator: \.isNewline).joined(separator: " ") ?? ""
        let retryAfter = (http.value(forHTTPHeaderField: "Retry-After")).flatMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        continuation.resume(returning: .answered(status: http.statusCode, retryAfter: retryAfter, body: text))
      }
      task.resume()
    }
  }
}
