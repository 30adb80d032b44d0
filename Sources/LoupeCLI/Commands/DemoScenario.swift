import Foundation

/// A scenario of `loupe-examples` that `loupe demo` plays: how to run it so its story plays
/// once within about five seconds, and what to try on the trace it leaves.
///
/// The stories are the scenarios' scripts (`Sources/LoupeExamples/*/…Scenario.swift`), in
/// script time: `seconds × speed` of it are played, which must cover the script's last beat
/// and end before its first beat comes round again.
enum DemoScenario: String, CaseIterable {
  /// Seed 000: six swipes a second apart (6 s), 1.5× faster; 6.6 s of script.
  case pages
  /// Seed 003: rounds, a visit to the results page that saves, more rounds, a visit that
  /// discards (its last beat at 8 s, the next at 8.25 s), 2× faster; 8.2 s of script.
  case game
  /// Seed 004: a query typed, its results edited, the search cleared (its last beat at
  /// 4.95 s, the next at 5.55 s), 1.25× faster; 5.25 s of script.
  case todos

  /// The arguments given to `loupe-examples` after the scenario's name, but `--seconds`.
  var arguments: [String] {
    switch self {
    // With one process-wide cancellation scope, as TCA 1.9 had, a swipe cancels another
    // page's timer, which is what 'loupe doctor' then explains.
    case .pages: ["--shared-cancellation", "--speed", "1.5"]
    case .game: ["--speed", "2"]
    case .todos: ["--speed", "1.25"]
    }
  }

  /// How long it runs by default, in seconds of wall time: one pass of its story.
  var seconds: Double {
    switch self {
    case .pages: 4.4
    case .game: 4.1
    case .todos: 4.2
    }
  }

  /// What to try on the trace `file` (already quoted for the shell), as `loupe` arguments and
  /// what each shows in this scenario's trace.
  func suggestions(file: String) -> [(command: String, comment: String)] {
    let perfetto = ("export \(file) --chrome-trace demo.json", "then open demo.json in https://ui.perfetto.dev")
    switch self {
    case .pages:
      return [
        ("doctor \(file)", "the pitfalls in this run, explained"),
        ("show \(file) --kind 'effect.*'", "effects, with how long each ran"),
        ("show \(file) --format changes", "state changes, _printChanges style"),
        ("stats \(file)", "actions, reducer time, effect durations"),
        perfetto,
      ]
    case .game:
      return [
        ("show \(file) --kind identity.changed", "each visit to the results page is a new identity"),
        ("show \(file) --store 'GameFeature#1/resultList'", "the results page's own story, both visits"),
        ("show \(file) --path 'results*'", "results added, deleted on the page, then on the game once saved"),
        ("stats \(file)", "actions, reducer time, identity changes per store"),
        perfetto,
      ]
    case .todos:
      return [
        ("doctor \(file)", "a derived value recomputed for nothing, explained"),
        ("show \(file) --kind effect.cancelled", "the searches that typing dropped (cancelInFlight)"),
        ("show \(file) --kind derived.recomputed", "what each action recomputed, and whether it changed"),
        ("show \(file) --path 'database.todos*.title'", "one to-do renamed: a single path among 5000 to-dos"),
        ("stats \(file)", "reducer time, effects, derived values"),
      ]
    }
  }
}
