/// Lines up expected items with actual ones in order, matching as many as possible (a
/// longest common subsequence under a matching test rather than equality), so a failure
/// can show each missing expectation where it belonged and each unexpected event where it
/// happened.
struct Alignment {
  enum Step: Equatable {
    case matched(expected: Int, actual: Int)
    case missing(expected: Int)
    case unexpected(actual: Int)
  }

  let steps: [Step]

  var missing: [Int] { steps.compactMap { if case .missing(let index) = $0 { index } else { nil } } }
  var unexpected: [Int] { steps.compactMap { if case .unexpected(let index) = $0 { index } else { nil } } }

  /// Above this many cells the table is not built and a greedy in-order match is used.
  static let tableLimit = 4_000_000

  init(expected: Int, actual: Int, tableLimit: Int = Alignment.tableLimit, matches: (Int, Int) -> Bool) {
    if expected * actual > tableLimit {
      steps = Self.greedy(expected: expected, actual: actual, matches: matches)
      return
    }
    // best[i][j]: the most matches between expected[i...] and actual[j...].
    let width = actual + 1
    var best = [Int](repeating: 0, count: (expected + 1) * width)
    var cache = [Bool](repeating: false, count: expected * actual)
    if expected > 0 && actual > 0 {
      for i in stride(from: expected - 1, through: 0, by: -1) {
        for j in stride(from: actual - 1, through: 0, by: -1) {
          let match = matches(i, j)
          cache[i * actual + j] = match
          let skip = max(best[(i + 1) * width + j], best[i * width + j + 1])
          best[i * width + j] = match ? max(skip, best[(i + 1) * width + j + 1] + 1) : skip
        }
      }
    }
    var steps: [Step] = []
    var i = 0
    var j = 0
    while i < expected && j < actual {
      if cache[i * actual + j] && best[i * width + j] == best[(i + 1) * width + j + 1] + 1 {
        steps.append(.matched(expected: i, actual: j))
        i += 1
        j += 1
      } else if best[(i + 1) * width + j] >= best[i * width + j + 1] {
        steps.append(.missing(expected: i))
        i += 1
      } else {
        steps.append(.unexpected(actual: j))
        j += 1
      }
    }
    while i < expected {
      steps.append(.missing(expected: i))
      i += 1
    }
    while j < actual {
      steps.append(.unexpected(actual: j))
      j += 1
    }
    self.steps = steps
  }

  /// Each expected item takes the first actual item after the previous match that it matches.
  private static func greedy(expected: Int, actual: Int, matches: (Int, Int) -> Bool) -> [Step] {
    var steps: [Step] = []
    var j = 0
    for i in 0..<expected {
      guard let found = (j..<actual).first(where: { matches(i, $0) }) else {
        steps.append(.missing(expected: i))
        continue
      }
      steps += (j..<found).map { .unexpected(actual: $0) }
      steps.append(.matched(expected: i, actual: found))
      j = found + 1
    }
    steps += (j..<actual).map { .unexpected(actual: $0) }
    return steps
  }
}
