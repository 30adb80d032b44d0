import Foundation

/// One benchmark: measures something and returns its rows of the table.
///
/// Most are a ``Pair`` of workloads measured side by side by the harness; those that time
/// whole processes measure by themselves.
struct Benchmark: Sendable {
  enum Kind: Sendable {
    case paired(@MainActor @Sendable (BenchContext) throws -> Pair)
    case custom(@MainActor @Sendable (BenchContext) throws -> [Row])
  }

  var id: String
  var what: String
  var kind: Kind

  init(id: String, what: String, pair: @escaping @MainActor @Sendable (BenchContext) throws -> Pair) {
    self.id = id
    self.what = what
    self.kind = .paired(pair)
  }

  init(id: String, what: String, run: @escaping @MainActor @Sendable (BenchContext) throws -> [Row]) {
    self.id = id
    self.what = what
    self.kind = .custom(run)
  }

  /// Measures and returns the rows.
  @MainActor func run(_ context: BenchContext) throws -> [Row] {
    switch kind {
    case .custom(let run):
      return try run(context)
    case .paired(let prepare):
      let pair = try prepare(context)
      var comparison = Harness.compare(plan: context.plan, loupe: pair.loupe, other: pair.other)
      if context.countsInstructions {
        comparison.instructions = try Callgrind.instructionsPerOperation(
          of: id, loupeNanoseconds: comparison.loupeNanoseconds, otherNanoseconds: comparison.otherNanoseconds,
          context: context)
      }
      return try pair.rows(comparison)
    }
  }

  /// Whether `patterns` (globs or plain substrings, any of them) select this benchmark.
  func isSelected(by patterns: [String]) -> Bool {
    patterns.isEmpty || patterns.contains { pattern in
      pattern.contains("*") || pattern.contains("?") ? Glob.matches(pattern, id) : id.contains(pattern)
    }
  }
}

/// Two workloads to measure side by side, and how to report the result.
struct Pair {
  var loupe: Workload
  var other: Workload
  /// Builds the rows from the measurement (and may check what the workloads left behind).
  var rows: (Comparison) throws -> [Row]
}

/// What every benchmark gets to run with.
struct BenchContext: Sendable {
  /// Small sizes and few repetitions: checks that everything runs, measures nothing.
  var smoke: Bool
  var plan: MeasurementPlan
  /// The repository root (the main package).
  var repositoryRoot: URL
  /// Where this build's executables are (`loupe-bench-emit` beside `loupe-bench`).
  var binDirectory: URL
  /// Also count instructions with callgrind (valgrind installed, not in smoke mode).
  var countsInstructions: Bool
}

struct BenchmarkError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}

/// `*` and `?` globs, as the filter flags spell them.
enum Glob {
  static func matches(_ pattern: String, _ text: String) -> Bool {
    let p = Array(pattern.utf8)
    let t = Array(text.utf8)
    var (pi, ti) = (0, 0)
    var star: (p: Int, t: Int)?
    while ti < t.count {
      if pi < p.count, p[pi] == UInt8(ascii: "?") || p[pi] == t[ti] {
        pi += 1
        ti += 1
      } else if pi < p.count, p[pi] == UInt8(ascii: "*") {
        star = (pi, ti)
        pi += 1
      } else if let s = star {
        pi = s.p + 1
        ti = s.t + 1
        star = (s.p, s.t + 1)
      } else {
        return false
      }
    }
    while pi < p.count, p[pi] == UInt8(ascii: "*") { pi += 1 }
    return pi == p.count
  }
}
