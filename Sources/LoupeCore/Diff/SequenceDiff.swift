/// Aligns two sequences: which runs are equal and which were replaced, inserted or removed.
///
/// Common prefix and suffix are trimmed first (the usual case — one element changed, one
/// appended — costs a single pass), then Myers' O((N+M)·D) algorithm aligns the middle. When
/// the middle needs more edits than the work budget allows, it is reported as one changed
/// run: still correct, just less minimal.
enum SequenceDiff {
  /// A run of the old sequence (`old`) that became a run of the new one (`new`): equal runs
  /// have the same length; changed runs may have any lengths, including zero on one side.
  struct Segment: Equatable {
    var old: Range<Int>
    var new: Range<Int>
    var isEqual: Bool
  }

  /// The alignment of `oldCount` elements with `newCount` elements, in order.
  static func segments(oldCount: Int, newCount: Int, equal: (Int, Int) -> Bool) -> [Segment] {
    var prefix = 0
    while prefix < oldCount, prefix < newCount, equal(prefix, prefix) { prefix += 1 }
    var suffix = 0
    while suffix < oldCount - prefix, suffix < newCount - prefix, equal(oldCount - 1 - suffix, newCount - 1 - suffix) {
      suffix += 1
    }
    var result: [Segment] = []
    if prefix > 0 { result.append(Segment(old: 0..<prefix, new: 0..<prefix, isEqual: true)) }
    let n = oldCount - prefix - suffix
    let m = newCount - prefix - suffix
    if n > 0 || m > 0 {
      let budget = max(16, min(512, 4_000_000 / max(1, n + m)))
      if n > 0, m > 0, let steps = myers(n, m, maxEdits: budget, equal: { equal($0 + prefix, $1 + prefix) }) {
        result.append(contentsOf: segments(from: steps, offset: prefix))
      } else {
        result.append(Segment(old: prefix..<(prefix + n), new: prefix..<(prefix + m), isEqual: false))
      }
    }
    if suffix > 0 {
      result.append(Segment(old: (oldCount - suffix)..<oldCount, new: (newCount - suffix)..<newCount, isEqual: true))
    }
    return result
  }

  private enum Step {
    case equal(Int, Int)
    case delete(Int)
    case insert(Int)
  }

  private static func segments(from steps: [Step], offset: Int) -> [Segment] {
    var result: [Segment] = []
    var x = offset
    var y = offset
    func extend(_ isEqual: Bool, dx: Int, dy: Int) {
      if let last = result.last, last.isEqual == isEqual, last.old.upperBound == x, last.new.upperBound == y {
        result[result.count - 1].old = last.old.lowerBound..<(x + dx)
        result[result.count - 1].new = last.new.lowerBound..<(y + dy)
      } else {
        result.append(Segment(old: x..<(x + dx), new: y..<(y + dy), isEqual: isEqual))
      }
      x += dx
      y += dy
    }
    for step in steps {
      switch step {
      case .equal: extend(true, dx: 1, dy: 1)
      case .delete: extend(false, dx: 1, dy: 0)
      case .insert: extend(false, dx: 0, dy: 1)
      }
    }
    return result
  }

  /// Myers' greedy algorithm with the `V` window of every round kept for the walk back.
  /// Returns `nil` when more than `maxEdits` insertions and deletions are needed.
  private static func myers(_ n: Int, _ m: Int, maxEdits: Int, equal: (Int, Int) -> Bool) -> [Step]? {
    let maxD = min(n + m, maxEdits)
    let offset = maxD + 1
    var v = [Int](repeating: 0, count: 2 * maxD + 3)
    var trace: [[Int]] = []
    for d in 0...maxD {
      // The furthest x on each diagonal k ∈ [-d, d] after round d-1.
      trace.append(Array(v[(offset - d)...(offset + d)]))
      for k in stride(from: -d, through: d, by: 2) {
        var x: Int
        if k == -d || (k != d && v[offset + k - 1] < v[offset + k + 1]) {
          x = v[offset + k + 1]
        } else {
          x = v[offset + k - 1] + 1
        }
        var y = x - k
        while x < n, y < m, equal(x, y) {
          x += 1
          y += 1
        }
        v[offset + k] = x
        if x >= n, y >= m { return backtrack(trace, rounds: d, n: n, m: m) }
      }
    }
    return nil
  }

  private static func backtrack(_ trace: [[Int]], rounds: Int, n: Int, m: Int) -> [Step] {
    var steps: [Step] = []
    var x = n
    var y = m
    var d = rounds
    while d > 0 {
      let window = trace[d]  // index k + d
      let k = x - y
      let previousK = (k == -d || (k != d && window[k - 1 + d] < window[k + 1 + d])) ? k + 1 : k - 1
      let previousX = window[previousK + d]
      let previousY = previousX - previousK
      while x > previousX, y > previousY {
        steps.append(.equal(x - 1, y - 1))
        x -= 1
        y -= 1
      }
      if x == previousX {
        steps.append(.insert(previousY))
      } else {
        steps.append(.delete(previousX))
      }
      x = previousX
      y = previousY
      d -= 1
    }
    while x > 0, y > 0 {
      steps.append(.equal(x - 1, y - 1))
      x -= 1
      y -= 1
    }
    steps.reverse()
    return steps
  }
}
