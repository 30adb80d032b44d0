/// The arguments of one command, split by ``ArgumentParser`` according to its configuration.
struct ParsedArguments: Sendable {
  /// Option values by long name (`--kind`), in the order given; flags have one empty value per use.
  var options: [String: [String]] = [:]
  var positionals: [String] = []
  /// The program and its arguments after `--`, for commands that take one.
  var program: [String]? = nil
  /// `-h` or `--help` was given.
  var wantsHelp = false

  func flag(_ name: String) -> Bool { options[name] != nil }

  /// The last value given for `name` (later options override earlier ones).
  func value(_ name: String) -> String? { options[name]?.last }

  /// Every value given for `name`, each split at commas: `--kind a,b --kind c` is `[a, b, c]`.
  func list(_ name: String) -> [String]? {
    guard let values = options[name] else { return nil }
    return values.flatMap { $0.split(separator: ",", omittingEmptySubsequences: true).map(String.init) }
  }
}
