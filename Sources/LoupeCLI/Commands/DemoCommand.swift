import Foundation
import LoupeCore
import LoupeSession
import LoupeClient

/// `loupe demo [SCENARIO]`
struct DemoCommand: Command {
  static let configuration = CommandConfiguration(
    name: "demo",
    abstract: "Run a bundled example attached, then suggest what to try next.",
    discussion: """
      Runs a scenario of loupe-examples (built next to loupe) under 'loupe attach', records \
      it to a trace in the temporary directory, and ends by itself once its story has \
      played, in under five seconds (faster than real time: pages 1.5×, game 2×, todos \
      1.25×). The default scenario, pages, is a pager whose pages each run a timer, with \
      the cancellation scope shared as in TCA 1.9: watch one page's swipe cancel another \
      page's timer, then ask 'loupe doctor' about it. Then it suggests what to try on that \
      scenario's trace.
      """,
    usage: "[SCENARIO] [--seconds N]",
    arguments: [PositionalSpec(name: "SCENARIO", help: "pages (default), game or todos.", isOptional: true)],
    options: [
      .option(
        "--seconds", value: "N",
        help:
          "How long the scenario runs, in seconds (default: one pass of its story: pages 4.4, game 4.1, todos 4.2); a busy machine that plays it late still plays it whole.")
    ],
    examples: [
      ("loupe demo", "The pages scenario: one store cancels another's timer"),
      ("loupe demo game", "Navigation: a page presented and dismissed, rows deleted"),
      ("loupe demo todos", "Derived values, dropped searches, a big state"),
    ])

  var scenario: String
  var seconds: String?

  init(arguments: ParsedArguments) throws(UsageError) {
    scenario = arguments.positionals.first ?? DemoScenario.pages.rawValue
    seconds = arguments.value("--seconds")
  }

  func validate() throws(UsageError) {
    guard DemoScenario(rawValue: scenario) != nil else {
      throw UsageError("Unknown scenario '\(scenario)': choose pages, game or todos")
    }
    if let seconds {
      guard let value = Double(seconds), value > 0, value <= 600 else {
        throw UsageError("Invalid value '\(seconds)' for '--seconds': expected a number of seconds (up to 600)")
      }
    }
  }

  func run(in context: CommandContext) async throws(CommandFailure) -> Int32 {
    guard let demo = DemoScenario(rawValue: scenario) else { return ExitStatus.usage }
    let examples = try Self.examplesExecutable(in: context)
    let trace = FileManager.default.temporaryDirectory.appendingPathComponent("loupe-demo-\(scenario).loupe").path
    let style = context.style
    let seconds = self.seconds.flatMap(Double.init) ?? demo.seconds
    // `--once`: the whole story however busy the machine is; `--seconds`: when it ends.
    let arguments = [scenario] + demo.arguments + ["--once", "--seconds", Self.number(seconds)]
    context.stdout.line(
      style.bold("loupe attach -- loupe-examples " + arguments.joined(separator: " "))
        + style.dim("  (ends by itself once its story has played, after about \(Self.number(seconds)) s)"))
    context.stdout.line()
    try Self.claimFixedPath(trace)
    let session = AttachSession(target: .launch([examples] + arguments), filter: .all, format: .text, recordPath: trace)
    let status = try await session.run(in: context)
    guard status == ExitStatus.success else { return status }
    let loupe = Self.howToRunLoupe(in: context)
    let suggestions = demo.suggestions(file: Self.shellQuoted(trace)).map { ("\(loupe) \($0.command)", $0.comment) }
    context.stdout.line()
    context.stdout.line(style.bold("Recorded to \(trace). Try next:"))
    context.stdout.line()
    Self.list(suggestions, to: context)
    context.stdout.line()
    context.stdout.line(style.bold("Your own program") + " (built with Loupe):")
    context.stdout.line()
    Self.list(
      [
        ("\(loupe) attach -- .build/debug/MyApp", "watch it live"),
        ("\(loupe) record bug.loupe -- .build/debug/MyApp", "record a trace for a bug report"),
        ("LOUPE_RECORD=bug.loupe .build/debug/MyApp", "or let the program record itself"),
      ], to: context)
    return status
  }

  /// Commands in a column, each with its comment.
  private static func list(_ commands: [(String, String)], to context: CommandContext) {
    let width = commands.map(\.0.count).max() ?? 0
    for (command, comment) in commands {
      context.stdout.line("  " + Formatting.rightPad(command, width) + "  " + context.style.dim("# " + comment))
    }
  }

  /// `4.4`, `2`: a number as someone would type it.
  static func number(_ value: Double) -> String {
    String(format: "%g", value)
  }

  /// `loupe-examples` next to the running `loupe` (as `swift build` places them; built there
  /// first when this `loupe` was built in a package without it, as `swift run loupe demo`
  /// does), or `LOUPE_EXAMPLES` when set.
  static func examplesExecutable(in context: CommandContext) throws(CommandFailure) -> String {
    if let path = context.environment["LOUPE_EXAMPLES"], !path.isEmpty { return path }
    guard let directory = context.executableDirectory else {
      throw CommandFailure("Cannot tell where loupe is installed, so cannot find loupe-examples; set LOUPE_EXAMPLES to its path.")
    }
    let path = directory + "/loupe-examples"
    if !FileManager.default.isExecutableFile(atPath: path), let build = ExamplesBuild(loupeDirectory: directory) {
      context.stderr.line("note: loupe-examples is not built yet; building it: \(build.commandLine)")
      try build.run()
    }
    guard FileManager.default.isExecutableFile(atPath: path) else {
      throw CommandFailure(
        "loupe-examples is not next to loupe (in \(directory)). Build it with 'swift build --product loupe-examples' in the Loupe package, or set LOUPE_EXAMPLES to its path.")
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

  /// The demo records to a fixed name in the shared temporary directory, so that the README
  /// can name it. Someone else may have made that name first — a symbolic link to a file of
  /// this user's, which the recording would overwrite. So an earlier demo's file (a regular
  /// file of this user's) is removed, anything else is refused, and the file is created anew
  /// with `O_EXCL | O_NOFOLLOW`; once it is this user's in a sticky directory, nobody else can
  /// swap it.
  static func claimFixedPath(_ path: String) throws(CommandFailure) {
    if let reason = LibC.removeOwnFile(path) {
      throw CommandFailure("Not recording to '\(path)': \(reason). Remove it, or set TMPDIR to a directory of your own.")
    }
    let fd = LibC.createNew(path)
    guard fd >= 0 else {
      throw CommandFailure("Not recording to '\(path)': \(LibC.message(LibC.errno)) (someone made it just now?). Remove it, or set TMPDIR to a directory of your own.")
    }
    _ = LibC.close(fd)
  }
}
