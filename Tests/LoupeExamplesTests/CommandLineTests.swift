import Testing

@testable import LoupeExamples

/// `loupe-examples` arguments: parsing, validation, help, and the exit statuses of the built
/// executable.
@Suite struct CommandLineTests {
  @Test func parsesScenariosAndOptions() throws {
    #expect(try ExamplesCommand.parse(["pages"]) == .run(ExamplesCommand(scenario: .pages)))
    #expect(
      try ExamplesCommand.parse(["pages", "--seconds", "2.5", "--shared-cancellation", "--speed=3", "--quiet"])
        == .run(ExamplesCommand(scenario: .pages, seconds: 2.5, speed: 3, sharedCancellation: true, quiet: true)))
    #expect(try ExamplesCommand.parse(["--seconds=1", "todos"]) == .run(ExamplesCommand(scenario: .todos, seconds: 1)))
    #expect(try ExamplesCommand.parse(["game", "--help"]) == .help)
    #expect(try ExamplesCommand.parse(["-h"]) == .help)
    #expect(
      try ExamplesCommand.parse(["todos", "--todos", "40", "--state-log", "/tmp/s.jsonl"])
        == .run(ExamplesCommand(scenario: .todos, todoCount: 40, stateLog: "/tmp/s.jsonl")))
  }

  @Test(arguments: [
    ([], "Missing scenario: choose pages, game or todos"),
    (["chess"], "Unknown scenario 'chess': choose pages, game or todos"),
    (["pages", "game"], "Unexpected argument 'game': give one scenario"),
    (["pages", "--seconds"], "Missing value for '--seconds'"),
    (["pages", "--seconds", "--quiet"], "Missing value for '--seconds'"),
    (["pages", "--seconds", "soon"], "Invalid value 'soon' for '--seconds': expected a number of seconds (up to 3600)"),
    (["pages", "--seconds", "0"], "Invalid value '0' for '--seconds': expected a number of seconds (up to 3600)"),
    (["pages", "--speed", "-2"], "Invalid value '-2' for '--speed': expected a positive factor (up to 1000)"),
    (["pages", "--quiet=yes"], "'--quiet' takes no value"),
    (["pages", "--verbose"], "Unknown option '--verbose'"),
    (["game", "--shared-cancellation"], "'--shared-cancellation' applies to the pages scenario only"),
    (["pages", "--todos", "40"], "'--todos' applies to the todos scenario only"),
    (["todos", "--todos", "2.5"], "Invalid value '2.5' for '--todos': expected a number of to-dos (1 to 100000)"),
    (["todos", "--todos", "0"], "Invalid value '0' for '--todos': expected a number of to-dos (1 to 100000)"),
    (["todos", "--state-log"], "Missing value for '--state-log'"),
  ])
  func rejectsBadArguments(arguments: [String], message: String) {
    #expect(throws: UsageError(message)) { try ExamplesCommand.parse(arguments) }
  }

  @Test func helpListsEveryScenarioAndOption() {
    let help = ExamplesCommand.help
    for scenario in ExamplesCommand.ScenarioName.allCases { #expect(help.contains("\n  \(scenario.rawValue)  ")) }
    for option in ["--seconds N", "--speed X", "--shared-cancellation", "--quiet", "-h, --help", "LOUPE_RECORD=FILE"] {
      #expect(help.contains(option))
    }
  }

  @Test func theExecutableExitsWithTwoOnUsageErrorsAndZeroForHelp() throws {
    let bad = try BuiltExamples.run("loupe-examples", ["pages", "--seconds", "soon"])
    #expect(bad.status == 2)
    #expect(bad.stdout == "")
    #expect(
      bad.stderr == """
        Error: Invalid value 'soon' for '--seconds': expected a number of seconds (up to 3600)
        Usage: loupe-examples <scenario> [--seconds N] [--once | --idle] [--speed X] [--quiet] [--shared-cancellation] [--todos N] [--mutant] [--state-log FILE]
        See 'loupe-examples --help'.

        """)
    let help = try BuiltExamples.run("loupe-examples", ["--help"])
    #expect(help.status == 0)
    #expect(help.stdout == ExamplesCommand.help)
  }

  @Test func theExecutableNarratesUnlessQuietOrServingOnStdio() throws {
    let narrated = try BuiltExamples.run("loupe-examples", ["pages", "--seconds", "0.2"])
    #expect(narrated.status == 0)
    #expect(narrated.stdout.hasPrefix("  0.00s  show page 0      ●0:0  ◦1:0   2:0   3:0\n"))
    let quiet = try BuiltExamples.run("loupe-examples", ["pages", "--seconds", "0.2", "--quiet"])
    #expect(quiet.stdout == "")
  }
}
