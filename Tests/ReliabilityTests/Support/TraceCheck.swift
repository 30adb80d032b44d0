import Foundation
import LoupeCore
import Testing
@testable import LoupeSession

/// Reads a trace the way `loupe show` does and checks it holds a gap-free run of events.
struct TraceCheck {
  let events: [Event]
  let truncation: TraceReader.Truncation?
  let malformedLineCount: Int

  init(path: String) throws {
    let reader = try TraceReader(path: path)
    events = try reader.readAll()
    truncation = reader.truncation
    malformedLineCount = reader.malformedLineCount
  }

  /// Seqs run 1, 2, 3 … with each `dropped` event standing for the `count` events it reports
  /// (its seq is the last lost one's): nothing is missing without being accounted for.
  func expectGapFree(sourceLocation: SourceLocation = #_sourceLocation) {
    var expected = 1
    for event in events {
      if case .dropped(let dropped) = event.payload {
        expected += dropped.count
        #expect(event.seq == expected - 1, "a dropped event's seq", sourceLocation: sourceLocation)
      } else {
        guard event.seq == expected else {
          Issue.record("seq \(event.seq) where \(expected) was due: an unreported gap", sourceLocation: sourceLocation)
          return
        }
        expected += 1
      }
    }
  }

  var droppedCount: Int {
    events.reduce(0) { total, event in
      if case .dropped(let dropped) = event.payload { total + dropped.count } else { total }
    }
  }
}

/// A path where no file can be created: a directory without write permission, or — for root,
/// whom permissions do not stop — a path in sysfs, which refuses new files to everyone.
final class ReadOnlyLocation: Sendable {
  let directory = PrivateDirectory()
  let path: String

  init() {
    if geteuid() == 0 {
      path = "/sys/loupe-reliability-test.loupe"
    } else {
      chmod(directory.path, 0o500)
      path = directory.file("t.loupe")
    }
  }

  deinit { chmod(directory.path, 0o700) }

  /// `strerror` for creating a file here.
  var reason: String { geteuid() == 0 ? "Permission denied" : "Permission denied" }
}
