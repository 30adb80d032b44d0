import CustomDump
import Loupe

/// State diffs: Loupe's structural diff (the changes a `state.changed` event carries, printed
/// as text) against CustomDump's `diff` (what TCA's `_printChanges()` prints), on the same
/// two values. Both sides produce a readable diff of one action's change.
enum DiffBenchmarks {
  static let all: [Benchmark] = [nested, identifiedArray, identifiedInsert, identifiedRemove] + thresholds

  static let nested = Benchmark(id: "diff.nested", what: "state diff: nested struct, 1 field changed") { context in
    let (old, new) = Fixtures.nestedPair()
    try check(old, new, expectedPath: "user.preferences.fontSize")
    return Pair(
      loupe: { n in for _ in 0..<n { blackHole(loupeDiff(old, new)) } },
      other: { n in for _ in 0..<n { blackHole(CustomDump.diff(old, new)) } },
      rows: { [.timed("diff.nested", "state diff: nested struct, 1 field changed", $0, target: .fasterBy(100))] })
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
          target: .fasterBy(500))]
      })
  }

  static let identifiedInsert = identified(.insert, expectedPath: { _ in "todos[id: -1]" })
  static let identifiedRemove = identified(.remove, expectedPath: { "todos[id: \($0 / 2)]" })

  static func identified(_ edit: Fixtures.Edit, expectedPath: @escaping @Sendable (Int) -> String) -> Benchmark {
    let id = "diff.identified.\(edit.rawValue)"
    return Benchmark(id: id, what: "state diff: identified array, 1 element \(edit == .remove ? "removed" : "\(edit.rawValue)ed")") { context in
      let count = context.smoke ? 200 : 10_000
      let (old, new) = Fixtures.todosPair(count: count, edit: edit)
      try check(old, new, expectedPath: expectedPath(count))
      return Pair(
        loupe: { n in for _ in 0..<n { blackHole(loupeDiff(old, new)) } },
        other: { n in for _ in 0..<n { blackHole(CustomDump.diff(old, new)) } },
        rows: {
          [.timed(
            id, "state diff: \(Format.count(Double(count)))-element identified array, 1 element \(edit == .remove ? "removed" : "\(edit.rawValue)ed")", $0,
            target: .fasterBy(500))]
        })
    }
  }

  /// No threshold where k + 1 changes cost less than k: a plain array of 100,000
  /// identifiable elements with k + 1 changed elements against the same with k (ratio ≥ 1).
  static let thresholds: [Benchmark] = [(16, 17), (64, 65), (256, 257)].map { pair in
    let id = "diff.plain.k\(pair.1)-vs-k\(pair.0)"
    return Benchmark(id: id, what: "plain array diff, \(pair.1) vs \(pair.0) elements changed") { context in
      let count = context.smoke ? 2_000 : 100_000
      let (a, b) = Fixtures.plainPair(count: count, changed: pair.1)
      let (c, d) = Fixtures.plainPair(count: count, changed: pair.0)
      guard StateDiff.diff(a, b).count == pair.1, StateDiff.diff(c, d).count == pair.0 else {
        throw BenchmarkError("the plain-array diffs did not find the changes")
      }
      return Pair(
        loupe: { n in for _ in 0..<n { blackHole(StateDiff.diff(a, b)) } },
        other: { n in for _ in 0..<n { blackHole(StateDiff.diff(c, d)) } },
        rows: {
          [.timed(
            id, "state diff: \(Format.count(Double(count)))-element plain array, \(pair.1) changed vs \(pair.0) changed",
            $0, target: .reference, note: "a ratio below 1 would be a threshold: more changes costing less",
            judgeByInstructions: true)]
        })
    }
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
    // A change shows − and + lines; an insert only + lines, a removal only − lines.
    guard let text = CustomDump.diff(old, new), text.contains("\n-") || text.contains("\n+") else {
      throw BenchmarkError("CustomDump found no difference")
    }
  }
}
