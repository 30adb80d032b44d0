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
  }
}
