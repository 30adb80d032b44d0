import Testing
@testable import LoupeCLI

/// Help pages and usage errors, pinned exactly.
@Suite struct HelpAndErrorTests {
  @Test func version() async {
    let run = await loupe("--version")
    #expect(run.status == 0)
    #expect(run.stdout == "loupe \(LoupeCLI.version) (protocol 1)\n")
  }

  @Test func topLevelHelp() async {
    for arguments in [[], ["--help"], ["-h"], ["help"]] {
      let run = await loupe(arguments)
      #expect(run.status == 0)
      Fixtures.expectGolden(run.stdout, "help.txt")
    }
  }

  @Test func everyCommandHasHelp() async {
    for command in LoupeCLI.commands {
      let name = command.configuration.name
      let run = await loupe(name, "--help")
      #expect(run.status == 0, "\(name)")
      #expect(run.stderr == "")
      #expect(run.stdout.hasPrefix("OVERVIEW: \(command.configuration.abstract)\n"), "\(name)")
      #expect(run.stdout.contains("\nUSAGE: loupe \(name) ") || run.stdout.contains("\nUSAGE: loupe \(name)\n"), "\(name)")
      #expect(run.stdout.contains("\nOPTIONS:\n"), "\(name)")
      #expect(run.stdout.contains("  -h, --help              Show help for this command.\n"), "\(name)")
      #expect(await loupe("help", name).stdout == run.stdout)
      Fixtures.expectGolden(run.stdout, "help-\(name).txt")
    }
  }

  @Test func showHelpIsExact() async {
    let run = await loupe("show", "-h")
    #expect(
      run.stdout == """
        OVERVIEW: Print the events of a trace file.

        Reads the trace as a stream (any size, constant memory). 'text' is a timeline
        with each event's time, sequence number, kind and store, state changes as -/+
        lines and effects with their durations; 'json' prints the matching trace lines
        unchanged, one event per line (pipe it to jq); 'changes' prints only the
        _printChanges-style summary lines of state changes.

        USAGE: loupe show FILE [FILTER] [--format text|json|changes]

        ARGUMENTS:
          FILE                    The trace file to read ('-' for standard input).

        OPTIONS:
          --kind GLOB[,GLOB...]   Keep events whose kind matches, e.g. 'effect.*' or
                                  'state.changed'.
          --store GLOB[,GLOB...]  Keep events of matching stores, e.g.
                                  'AppFeature#1/pages*'.
          --action GLOB[,GLOB...]
                                  Keep only action.received events whose action label
                                  matches, e.g. '*timerTicked'.
          --path GLOB[,GLOB...]   Keep only state.changed events with a change at a
                                  matching path, from the store or from its root store,
                                  e.g. 'pages*.count'.
          --format text|json|changes
                                  How to print events (default: text).
          -h, --help              Show help for this command.

        EXAMPLES:
          # Effects only, as a timeline
          loupe show bug.loupe --kind 'effect.*'
          # What changed in the pages
          loupe show bug.loupe --store 'AppFeature#1/pages*' --format changes
          # Raw events for scripts
          loupe show bug.loupe --format json | jq .kind

        """)
  }

  @Test(arguments: [
    (
      ["show"],
      "Error: Missing expected argument 'FILE'\nUsage: loupe show FILE [FILTER] [--format text|json|changes]\nSee 'loupe show --help'.\n"
    ),
    (
      ["show", "t.loupe", "--format", "yaml"],
      "Error: Invalid value 'yaml' for '--format': expected text, json or changes\nUsage: loupe show FILE [FILTER] [--format text|json|changes]\nSee 'loupe show --help'.\n"
    ),
    (
      ["show", "t.loupe", "--knd", "mark"],
      "Error: Unknown option '--knd'. Did you mean '--kind'?\nUsage: loupe show FILE [FILTER] [--format text|json|changes]\nSee 'loupe show --help'.\n"
    ),
    (
      ["state", "a.loupe", "b.loupe", "--store", "A"],
      "Error: Unexpected argument 'b.loupe'\nUsage: loupe state FILE --store GLOB [--at SEQ] [--path PATH] [--format text|json]\nSee 'loupe state --help'.\n"
    ),
    (
      ["export", "a.loupe"],
      "Error: Missing an output: '--otlp OUT', '--otlp-endpoint URL', '--perfetto OUT' or '--chrome-trace OUT'\nUsage: loupe export TRACE... [--otlp OUT] [--otlp-endpoint URL] [--perfetto OUT] [--chrome-trace OUT]\nSee 'loupe export --help'.\n"
    ),
    (["shwo"], "Error: Unknown command 'shwo'. Did you mean 'show'?\nUsage: loupe <subcommand>\nSee 'loupe --help'.\n"),
    (["frobnicate"], "Error: Unknown command 'frobnicate'\nUsage: loupe <subcommand>\nSee 'loupe --help'.\n"),
    (["--verbose"], "Error: Unknown option '--verbose'\nUsage: loupe <subcommand>\nSee 'loupe --help'.\n"),
    (["help", "nope"], "Error: Unknown command 'nope'\nUsage: loupe <subcommand>\nSee 'loupe --help'.\n"),
  ])
  func usageErrors(arguments: [String], message: String) async {
    let run = await loupe(arguments)
    #expect(run.status == 2)
    #expect(run.stdout == "")
    #expect(run.stderr == message)
  }
}
