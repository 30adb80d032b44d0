import CustomDump
import Loupe

/// State diffs: Loupe's structural diff (the changes a `state.changed` event carries, printed
/// as text) against CustomDump's `diff` (what TCA's `_printChanges()` prints), on the same
/// two values. Both sides produce a readable diff of one action's change.
enum DiffBenchmarks {
  static let all: [Benchmark] = [nested, identifiedArray]

  static let nested = Benchmark(id: "diff.nested", what: "state diff: nested struct, 1 field changed") { context in
    let (old, new) = Fixtures.nestedPair()
    try check(old, new, expectedPath: "user.preferences.fontSize")
    return Pair(
      loupe: { n in for _ in 0..<n { blackHole(loupeDiff(old, new)) } },
      other: { n in for _ in 0..<n { blackHole(CustomDump.diff(old, new)) } },
      rows: { [.timed("diff.nested", "state diff: nested struct, 1 field changed", $0, target: .fasterBy(5))] })
  }

  static let identifiedArray = Benchmark(id: "diff.identified", what: "state diff: identified array, 1 element changed") {
    context in
    let count = context.smoke ? 200 : 10_000
    let (old, new) = Fixtures.todosPair(count: count)
    try check(old, new, expectedPath: "todos[id: \(count / 2)].isDone")
    return Pair(
      loupe: { n in for _ in 0..<n { blackHole(loupeDiff(old, new)) } },
      other: { n in for _ in 0..<n { blackHole(CustomDump.diff(old, new)) } },
      rows: {
        [.timed(
          "diff.identified", "state diff: \(Format.count(Double(count)))-element identified array, 1 element changed", $0,
          target: .fasterBy(20))]
      })
  }

  /// What Loupe does per action for a `state.changed` event, plus the text a person reads.
  static func loupeDiff<T>(_ old: T, _ new: T) -> String {
    ChangeText.text(StateDiff.diff(old, new))
  }

  /// Both sides must see exactly the one change.
  static func check<T>(_ old: T, _ new: T, expectedPath: String) throws {
    let changes = StateDiff.diff(old, new)
    guard changes.count == 1, changes[0].path == expectedPath else {
      throw BenchmarkError("Loupe's diff found \(changes.map(\.path)), expected [\(expectedPath)]")
    }
    guard let text = CustomDump.diff(old, new), text.contains("\n-"), text.contains("\n+") else {
      throw BenchmarkError("CustomDump found no difference")
    }
  }
}
