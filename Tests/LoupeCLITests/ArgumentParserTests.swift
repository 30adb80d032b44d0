import Testing
@testable import LoupeCLI

@Suite struct ArgumentParserTests {
  static let configuration = CommandConfiguration(
    name: "attach", abstract: "", usage: "",
    arguments: [PositionalSpec(name: "FILE", help: "A file.", isOptional: true)],
    options: FilterOptions.specs + [.option("--format", value: "F", help: ""), .flag("--stdio", help: "")],
    takesProgram: true)

  func parse(_ arguments: [String]) throws(UsageError) -> ParsedArguments {
    try ArgumentParser.parse(arguments, for: Self.configuration)
  }

  @Test func optionsFlagsAndProgram() throws {
    let parsed = try parse(["--kind", "effect.*,state.*", "--kind=mark", "--stdio", "--format=json", "--", "./App", "--kind", "x"])
    #expect(parsed.list("--kind") == ["effect.*", "state.*", "mark"])
    #expect(parsed.flag("--stdio"))
    #expect(parsed.value("--format") == "json")
    #expect(parsed.program == ["./App", "--kind", "x"])
    #expect(parsed.positionals.isEmpty)
  }

  @Test func theProgramMayStartWithoutDoubleDash() throws {
    let parsed = try parse(["t.loupe", "./App", "-v"])
    #expect(parsed.positionals == ["t.loupe"])
    #expect(parsed.program == ["./App", "-v"])
  }

  @Test func laterValuesOverrideEarlierOnes() throws {
    #expect(try parse(["--format", "text", "--format", "json"]).value("--format") == "json")
  }

  @Test func helpWinsOverErrors() throws {
    #expect(try parse(["--bogus", "-h"]).wantsHelp)
  }

  @Test(arguments: [
    (["--knid", "x"], "Unknown option '--knid'. Did you mean '--kind'?"),
    (["--frobnicate"], "Unknown option '--frobnicate'"),
    (["--format"], "Missing value for '--format F'"),
    (["--format", "--stdio"], "Missing value for '--format F'"),
    (["--stdio=yes"], "'--stdio' takes no value"),
  ])
  func errors(arguments: [String], message: String) {
    #expect(throws: UsageError(message)) { try parse(arguments) }
  }

  @Test func missingAndUnexpectedPositionals() {
    let show = ShowCommand.configuration
    #expect(throws: UsageError("Missing expected argument 'FILE'")) { try ArgumentParser.parse([], for: show) }
    #expect(throws: UsageError("Unexpected argument 'b.loupe'")) { try ArgumentParser.parse(["a.loupe", "b.loupe"], for: show) }
    // After "--", more positionals for a command that runs no program.
    #expect(throws: UsageError("Unexpected argument '--kind'")) { try ArgumentParser.parse(["a.loupe", "--", "--kind"], for: show) }
  }

  @Test func editDistance() {
    #expect(ArgumentParser.editDistance("kind", "knid") == 2)
    #expect(ArgumentParser.editDistance("", "abc") == 3)
    #expect(ArgumentParser.editDistance("stats", "stats") == 0)
  }

  @Test func filterFromOptions() throws {
    let parsed = try parse(["--kind", "effect.*", "--store", "A*,B*", "--action", "*Tapped", "--path", "count"])
    let filter = FilterOptions.filter(from: parsed)
    #expect(filter.kinds?.map(\.pattern) == ["effect.*"])
    #expect(filter.stores?.map(\.pattern) == ["A*", "B*"])
    #expect(filter.actions?.map(\.pattern) == ["*Tapped"])
    #expect(filter.paths?.map(\.pattern) == ["count"])
    #expect(FilterOptions.filter(from: try parse([])).isEmpty)
  }

  @Test func suspiciousKindGlobsWarn() {
    let filter = FilterOptions.filter(from: try! parse(["--kind", "effect,state.changed,bogus"]))
    #expect(
      FilterOptions.warnings(for: filter) == [
        "--kind 'effect' matches no known event kind; did you mean 'effect.*'?",
        "--kind 'bogus' matches no known event kind (kinds: session.started, store.created, store.destroyed, identity.changed, action.received, state.changed, state.snapshot, effect.started, effect.finished, effect.cancelled, derived.recomputed, mark, dropped, warning)",
      ])
  }
}
