/// Structural diff of two values of the same type into ``Change``s.
///
/// BASELINE: renders both values and diffs the JSON trees positionally. Issue 2 replaces it
/// with the value-level diff (Equatable and identical-storage short-cuts, identified elements
/// matched by id, inserts and removals).
public enum StateDiff {
  public static func diff<Value>(_ old: Value, _ new: Value, options: RenderOptions = .default) -> [Change] {
    JSONDiff.diff(ValueRenderer.render(old, options: options), ValueRenderer.render(new, options: options))
  }
}

/// Diff of two JSON trees.
public enum JSONDiff {
  public static func diff(_ old: JSON, _ new: JSON, at path: StatePath = .root) -> [Change] {
    var changes: [Change] = []
    diff(old, new, at: path, into: &changes)
    return changes
  }

  static func diff(_ old: JSON, _ new: JSON, at path: StatePath, into changes: inout [Change]) {
    if old == new { return }
    switch (old, new) {
    case (.object(let a), .object(let b)) where a.keys == b.keys:
      for (ma, mb) in zip(a.members, b.members) {
        diff(ma.value, mb.value, at: path / .field(ma.key), into: &changes)
      }
    case (.array(let a), .array(let b)) where a.count == b.count:
      for (offset, (ea, eb)) in zip(a, b).enumerated() {
        diff(ea, eb, at: path / .index(offset), into: &changes)
      }
    default:
      changes.append(Change(path: path.description, op: .replace, old: old, new: new))
    }
  }
}
