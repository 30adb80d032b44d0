import LoupeCore
import LoupeTesting
import Testing

/// A failure that an assertion reported: its message and line.
struct CapturedFailure: Equatable, CustomStringConvertible {
  var message: String
  var line: Int

  var description: String { "line \(line):\n\(message)" }
}

/// Runs `body`, whose failures are known issues (`withKnownIssue`), and returns them.
///
/// Every issue `body` records is accepted and collected here, so the caller compares the
/// whole list, and a wrong message shows as a difference instead of an unknown issue. Each
/// issue must have been reported in the caller's file (the assertions' call sites are there).
@MainActor
func capturingIssues(
  sourceLocation: SourceLocation = #_sourceLocation, _ body: @MainActor () async -> Void
) async -> [CapturedFailure] {
  let captured = Lock<[(CapturedFailure, String?)]>([])
  await withKnownIssue(sourceLocation: sourceLocation) {
    await body()
  } matching: { issue in
    captured.withLock { $0.append(capture(issue)) }
    return true
  }
  return checkedFailures(captured.withLock { $0 }, sourceLocation: sourceLocation)
}

/// Synchronous form of ``capturingIssues(sourceLocation:_:)``.
func capturingIssues(sourceLocation: SourceLocation = #_sourceLocation, _ body: () -> Void) -> [CapturedFailure] {
  let captured = Lock<[(CapturedFailure, String?)]>([])
  withKnownIssue(sourceLocation: sourceLocation) {
    body()
  } matching: { issue in
    captured.withLock { $0.append(capture(issue)) }
    return true
  }
  return checkedFailures(captured.withLock { $0 }, sourceLocation: sourceLocation)
}

private func capture(_ issue: Issue) -> (CapturedFailure, String?) {
  let message = issue.comments.map(\.rawValue).joined(separator: "\n")
  return (CapturedFailure(message: message, line: issue.sourceLocation?.line ?? 0), issue.sourceLocation?.fileID)
}

private func checkedFailures(_ captured: [(CapturedFailure, String?)], sourceLocation: SourceLocation) -> [CapturedFailure] {
  for (failure, fileID) in captured {
    #expect(fileID == sourceLocation.fileID, "reported in \(fileID ?? "no file"): \(failure)", sourceLocation: sourceLocation)
  }
  return captured.map(\.0)
}
