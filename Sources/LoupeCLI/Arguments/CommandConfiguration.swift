/// What a command is called, what it does and which arguments it takes: everything its help
/// page and its argument parsing need.
struct CommandConfiguration: Sendable {
  /// The word after `loupe`, e.g. `show`.
  var name: String
  /// One line for `loupe --help`'s SUBCOMMANDS list and the OVERVIEW.
  var abstract: String
  /// Paragraphs after the abstract in the OVERVIEW.
  var discussion: String = ""
  /// The usage line after `loupe NAME`, e.g. `FILE [FILTER] [--format text|json|changes]`.
  var usage: String
  /// Positional arguments, in order.
  var arguments: [PositionalSpec] = []
  var options: [OptionSpec] = []
  /// Whether the command takes `-- COMMAND [ARG...]`: everything after `--` is the program to run.
  var takesProgram = false
  /// Example invocations with a comment, shown under EXAMPLES.
  var examples: [(command: String, comment: String)] = []
  /// Not listed in `loupe --help` (still documented by its own `--help`).
  var isHidden = false
}

/// A positional argument, e.g. `FILE`.
struct PositionalSpec: Sendable {
  var name: String
  var help: String
  var isOptional = false
  /// Takes every further positional too (`TRACE...`); only the last one may.
  var isRepeated = false
}

/// An option (`--format json`, `--format=json`) or a flag (`--json`).
struct OptionSpec: Sendable {
  /// The long name with its dashes, e.g. `--format`.
  var name: String
  /// A one-letter alias with its dash, e.g. `-o`.
  var short: String? = nil
  /// The placeholder of its value, e.g. `GLOB[,GLOB...]`; `nil` for a flag.
  var value: String? = nil
  var help: String

  static func flag(_ name: String, short: String? = nil, help: String) -> OptionSpec {
    OptionSpec(name: name, short: short, value: nil, help: help)
  }

  static func option(_ name: String, short: String? = nil, value: String, help: String) -> OptionSpec {
    OptionSpec(name: name, short: short, value: value, help: help)
  }

  var isFlag: Bool { value == nil }
}

extension OptionSpec {
  /// `-h, --help`, which every command has.
  static let help = OptionSpec.flag("--help", short: "-h", help: "Show help for this command.")
}
