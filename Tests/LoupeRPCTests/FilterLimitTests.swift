import LoupeCore
import Testing
@testable import LoupeRPC

/// Regression: `loupe/subscribe` with 2 000 – 100 000 globs was accepted, and froze the host
/// while its history was filtered. Filters now have size limits, said in the error.
@Suite struct FilterLimitTests {
  func params(kinds count: Int, length: Int = 8) -> JSON {
    let globs = (0..<count).map { JSON.string("k\($0)" + String(repeating: "*", count: max(0, length - 2))) }
    return ["filter": ["kinds": .array(globs)], "history": true]
  }

  @Test func aFilterAtTheLimitIsAccepted() throws {
    let request = try SubscribeRequest(params: params(kinds: SubscribeRequest.maxFilterPatterns))
    #expect(request.filter.kinds?.count == 1_000)
  }

  @Test func tooManyGlobsAreRefusedWithTheLimit() {
    #expect(throws: ResponseError.invalidParams("loupe/subscribe params: 'filter' has 2000 patterns; at most 1000 are accepted")) {
      try SubscribeRequest(params: params(kinds: 2_000))
    }
    // Counted over all members together.
    let split: JSON = ["filter": ["kinds": .array(Array(repeating: "a", count: 600)), "stores": .array(Array(repeating: "b", count: 600))]]
    #expect(throws: ResponseError.self) { try SubscribeRequest(params: split) }
  }

  @Test func aGlobTooLongIsRefusedWithTheLimit() {
    #expect(throws: ResponseError.invalidParams("loupe/subscribe params: a 'filter' pattern is 5000 bytes long; at most 1000 are accepted")) {
      try SubscribeRequest(params: params(kinds: 1, length: 5_000))
    }
  }
}
