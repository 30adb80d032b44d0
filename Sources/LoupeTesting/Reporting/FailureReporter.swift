import Foundation
import Testing
import XCTest

/// Where an assertion was called: its failure is reported there.
struct CallSite: Sendable {
  let fileID: StaticString
  let filePath: StaticString
  let line: UInt
  let column: UInt

  var sourceLocation: SourceLocation {
    SourceLocation(fileID: "\(fileID)", filePath: "\(filePath)", line: Int(line), column: Int(column))
  }
}

/// Reports assertion failures to the test framework that is running the test.
///
/// Inside a Swift Testing test (`Test.current` is set) a failure is an `Issue` recorded at
/// the call site, so `withKnownIssue` sees it; otherwise it goes to XCTest with `XCTFail` at
/// the call site's file and line, so an `XCTestCase` fails there.
///
/// Call assertions from the test itself (or a task it awaits): Swift Testing finds the
/// current test through the task, and a detached task has none. swift-corelibs-xctest
/// ignores `XCTFail` outside a running test case, so there is nothing to report to then.
enum FailureReporter {
  static func fail(_ message: String, at site: CallSite) {
    if Test.current != nil {
      Issue.record(Comment(rawValue: message), sourceLocation: site.sourceLocation)
    } else {
      XCTFail(message, file: site.filePath, line: site.line)
    }
  }

  /// Reports what a non-exhaustive `TestStore` did not check
  /// (`.off(showSkippedAssertions: true)`): a known issue under Swift Testing, which does not
  /// fail the test; under XCTest (swift-corelibs-xctest has no `XCTExpectFailure`) a line on
  /// standard error.
  static func skipped(_ message: String, at site: CallSite) {
    if Test.current != nil {
      withKnownIssue(isIntermittent: true, sourceLocation: site.sourceLocation) {
        Issue.record(Comment(rawValue: message), sourceLocation: site.sourceLocation)
      }
    } else {
      FileHandle.standardError.write(Data("\(site.fileID):\(site.line): \(message)\n".utf8))
    }
  }
}
