import Foundation
import LoupeCore

/// `loupe demo [SCENARIO]`
struct DemoCommand: Command {
  static let configuration = CommandConfiguration(
    name: "demo",
    abstract: "Run a bundled example attached, then suggest what to try next.",
    discussion: """
      Runs a scenario of loupe-examples (built next to loupe) under 'loupe attach', records \
      it to a trace in the temporary directory, and ends by itself within a few seconds. \
      The default scenario, pages, is a pager whose pages each run a timer, with the \
      cancellation scope shared as in TCA 1.9: watch one page's swipe cancel another \
      page's timer, then ask 'loupe doctor' about it.
      """,
    usage: "[SCENARIO]",
    arguments: [PositionalSpec(name: "SCENARIO", help: "pages (default), game or todos.", isOptional: true)],
    options: [.option("--seconds", value: "N", help: "How long the scenario runs (default: 3).")],
    examples: [("loupe demo", "The pages scenario"), ("loupe demo todos", "Derived values and identities")])

  static let scenarios = ["pages", "game", "todos"]

  var scenario: String
  var seconds: String

  init(arguments: ParsedArguments) throws(UsageError) {
    scenario = arguments.positionals.first ?? "pages"
    seconds = arguments.value("--seconds") ?? "3"
  }

  func validate() throws(UsageError) {
    guard Self.scenarios.contains(scenario) else {
      throw UsageError("Unknown scenario '\(scenario)': choose pages, game or todos")
    }
    guard let value = Double(seconds), value > 0, value <= 600 else {
      throw UsageError("Invalid value '\(seconds)' for '--seconds': expected a number of seconds (up to 600)")
    }
  }

  func run(in context: CommandContext) async throws(CommandFailure) -> Int32 {
    let examples = try Self.examplesExecutable(in: context)
    let trace = FileManager.default.temporaryDirectory.appendingPathComponent("loupe-demo-\(scenario).loupe").path
    let style = context.style
    context.stdout.line(style.bold("loupe attach -- loupe-examples \(scenario)") + style.dim("  (ends by itself in a few seconds)"))
    context.stdout.line()
    var command = [examples, scenario, "--seconds", seconds]
    // The pages play seed 000: with one process-wide cancellation scope, as TCA 1.9 had, a
    // swipe cancels another page's timer, which is what 'loupe doctor' then explains.
    if scenario == "pages" { command.append("--shared-cancellation") }
    let session = AttachSession(target: .launch(command), filter: .all, format: .text, recordPath: trace)
    let status = try await session.run(in: context)
    guard status == ExitStatus.success else { return status }
    let file = Self.shellQuoted(trace)
    let loupe = Self.howToRunLoupe(in: context)
    let suggestions: [(String, String)] = [
      ("\(loupe) doctor \(file)", "the pitfalls in this run, explained"),
      ("\(loupe) show \(file) --kind 'effect.*'", "effects, with how long each ran"),
      ("\(loupe) show \(file) --format changes", "state changes, _printChanges style"),
      ("\(loupe) stats \(file)", "actions, reducer time, effect durations"),
      ("\(loupe) export \(file) --chrome-trace demo.json", "then open demo.json in https://ui.perfetto.dev"),
    ]
    let width = suggestions.map(\.0.count).max() ?? 0
    context.stdout.line()
    context.stdout.line(style.bold("Recorded to \(trace). Try next:"))
    context.stdout.line()
    for (command, comment) in suggestions {
      context.stdout.line("  " + Formatting.rightPad(command, width) + "  " + style.dim("# " + comment))
    }
    context.stdout.line()
    context.stdout.line(style.bold("Your own program") + " (built with Loupe):")
    context.stdout.line()
    let own: [(String, String)] = [
      ("\(loupe) attach -- .build/debug/MyApp", "watch it live"),
      ("\(loupe) record bug.loupe -- .build/debug/MyApp", "record a trace for a bug report"),
      ("LOUPE_RECORD=bug.loupe .build/debug/MyApp", "or let the program record itself"),
    ]
    let ownWidth = own.map(\.0.count).max() ?? 0
    for (command, comment) in own {
      context.stdout.line("  " + Formatting.rightPad(command, ownWidth) + "  " + style.dim("# " + comment))
    }
    return status
  }

  /// `loupe-examples` next to the running `loupe` (as `swift build` and `swift run` place
  /// them), or `LOUPE_EXAMPLES` when set.
  static func examplesExecutable(in context: CommandContext) throws(CommandFailure) -> String {
    if let path = context.environment["LOUPE_EXAMPLES"], !path.isEmpty { return path }
    guard let directory = context.executableDirectory else {
      throw CommandFailure("Cannot tell where loupe is installed, so cannot find loupe-examples; set LOUPE_EXAMPLES to its path.")
    }
    let path = directory + "/loupe-examples"
    guard FileManager.default.isExecutableFile(atPath: path) else {
      throw CommandFailure(
        "loupe-examples is not next to loupe (in \(directory)). Build it with 'swift build --product loupe-examples', or run 'swift run loupe demo'.")
    }
    return path
  }

  /// How the user can run this `loupe` again: `loupe` when it is the one on `PATH`,
  /// `swift run loupe` when it was built in the current package, else its path.
  static func howToRunLoupe(in context: CommandContext) -> String {
    guard let directory = context.executableDirectory else { return "loupe" }
    let resolved = URL(fileURLWithPath: directory).resolvingSymlinksInPath().path
    for entry in (context.environment["PATH"] ?? "").split(separator: ":") {
      if URL(fileURLWithPath: String(entry)).resolvingSymlinksInPath().path == resolved { return "loupe" }
    }
    let current = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).resolvingSymlinksInPath().path
    if resolved.hasPrefix(current + "/.build/"), FileManager.default.fileExists(atPath: current + "/Package.swift") {
      return "swift run loupe"
    }
    return shellQuoted(resolved + "/loupe")
  }

  static func shellQuoted(_ text: String) -> String {
    let safe = text.allSatisfy { $0.isLetter || $0.isNumber || "/._-+:@".contains($0) }
    return safe ? text : "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
  }
}
