import LoupeSession
/// Help pages in swift-argument-parser's layout: OVERVIEW, USAGE, ARGUMENTS, OPTIONS
/// (and SUBCOMMANDS for `loupe` itself), EXAMPLES.
enum HelpFormatter {
  /// Where help text starts after a name column.
  static let column = 26

  static func help(for configuration: CommandConfiguration) -> String {
    var text = "OVERVIEW: \(configuration.abstract)\n"
    if !configuration.discussion.isEmpty {
      text += "\n" + wrap(configuration.discussion, width: 80).joined(separator: "\n") + "\n"
    }
    text += "\nUSAGE: \(usage(configuration))\n"
    if !configuration.arguments.isEmpty {
      text += "\nARGUMENTS:\n"
      for argument in configuration.arguments {
        text += row(argument.name, argument.help)
      }
    }
    text += "\nOPTIONS:\n"
    for option in configuration.options + [.help] {
      text += row(label(option), option.help)
    }
    if !configuration.examples.isEmpty {
      text += "\nEXAMPLES:\n"
      for example in configuration.examples {
        text += "  # \(example.comment)\n  \(example.command)\n"
      }
    }
    return text
  }

  static func usage(_ configuration: CommandConfiguration) -> String {
    configuration.usage.isEmpty ? "loupe \(configuration.name)" : "loupe \(configuration.name) \(configuration.usage)"
  }

  static func topLevelHelp(commands: [CommandConfiguration]) -> String {
    var text = """
      OVERVIEW: Watch, record and inspect what Loupe stores do: actions, state changes,
      effects, derived values and identities.

      Programs built with Loupe serve their events over JSON-RPC when run with
      LOUPE=stdio (or LOUPE=unix:PATH), and write trace files with LOUPE_RECORD=FILE.

      USAGE: loupe <subcommand>

      OPTIONS:

      """
    text += row("--version", "Show the version.")
    text += row(label(.help), "Show help information.")
    text += "\nSUBCOMMANDS:\n"
    for command in commands where !command.isHidden {
      text += row(command.name, command.abstract)
    }
    text += "\n  See 'loupe help <subcommand>' for detailed help.\n"
    return text
  }

  static func label(_ option: OptionSpec) -> String {
    var label = option.short.map { "\($0), " } ?? ""
    label += option.name
    if let value = option.value { label += " \(value)" }
    return label
  }

  /// `  name            help`, wrapping help at 80 columns and putting it on the next line
  /// when the name is too long.
  static func row(_ name: String, _ help: String) -> String {
    let lines = wrap(help, width: 80 - column)
    var text = "  \(name)"
    if name.count + 2 >= column - 1 {
      text += "\n" + String(repeating: " ", count: column)
    } else {
      text += String(repeating: " ", count: column - name.count - 2)
    }
    text += lines.joined(separator: "\n" + String(repeating: " ", count: column))
    return text + "\n"
  }

  static func wrap(_ text: String, width: Int) -> [String] {
    Formatting.wrap(text, width: width)
  }
}
