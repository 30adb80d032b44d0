import Foundation
import LoupeCore
import Testing

/// `loupe demo` runs a scenario attached, records it, and suggests what to try next.
@Suite struct DemoTests {
  @Test func demoRunsAttachedRecordsAndSuggests() throws {
    let dir = TemporaryDirectory()
    let script = try Self.examplesStandIn(in: dir)
    let run = try BuiltProducts.run("loupe", ["demo"], environment: ["LOUPE_EXAMPLES": script, "TMPDIR": dir.path])
    #expect(run.status == 0)
    let trace = URL(fileURLWithPath: dir.path).appendingPathComponent("loupe-demo-pages.loupe").path
    let output = EndToEndLiveTests.normalized(run.stdout).replacingOccurrences(of: trace, with: "TRACE")
    Fixtures.expectGolden(output, "demo.txt")
    #expect(run.stderr.contains("note: recorded 11 events to \(trace)\n"))
    let stats = try BuiltProducts.run("loupe", ["stats", trace])
    #expect(stats.status == 0)
  }

  /// The demo's fixed name in the shared temporary directory, planted first by someone else
  /// as a symbolic link to a file of this user's: the demo refuses it and the file keeps its
  /// contents (it was overwritten with the trace before). An earlier demo's own file is
  /// still replaced by the next demo.
  @Test func aPlantedSymbolicLinkAtTheDemosPathIsRefused() throws {
    let dir = TemporaryDirectory()
    let victim = dir.file("victim.txt")
    try "precious\n".write(toFile: victim, atomically: true, encoding: .utf8)
    #expect(symlink(victim, dir.file("loupe-demo-pages.loupe")) == 0)
    let script = try Self.examplesStandIn(in: dir)
    let run = try BuiltProducts.run("loupe", ["demo"], environment: ["LOUPE_EXAMPLES": script, "TMPDIR": dir.path])
    #expect(run.status == 3)
    #expect(run.stderr.contains("Not recording to '\(dir.path)/loupe-demo-pages.loupe': it is a symbolic link."))
    #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious\n")
    // Without the link, a second demo replaces the first one's recording.
    #expect(unlink(dir.file("loupe-demo-pages.loupe")) == 0)
    for _ in 0..<2 {
      let again = try BuiltProducts.run("loupe", ["demo"], environment: ["LOUPE_EXAMPLES": script, "TMPDIR": dir.path])
      #expect(again.status == 0)
    }
  }

  /// A stand-in for loupe-examples that plays the probe whatever scenario it is asked for.
  static func examplesStandIn(in dir: TemporaryDirectory) throws -> String {
    let script = dir.file("examples.sh")
    let examples = try BuiltProducts.executable("loupe-examples")
    try "#!/bin/sh\nexec '\(examples)' probe --burst 2 --hold --seconds 0.2\n".write(toFile: script, atomically: true, encoding: .utf8)
    chmod(script, 0o755)
    return script
  }

  /// `swift run loupe demo` builds only loupe: demo builds loupe-examples in the package first.
  @Test func demoBuildsTheExamplesWhenLoupeWasBuiltWithoutThem() throws {
    let dir = TemporaryDirectory()
    let products = dir.file("pkg/.build/x86_64-unknown-linux-gnu/debug")
    try FileManager.default.createDirectory(atPath: products, withIntermediateDirectories: true)
    try FileManager.default.createDirectory(atPath: dir.file("bin"), withIntermediateDirectories: true)
    try "// swift-tools-version: 6.0\n".write(toFile: dir.file("pkg/Package.swift"), atomically: true, encoding: .utf8)
    try FileManager.default.copyItem(atPath: try BuiltProducts.executable("loupe"), toPath: products + "/loupe")
    // A stand-in for swift: notes its arguments and "builds" loupe-examples (the probe).
    let examples = try BuiltProducts.executable("loupe-examples")
    let swift = """
      #!/bin/sh
      echo "$@" > '\(dir.file("swift-arguments"))'
      printf '#!/bin/sh\\nexec %s probe --burst 2 --hold --seconds 0.2\\n' '\(examples)' > '\(products)/loupe-examples'
      chmod +x '\(products)/loupe-examples'
      """
    try swift.write(toFile: dir.file("bin/swift"), atomically: true, encoding: .utf8)
    chmod(dir.file("bin/swift"), 0o755)
    let path = dir.file("bin") + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
    let run = try BuiltProducts.run(
      products + "/loupe", ["demo"], environment: ["PATH": path, "TMPDIR": dir.path], currentDirectory: dir.file("pkg"))
    #expect(run.status == 0)
    let package = URL(fileURLWithPath: dir.file("pkg")).resolvingSymlinksInPath().path
    #expect(try String(contentsOfFile: dir.file("swift-arguments"), encoding: .utf8) == "build --package-path \(package) --product loupe-examples\n")
    #expect(run.stderr.hasPrefix("note: loupe-examples is not built yet; building it: swift build --package-path \(package) --product loupe-examples\n"))
    #expect(run.stdout.contains("swift run loupe doctor"))
  }

  @Test func demoUsageAndMissingExamples() async throws {
    let unknown = await loupe("demo", "chess")
    #expect(unknown.status == 2)
    #expect(unknown.stderr.hasPrefix("Error: Unknown scenario 'chess': choose pages, game or todos\n"))
    let seconds = await loupe("demo", "--seconds", "forever")
    #expect(seconds.stderr.hasPrefix("Error: Invalid value 'forever' for '--seconds': expected a number of seconds (up to 600)\n"))
    let missing = try BuiltProducts.run("loupe", ["demo"], environment: ["LOUPE_EXAMPLES": "/nonexistent/loupe-examples"])
    #expect(missing.status == 3)
    #expect(missing.stderr.hasPrefix("Error: Cannot launch '/nonexistent/loupe-examples'"))
  }
}

/// The real demos: each scenario's story plays to its end, and each suggestion, run as the
/// user would paste it, shows what its comment promises in that scenario's trace.
@Suite struct RealDemoTests {
  static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().path

  /// What `loupe demo SCENARIO` prints after "Try next:", run in the package (so `swift run
  /// loupe`), with TRACE for the trace's path.
  static let suggestions: [String: [String]] = [
    "pages": [
      "  swift run loupe doctor TRACE                           # the pitfalls in this run, explained",
      "  swift run loupe show TRACE --kind 'effect.*'           # effects, with how long each ran",
      "  swift run loupe show TRACE --format changes            # state changes, _printChanges style",
      "  swift run loupe stats TRACE                            # actions, reducer time, effect durations",
      "  swift run loupe export TRACE --chrome-trace demo.json  # then open demo.json in https://ui.perfetto.dev",
    ],
    "game": [
      "  swift run loupe show TRACE --kind identity.changed             # each visit to the results page is a new identity",
      "  swift run loupe show TRACE --store 'GameFeature#1/resultList'  # the results page's own story, both visits",
      "  swift run loupe show TRACE --path 'results*'                   # results added, deleted on the page, then on the game once saved",
      "  swift run loupe stats TRACE                                    # actions, reducer time, identity changes per store",
      "  swift run loupe export TRACE --chrome-trace demo.json          # then open demo.json in https://ui.perfetto.dev",
    ],
    "todos": [
      "  swift run loupe doctor TRACE                               # a derived value recomputed for nothing, explained",
      "  swift run loupe show TRACE --kind effect.cancelled         # the searches that typing dropped (cancelInFlight)",
      "  swift run loupe show TRACE --kind derived.recomputed       # what each action recomputed, and whether it changed",
      "  swift run loupe show TRACE --path 'database.todos*.title'  # one to-do renamed: a single path among 5000 to-dos",
      "  swift run loupe stats TRACE                                # reducer time, effects, derived values",
    ],
  ]

  /// For each suggestion, in order: the exit status and a line its output must hold (`export`
  /// writes demo.json and nothing else).
  static let outcomes: [String: [(status: Int32, holds: String)]] = [
    "pages": [
      (1, "1. Effect cancelled by another store"), (0, "— another store"), (0, "PageFeature#2: _count changed."),
      (0, "PageFeature.Action.onAppear"), (0, ""),
    ],
    "game": [
      (0, "GameFeature#1/resultList  presented: i4 → i5"), (0, "GameResultListFeature.Action.rowsDeleted([0, 1])"),
      (0, "− results.results[id: 1]"), (0, "GameFeature#1/resultList                 4  dismissed 2, presented 2"), (0, ""),
    ],
    "todos": [
      (1, "1. Derived value recomputed with unchanged output"), (0, "cancelInFlight by TodosFeature#1"),
      (0, "workload in"), (0, ".title: \"Pay the garage #9!\""), (0, "DERIVED VALUE"),
    ],
  ]

  static let examplesHaveScenarios: Bool = {
    guard let run = try? BuiltProducts.run("loupe-examples", ["--help"]) else { return false }
    return run.stdout.contains("todos")
  }()

  @Test(.enabled(if: examplesHaveScenarios), arguments: ["pages", "game", "todos"])
  func theDemoPlaysItsStoryAndEverySuggestionShowsWhatItSays(scenario: String) async throws {
    let dir = TemporaryDirectory()
    let run = try await BuiltProducts.runDetached(
      "loupe", scenario == "pages" ? ["demo"] : ["demo", scenario], environment: ["TMPDIR": dir.path],
      currentDirectory: Self.packageRoot)
    #expect(run.status == 0)
    let trace = URL(fileURLWithPath: dir.path).appendingPathComponent("loupe-demo-\(scenario).loupe").path
    let lines = run.stdout.replacingOccurrences(of: trace, with: "TRACE").split(separator: "\n", omittingEmptySubsequences: false)
      .map(String.init)
    let header = try #require(lines.first)
    #expect(header.hasPrefix("loupe attach -- loupe-examples \(scenario) "))
    let start = try #require(lines.firstIndex(of: "Recorded to TRACE. Try next:"))
    let expected = try #require(Self.suggestions[scenario])
    #expect(Array(lines[(start + 2)...].prefix { !$0.isEmpty }) == expected)
    #expect(try Self.storyEnded(scenario, in: trace))
    // Each suggestion as the user would paste it into a shell, with this loupe.
    let loupe = try BuiltProducts.executable("loupe")
    for (suggestion, outcome) in zip(expected, try #require(Self.outcomes[scenario])) {
      let pasted = try #require(suggestion.components(separatedBy: "  # ").first)
      let command = pasted.replacingOccurrences(of: "swift run loupe", with: "'\(loupe)'")
        .replacingOccurrences(of: "TRACE", with: "'\(trace)'")
      let result = try await BuiltProducts.runDetached("/bin/sh", ["-c", command], currentDirectory: dir.path)
      #expect(result.status == outcome.status, "\(pasted)")
      #expect(outcome.holds.isEmpty ? result.stdout.isEmpty : result.stdout.contains(outcome.holds), "\(pasted)")
    }
    if scenario != "todos" {
      let chrome = try String(contentsOfFile: dir.file("demo.json"), encoding: .utf8)
      #expect(chrome.hasPrefix(#"{"traceEvents":["#))
    }
  }

  /// Whether the trace holds the last beat of the scenario's script.
  static func storyEnded(_ scenario: String, in trace: String) throws -> Bool {
    let events = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n").dropFirst()
      .map { try JSONParser.parse(Array($0.utf8)) }
    func values(of action: String) -> [(store: String, value: JSON)] {
      events.filter { $0["action"]?.stringValue == action }.compactMap { event in
        guard let store = event["store"]?.stringValue, let value = event["value"]?.objectValue?.members.first?.value else { return nil }
        return (store, value)
      }
    }
    switch scenario {
    case "pages":
      // Shown first, then swiped to the last page and back: one swipe each second.
      let shown = values(of: "PageFeature.Action.selected").filter { $0.value == true }.map(\.store)
      return shown == [1, 2, 3, 4, 3, 2, 1].map { "PageFeature#\($0)" }
    case "game":
      // The first visit to the results page saves, the second discards.
      return values(of: "GameFeature.Action.alert").map(\.value) == ["saveTapped", "discardTapped"]
    default:
      // "pay" typed, then the search cleared (the last beat), then the scenario's own clean-up.
      return values(of: "TodosFeature.Action.queryChanged").map(\.value) == ["p", "pa", "pay", "", ""]
    }
  }
}
