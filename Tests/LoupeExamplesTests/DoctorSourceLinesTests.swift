import Foundation
import Loupe
import Testing

/// Issue 13's done-when: `loupe doctor` on the seed 000 recording names the lines of the timer
/// and of the `.cancellable` that cancelled it from another store, and those lines are right —
/// read from the source file at the path the trace gives.
@Suite struct DoctorSourceLinesTests {
  /// `file.swift:LINE` after `prefix` in `text`.
  static func location(after prefix: String, in text: String) -> (file: String, line: Int)? {
    guard let range = text.range(of: prefix) else { return nil }
    let rest = text[range.upperBound...].prefix { !$0.isWhitespace }
    let parts = rest.split(separator: ":")
    guard parts.count == 2, let line = Int(parts[1]) else { return nil }
    return (String(parts[0]), line)
  }

  /// The text of line `number` (from 1) of the file at `path`.
  static func line(_ number: Int, of path: String) throws -> String {
    let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
    try #require(number >= 1 && number <= lines.count, "\(path) has no line \(number)")
    return String(lines[number - 1])
  }

  @Test func doctorNamesTheTimerAndTheCancellingLine() throws {
    let scratch = ScratchDirectory()
    let path = scratch.file("pages.loupe")
    let examples = try BuiltExamples.executable("loupe-examples")
    let record = try BuiltExamples.run(
      "loupe", ["record", path, "--", examples, "pages", "--shared-cancellation", "--seconds", "1", "--speed", "4"])
    #expect(record.status == 0, "stderr: \(record.stderr)")
    let doctor = try BuiltExamples.run("loupe", ["doctor", path, "--json"])
    #expect(doctor.status == 1)
    let report = try #require(try JSONSerialization.jsonObject(with: Data(doctor.stdout.utf8)) as? [String: Any])
    let problems = try #require(report["problems"] as? [[String: Any]])
    let crossStore = try #require(problems.first { $0["code"] as? String == "effect-cancelled-by-another-store" })
    let details = try #require(crossStore["details"] as? [String])
    let first = try #require(details.first { $0.contains("(cancelInFlight)") }, "\(details)")

    let timer = try #require(Self.location(after: "The timer started at ", in: first), Comment(rawValue: first))
    let canceller = try #require(Self.location(after: "`.cancellable(id:cancelInFlight:)` at ", in: first), Comment(rawValue: first))
    #expect(timer.file == "PageFeature.swift")
    #expect(canceller.file == "PageFeature.swift")

    // The trace carries the file's path: read the file there.
    let trace = try TraceFile(path: path)
    let started = try #require(trace.started.first { $0.cancelID == "PageFeature.CancelID.timer" })
    let source = try #require(started.source)
    #expect(source.file == "LoupeExamples/PageFeature.swift")
    #expect(source.line == timer.line)
    let file = try #require(source.path)
    #expect(file.hasSuffix("/Sources/LoupeExamples/Pages/PageFeature.swift"))
    #expect(try Self.line(timer.line, of: file).contains("return .run {"))
    #expect(try Self.line(canceller.line, of: file).contains(".cancellable(id: CancelID.timer, cancelInFlight: true)"))
  }

  /// `LOUPE_SOURCE_PATHS=off`: the lines stay, the build machine's paths go.
  @Test func sourcePathsOffKeepsLinesAndDropsPaths() throws {
    let scratch = ScratchDirectory()
    let path = scratch.file("run.loupe")
    let run = try BuiltExamples.run(
      "loupe-examples", ["pages", "--seconds", "0.5", "--speed", "4", "--quiet"],
      environment: ["LOUPE_RECORD": path, "LOUPE_SOURCE_PATHS": "off"])
    #expect(run.status == 0, "stderr: \(run.stderr)")
    #expect(run.stderr == "")
    let text = try String(contentsOfFile: path, encoding: .utf8)
    #expect(text.contains(#""source":{"file":"LoupeExamples/PageFeature.swift","line":"#))
    #expect(!text.contains(#""path":"/"#), "no file path (a change's path is a state path)")
    let trace = try TraceFile(path: path)
    #expect(!trace.started.isEmpty)
    #expect(trace.started.allSatisfy { $0.source?.path == nil && $0.source?.file == "LoupeExamples/PageFeature.swift" })
  }
}
