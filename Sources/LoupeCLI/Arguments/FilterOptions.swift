import LoupeCore

/// `--kind`, `--store`, `--action`, `--path`: the FILTER of CONTRACT §8, which builds the one
/// ``EventFilter`` that the server, the CLI and LoupeTesting share.
enum FilterOptions {
  static let specs: [OptionSpec] = [
    .option("--kind", value: "GLOB[,GLOB...]", help: "Keep events whose kind matches, e.g. 'effect.*' or 'state.changed'."),
    .option("--store", value: "GLOB[,GLOB...]", help: "Keep events of matching stores, e.g. 'AppFeature#1/pages*'."),
    .option("--action", value: "GLOB[,GLOB...]", help: "Keep only action.received events whose action label matches, e.g. '*timerTicked'."),
    .option(
      "--path", value: "GLOB[,GLOB...]",
      help: "Keep only state.changed events with a change at a matching path, from the store or from its root store, e.g. 'pages*.count'."),
  ]

  /// The filter from the parsed options; `.all` when none is given.
  static func filter(from arguments: ParsedArguments) -> EventFilter {
    func globs(_ name: String) -> [Glob]? { arguments.list(name).map { $0.map { Glob($0) } } }
    return EventFilter(kinds: globs("--kind"), stores: globs("--store"), actions: globs("--action"), paths: globs("--path"))
  }

  /// Warnings for filters that look like mistakes: a `--kind` glob that matches no kind
  /// this build knows (`effect` instead of `effect.*`).
  static func warnings(for filter: EventFilter) -> [String] {
    var warnings: [String] = []
    for glob in filter.kinds ?? [] where !Event.knownKinds.contains(where: glob.matches) {
      var message = "--kind '\(glob.pattern)' matches no known event kind"
      if Event.knownKinds.contains(where: { $0.hasPrefix(glob.pattern + ".") }) {
        message += "; did you mean '\(glob.pattern).*'?"
      } else {
        message += " (kinds: \(Event.knownKinds.joined(separator: ", ")))"
      }
      warnings.append(message)
    }
    return warnings
  }
}

/// Which `--path` globs matched a change among the events shown, so that a glob that matched
/// nothing in a whole trace or session gets a warning (as a `--kind` glob matching no kind
/// does) instead of an empty timeline and no explanation.
struct PathGlobUsage {
  private var unmatched: [Glob]

  init(filter: EventFilter) { unmatched = filter.paths ?? [] }

  /// Notes the changes of a `state.changed` event that is shown.
  mutating func note(_ event: Event) {
    guard !unmatched.isEmpty, case .stateChanged(let e) = event.payload else { return }
    unmatched.removeAll { glob in e.changes.contains { EventFilter.path($0.path, store: e.store, matchesAny: [glob]) } }
  }

  /// One warning per glob that matched no change.
  var warnings: [String] {
    unmatched.map {
      "--path '\($0.pattern)' matched no change (paths are matched from the store that changed, 'count', and from its root store, 'pages[id: 1].count'; see them with --kind state.changed)"
    }
  }
}
