/// Splits a command's arguments into options, positionals and the program after `--`.
///
/// - `--name value` and `--name=value`; flags take no value (`--json=x` is an error).
/// - `-h` / `--help` anywhere before `--` asks for help, whatever else is wrong.
/// - `--` ends the options: what follows is the program to run (for commands that take one)
///   or more positionals.
/// - For commands that take a program, the first positional beyond those declared starts
///   the program too, so `loupe record t.loupe ./MyApp` works without `--`.
enum ArgumentParser {
  static func parse(_ arguments: [String], for configuration: CommandConfiguration) throws(UsageError) -> ParsedArguments {
    var parsed = ParsedArguments()
    let options = configuration.options + [.help]
    var index = 0
    var failure: UsageError?
    func fail(_ message: String) {
      if failure == nil { failure = UsageError(message) }
    }
    while index < arguments.count {
      let argument = arguments[index]
      index += 1
      if argument == "--" {
        let rest = Array(arguments[index...])
        if configuration.takesProgram {
          parsed.program = rest
        } else {
          parsed.positionals += rest
        }
        break
      }
      if argument.hasPrefix("-"), argument != "-" {
        var name = argument
        var inlineValue: String?
        if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
          name = String(argument[..<equals])
          inlineValue = String(argument[argument.index(after: equals)...])
        }
        guard let spec = options.first(where: { $0.name == name || $0.short == name }) else {
          fail(unknownOption(name, among: options))
          continue
        }
        if spec.name == OptionSpec.help.name {
          parsed.wantsHelp = true
          continue
        }
        if spec.isFlag {
          if inlineValue != nil { fail("'\(spec.name)' takes no value") }
          parsed.options[spec.name, default: []].append("")
          continue
        }
        if let inlineValue {
          parsed.options[spec.name, default: []].append(inlineValue)
        } else if index < arguments.count, !arguments[index].hasPrefix("-") || arguments[index] == "-" {
          parsed.options[spec.name, default: []].append(arguments[index])
          index += 1
        } else {
          fail("Missing value for '\(spec.name) \(spec.value!)'")
        }
        continue
      }
      if configuration.takesProgram, parsed.positionals.count >= configuration.arguments.count {
        parsed.program = Array(arguments[(index - 1)...])
        break
      }
      parsed.positionals.append(argument)
    }
    if parsed.wantsHelp { return parsed }
    if let failure { throw failure }
    let required = configuration.arguments.filter { !$0.isOptional }.count
    if parsed.positionals.count < required {
      let missing = configuration.arguments[parsed.positionals.count]
      throw UsageError("Missing expected argument '\(missing.name)'")
    }
    if parsed.positionals.count > configuration.arguments.count, configuration.arguments.last?.isRepeated != true {
      throw UsageError("Unexpected argument '\(parsed.positionals[configuration.arguments.count])'")
    }
    return parsed
  }

  private static func unknownOption(_ name: String, among options: [OptionSpec]) -> String {
    let candidates = options.map(\.name)
    let best = candidates.min { editDistance($0, name) < editDistance($1, name) }
    if let best, editDistance(best, name) <= 2 {
      return "Unknown option '\(name)'. Did you mean '\(best)'?"
    }
    return "Unknown option '\(name)'"
  }

  /// Levenshtein distance, for "did you mean" suggestions.
  static func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a)
    let b = Array(b)
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
      current[0] = i
      for j in 1...b.count {
        current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
      }
      swap(&previous, &current)
    }
    return previous[b.count]
  }
}
