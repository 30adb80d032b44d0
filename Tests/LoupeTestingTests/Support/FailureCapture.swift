import LoupeTesting
import Synchronization
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
/// whole list, and a wrong message shows as a difference instead of an unknown issue.
@MainActor
func capturingIssues(
  sourceLocation: SourceLocation = #_sourceLocation, _ body: @MainActor () async -> Void
) async -> [CapturedFailure] {
  let captured = Mutex<[CapturedFailure]>([])
  await withKnownIssue(sourceLocation: sourceLocation) {
    await body()
  } matching: { issue in
    captured.withLock {
      $0.append(CapturedFailure(
        message: issue.comments.map(\.rawValue).joined(separator: "\n"), line: issue.sourceLocation?.line ?? 0))
    }
    return true
  }
  return captured.withLock { $0 }
}

/// Synchronous form of ``capturingIssues(sourceLocation:_:)``.
func capturingIssues(sourceLocation: SourceLocation = #_sourceLocation, _ body: () -> Void) -> [CapturedFailure] {
  let captured = Mutex<[CapturedFailure]>([])
  withKnownIssue(sourceLocation: sourceLocation) {
    body()
  } matching: { issue in
    captured.withLock {
      $0.append(CapturedFailure(
        message: issue.comments.map(\.rawValue).joined(separator: "\n"), line: issue.sourceLocation?.line ?? 0))
    }
    return true
  }
  return captured.withLock { $0 }
}
