import LoupeCore
import XCTest

/// An `XCTestCase` that can catch the failures an assertion reports, to pin their text:
/// `XCTExpectFailure` does not exist in swift-corelibs-xctest, so this overrides
/// `recordFailure`, which every XCTest failure (`XCTFail` included) goes through.
class FailureCapturingTestCase: XCTestCase {
  private let capture = Lock<[(failure: CapturedFailure, file: String)]?>(nil)

  override func recordFailure(withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool) {
    let captured = capture.withLock { captured -> Bool in
      guard captured != nil else { return false }
      // XCTFail prefixes its message with "failed - ".
      let prefix = "failed - "
      let message = description.hasPrefix(prefix) ? String(description.dropFirst(prefix.count)) : description
      captured?.append((CapturedFailure(message: message, line: lineNumber), filePath))
      return true
    }
    if !captured {
      super.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
    }
  }

  /// Runs `body` and returns the failures it reported instead of failing the test. Each must
  /// have been reported in the caller's file (the assertions' call sites are there).
  func capturingFailures(file: StaticString = #filePath, line: UInt = #line, _ body: () throws -> Void) rethrows -> [CapturedFailure] {
    beginCapture()
    try body()
    return endCapture(file: file, line: line)
  }

  func beginCapture() { capture.withLock { $0 = [] } }

  func endCapture(file: StaticString, line: UInt) -> [CapturedFailure] {
    let captured = capture.withLock { captured in
      defer { captured = nil }
      return captured ?? []
    }
    for (failure, path) in captured where path != "\(file)" {
      XCTFail("reported in \(path): \(failure)", file: file, line: line)
    }
    return captured.map(\.failure)
  }
}

extension FailureCapturingTestCase {
  /// The `async` form of ``capturingFailures(file:line:_:)``.
  @MainActor
  func capturingFailures(file: StaticString = #filePath, line: UInt = #line, _ body: @MainActor () async -> Void) async -> [CapturedFailure] {
    beginCapture()
    await body()
    return endCapture(file: file, line: line)
  }
}
