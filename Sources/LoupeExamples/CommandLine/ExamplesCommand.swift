/// The command line of `loupe-examples`, parsed and validated (running is ``ExamplesMain``).
///
/// ```
/// loupe-examples pages|game|todos [--seconds N] [--once] [--speed X] [--quiet] [--shared-cancellation]
///                [--todos N] [--state-log FILE]
/// ```
struct ExamplesCommand: Equatable {
  /// The scenarios, in the order help lists them.
  enum ScenarioName: String, CaseIterable {
    case pages, game, todos

    var abstract: String {
      switch self {
      case .pages: "Seed 000: four pages, each with its own store and timer, swiped through."
      case .game: "Seed 003: a guessing game with a stopwatch, results, navigation and an alert."
      case .todos: "Seed 004: a big normalized to-do list, derived values and a keyed search."
      }
    }
  }

  var scenario: ScenarioName
  /// How long the scenario runs, in seconds of wall time.
  var seconds: Double = ExamplesCommand.defaultSeconds
  /// How many times faster than real time the script (and its timers) run.
  var speed: Double = 1
  /// `pages` only: share cancel ids across the pages' stores.
  var sharedCancellation = false
  /// No narration on standard output.
  var quiet = false
  /// Play the script once, whole, however slowly the machine runs it; `seconds` is then the
  /// time the story is given after its first beat, not a cut-off.
  var once = false
  /// `todos` only: how many to-dos the list starts with (`nil`: ``defaultTodoCount``).
  var todoCount: Int?
  /// Where to write the state the scenario's stores hold after each step, with a mark in the
  /// session at that moment (what `loupe state --at` must print: ``StateLog``).
  var stateLog: String?
  /// Create the stores and play no script: wait `seconds` for tools to act on the program.
  var idle = false
  /// `todos` only: a deliberately changed reducer (renames upper-case the title), for trying
  /// `loupe replay-actions` against a build that behaves differently.
  var mutant = false

  static let defaultTodoCount = 5_000

  static let defaultSeconds = 5.0
  static let usage =
    "loupe-examples <scenario> [--seconds N] [--once | --idle] [--speed X] [--quiet] [--shared-cancellation] [--todos N] [--mutant] [--state-log FILE]"

  /// What the arguments ask for.
  enum Invocation: Equatable {
    case help
    case run(ExamplesCommand)
  }

  /// Parses the arguments after the program name.
  static func parse(_ arguments: [String]) throws(UsageError) -> Invocation {
    var scenario: ScenarioName?
    var command = ExamplesCommand(scenario: .pages)
    var remaining = arguments[...]
    while let argument = remaining.popFirst() {
      var name = argument
      var inlineValue: String?
      if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
        name = String(argument[..<equals])
        inlineValue = String(argument[argument.index(after: equals)...])
      }
      func value() throws(UsageError) -> String {
        if let inlineValue { return inlineValue }
        guard let next = remaining.popFirst(), !next.hasPrefix("--") else {
          throw UsageError("Missing value for '\(name)'")
        }
        return next
      }
      func flag() throws(UsageError) {
        if inlineValue != nil { throw UsageError("'\(name)' takes no value") }
      }
      switch name {
      case "-h", "--help", "help":
        return .help
      case "--seconds":
        command.seconds = try number(try value(), for: name, in: 0.001...3600, expected: "a number of seconds (up to 3600)")
      case "--speed":
        command.speed = try number(try value(), for: name, in: 0.01...1000, expected: "a positive factor (up to 1000)")
      case "--shared-cancellation":
        try flag()
        command.sharedCancellation = true
      case "--quiet":
        try flag()
        command.quiet = true
      case "--once":
        try flag()
        command.once = true
      case "--idle":
        try flag()
        command.idle = true
      case "--mutant":
        try flag()
        command.mutant = true
      case "--todos":
        command.todoCount = Int(try number(try value(), for: name, in: 1...100_000, expected: "a number of to-dos (1 to 100000)", whole: true))
      case "--state-log":
        command.stateLog = try value()
      default:
        if argument.hasPrefix("-") { throw UsageError("Unknown option '\(argument)'") }
        guard scenario == nil else { throw UsageError("Unexpected argument '\(argument)': give one scenario") }
        guard let named = ScenarioName(rawValue: argument) else {
          throw UsageError("Unknown scenario '\(argument)': choose pages, game or todos")
        }
        scenario = named
      }
    }
    guard let scenario else { throw UsageError("Missing scenario: choose pages, game or todos") }
    command.scenario = scenario
    if command.sharedCancellation && scenario != .pages {
      throw UsageError("'--shared-cancellation' applies to the pages scenario only")
    }
    if command.mutant && scenario != .todos {
      throw UsageError("'--mutant' applies to the todos scenario only")
    }
    if command.idle && command.once {
      throw UsageError("'--idle' plays no script: it does not go with '--once'")
    }
    if command.todoCount != nil && scenario != .todos {
      throw UsageError("'--todos' applies to the todos scenario only")
    }
    return .run(command)
  }

  private static func number(
    _ text: String, for option: String, in range: ClosedRange<Double>, expected: String, whole: Bool = false
  ) throws(UsageError) -> Double {
    guard let value = Double(text), value.isFinite, range.contains(value), !whole || value.rounded() == value else {
      throw UsageError("Invalid value '\(text)' for '\(option)': expected \(expected)")
    }
    return value
  }

  static var help: String {
    let scenarios = ScenarioName.allCases.map { "  \($0.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0))\($0.abstract)" }
    return """
      OVERVIEW: Loupe's store at work: the seeds' pitfalls as small, real features, each
      played by a script that ends by itself (status 0).

      USAGE: \(usage)

      SCENARIOS:
      \(scenarios.joined(separator: "\n"))

      OPTIONS:
        --seconds N             How long the scenario runs (default: \(Int(defaultSeconds))).
        --once                  Play the script once, whole, then end: at N seconds, or right
                                after its last step when a busy machine played it late.
        --speed X               Play the script and its timers X times faster (default: 1).
        --shared-cancellation   pages: give the pages' stores one process-wide cancellation
                                scope, as TCA 1.9 did (seed 000's bug; 'loupe doctor' finds it).
        --idle                  Create the stores and play no script: the program waits N
                                seconds for tools to act on it (with LOUPE_CONTROL=1:
                                'loupe send', 'loupe replay-actions').
        --todos N               todos: how many to-dos the list starts with (default: \(defaultTodoCount)).
        --mutant                todos: a deliberately changed reducer (a rename upper-cases
                                the title), to see 'loupe replay-actions' find the difference.
        --state-log FILE        After each step, mark the moment in the session and write the
                                state of the scenario's stores to FILE, one JSON line each:
                                {"seq": the mark, "store": id, "state": rendered} — what
                                'loupe state FILE --store ID --at SEQ --format json' prints.
        --quiet                 Do not narrate the script on standard output.
        -h, --help              Show help information.

      ENVIRONMENT:
        LOUPE=stdio             Serve the Loupe protocol on stdin/stdout (what 'loupe attach' does).
        LOUPE=unix:PATH         Serve it on a Unix socket ('loupe attach --socket PATH').
        LOUPE_RECORD=FILE       Record a trace of the run ('loupe show FILE').
        LOUPE_CONTROL=1         Let tools send actions and set state (every example's actions
                                and states are Codable).

      EXAMPLES:
        loupe attach -- loupe-examples game
        loupe record pages.loupe -- loupe-examples pages --shared-cancellation
        loupe doctor pages.loupe
        LOUPE_RECORD=todos.loupe loupe-examples todos --seconds 10
        loupe record todos.loupe -- loupe-examples todos --todos 20 --state-log states.jsonl

      """
  }
}

/// A mistake on the command line: reported with the usage line, exit status 2.
struct UsageError: Error, Equatable, CustomStringConvertible {
  let message: String
  init(_ message: String) { self.message = message }
  var description: String { message }
}
