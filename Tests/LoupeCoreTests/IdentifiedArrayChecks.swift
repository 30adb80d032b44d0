import Testing

@testable import LoupeCore

/// What the diff and `==` rely on from two storages holding `a` and `b` (used by the tree
/// tests and the small-form tests, over both forms): every position whose element differs
/// lies in a range `differingRanges` names, the ends `sharedEnds` reports hold the same
/// elements, and identical storages hold equal elements.
func expectComparisonsHold(
  _ old: IdentifiedArrayStorage<Int>, _ a: [Int], _ new: IdentifiedArrayStorage<Int>, _ b: [Int], step: Int
) {
  if let ranges = old.differingRanges(from: new) {
    #expect(a.count == b.count, "step \(step)")
    for position in a.indices where a[position] != b[position] {
      #expect(ranges.contains { $0.contains(position) }, "step \(step): \(position) differs outside \(ranges)")
    }
  }
  let (prefix, suffix) = old.sharedEnds(with: new)
  #expect(prefix + suffix <= min(a.count, b.count), "step \(step)")
  #expect(a.prefix(prefix) == b.prefix(prefix), "step \(step)")
  #expect(a.suffix(suffix) == b.suffix(suffix), "step \(step)")
  if old.isIdentical(to: new) { #expect(a == b, "step \(step)") }
}

/// Each change as one line (op, path, old, new, index, truncated), to compare two diffs.
func changeLines(_ changes: [Change]) -> [String] {
  changes.map { change in
    var line = "\(change.op.rawValue) \(change.path)"
    if let old = change.old { line += " old=\(old.jsonText)" }
    if let new = change.new { line += " new=\(new.jsonText)" }
    if let index = change.index { line += " index=\(index)" }
    if change.truncated { line += " truncated" }
    return line
  }
}
