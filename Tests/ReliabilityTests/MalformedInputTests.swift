import Foundation
import Testing

extension ReliabilitySuites {
  /// The malformed-input suite: every case of `docs/malformed-input.md`, against real
  /// processes, each followed by proof that the program is unaffected.
  @Suite(.timeLimit(.minutes(3))) struct MalformedInputTests {
    @Test func frames() throws { try WireRunner.run(MalformedInput.frames) }
    @Test func messages() throws { try WireRunner.run(MalformedInput.messages) }
    @Test func params() throws { try WireRunner.run(MalformedInput.params) }
    @Test func traceFiles() { CommandRunner.run(MalformedInput.traces) }
    @Test func commandLines() { CommandRunner.run(MalformedInput.commandLines) }
    @Test func environments() { CommandRunner.run(MalformedInput.environments) }

    /// `docs/malformed-input.md` lists exactly these cases (regenerate the table with
    /// `LOUPE_UPDATE_GOLDEN=1 swift test --filter MalformedInputTests`).
    @Test func theDocumentedTableIsTheTestedOne() throws {
      let page = try String(contentsOfFile: MalformedInput.documentPath, encoding: .utf8)
      guard let begin = page.range(of: MalformedInput.beginMarker), let end = page.range(of: MalformedInput.endMarker) else {
        Issue.record("docs/malformed-input.md lacks the generated-table markers")
        return
      }
      let generated = MalformedInput.markdown()
      if ProcessInfo.processInfo.environment["LOUPE_UPDATE_GOLDEN"] == "1" {
        try (String(page[..<begin.lowerBound]) + generated + String(page[end.upperBound...]))
          .write(toFile: MalformedInput.documentPath, atomically: true, encoding: .utf8)
        return
      }
      #expect(String(page[begin.lowerBound..<end.upperBound]) == generated, "docs/malformed-input.md is out of date")
    }
  }
}
