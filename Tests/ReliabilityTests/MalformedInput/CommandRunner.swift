import Foundation
import Testing

/// Runs each command case in a scratch directory and checks status and messages.
enum CommandRunner {
  static func run(_ cases: [CommandCase], sourceLocation: SourceLocation = #_sourceLocation) {
    for item in cases {
      do {
        try check(item)
      } catch {
        Issue.record("\(item.id): \(error)", sourceLocation: sourceLocation)
      }
    }
  }

  static func check(_ item: CommandCase) throws {
    let directory = PrivateDirectory()
    let fill = { (text: String) in text.replacingOccurrences(of: "{dir}", with: directory.path) }
    for file in item.files {
      guard FileManager.default.createFile(atPath: directory.file(file.name), contents: Data(file.bytes)) else {
        throw TestFailure("cannot write \(file.name)")
      }
    }
    var environment = item.environment.mapValues(fill)
    // `loupe record -- loupe-examples …` finds the examples on PATH.
    if let products = BuiltProducts.directory {
      environment["PATH"] = products + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
    }
    let run = try ChildProcess.run(item.executable, item.arguments.map(fill), environment: environment)
    var problems: [String] = []
    if run.termination != .exited(item.status) { problems.append("\(run.termination), not status \(item.status)") }
    if let expected = item.stderr.map(fill), run.stderr != expected {
      problems.append("stderr is\n  \(run.stderr.debugDescription)\nnot\n  \(expected.debugDescription)")
    }
    for needle in item.stderrContains.map(fill) where !run.stderr.contains(needle) {
      problems.append("stderr lacks \(needle.debugDescription): \(run.stderr.debugDescription)")
    }
    for needle in item.stdoutContains.map(fill) where !run.stdout.contains(needle) {
      problems.append("stdout lacks \(needle.debugDescription): \(run.stdout.debugDescription)")
    }
    if !problems.isEmpty { throw TestFailure(problems.joined(separator: "; ")) }
  }
}
