/// Diff of two JSON trees, with the same change semantics as the value diff (``StateDiff``):
///
/// - objects with the same keys in the same order (struct renderings) diff member by member,
///   at `.name` paths (or `["key"]` for names that are not identifiers);
/// - objects whose keys differ (dictionary renderings) diff by key, at `["key"]` paths:
///   `remove` for vanished keys, then in the new order the changed members and an `insert`
///   with `index` for new keys; if no key is shared (an enum that switched case, a `$ref`
///   that became an object) or the common keys changed their order, the object is replaced;
/// - a member turning from `null` to a value is an `insert`, from a value to `null` a
///   `remove` (like an optional that appears or vanishes);
/// - arrays are aligned positionally with inserts and removals (see ``StateDiff``);
/// - anything else that differs is a `replace`.
///
/// Applying the changes in order to `old` gives `new` exactly (``Change/apply(to:)``).
public enum JSONDiff {
  public static func diff(_ old: JSON, _ new: JSON, at path: StatePath = .root) -> [Change] {
    var changes: [Change] = []
    var paths: [StatePath]? = nil
    diff(old, new, at: path, into: &changes, paths: &paths)
    return changes
  }

  /// Appends the changes to `changes` and, when `paths` is not `nil`, each change's path as
  /// components to `paths`.
  static func diff(_ old: JSON, _ new: JSON, at path: StatePath, into changes: inout [Change], paths: inout [StatePath]?) {
    if old.isWireIdentical(to: new) { return }
    let text = path.description
    let isMember: Bool
    switch path.components.last {
    case nil, .field?: isMember = true
    default: isMember = false
    }
    switch (old, new) {
    case (.null, _) where isMember:
      append(Change(path: text, op: .insert, new: new), at: path, &changes, &paths)
    case (_, .null) where isMember:
      append(Change(path: text, op: .remove, old: old), at: path, &changes, &paths)
    case (.object(let a), .object(let b)):
      diffObjects(a, b, at: path, into: &changes, paths: &paths)
    case (.array(let a), .array(let b)):
      diffArrays(a, b, at: path, into: &changes, paths: &paths)
    default:
      append(Change(path: text, op: .replace, old: old, new: new), at: path, &changes, &paths)
    }
  }

  private static func diffObjects(_ a: JSONObject, _ b: JSONObject, at path: StatePath, into changes: inout [Change], paths: inout [StatePath]?) {
    // Keys compare as spelled (UTF-8): `"é"` and `"e\u{301}"` are different members.
    let oldKeys = a.keys.map(Spelling.init)
    let newKeys = b.keys.map(Spelling.init)
    if oldKeys == newKeys {
      for (ma, mb) in zip(a.members, b.members) {
        diff(ma.value, mb.value, at: path / .member(ma.key), into: &changes, paths: &paths)
      }
      return
    }
    let newKeySet = Set(newKeys)
    let oldKeySet = Set(oldKeys)
    let common = oldKeys.filter(newKeySet.contains)
    guard !common.isEmpty || oldKeys.isEmpty || newKeys.isEmpty, common == newKeys.filter(oldKeySet.contains),
      oldKeySet.count == oldKeys.count, newKeySet.count == newKeys.count
    else {
      append(Change(path: path.description, op: .replace, old: .object(a), new: .object(b)), at: path, &changes, &paths)
      return
    }
    for member in a.members where !newKeySet.contains(Spelling(member.key)) {
      let at = path / .key(member.key)
      append(Change(path: at.description, op: .remove, old: member.value), at: at, &changes, &paths)
    }
    for (position, member) in b.members.enumerated() {
      if let previous = a.position(spelled: member.key).map({ a.members[$0].value }) {
        diff(previous, member.value, at: path / .key(member.key), into: &changes, paths: &paths)
      } else {
        let at = path / .key(member.key)
        append(Change(path: at.description, op: .insert, new: member.value, index: position), at: at, &changes, &paths)
      }
    }
  }

  private static func diffArrays(_ a: [JSON], _ b: [JSON], at path: StatePath, into changes: inout [Change], paths: inout [StatePath]?) {
    var cursor = 0
    for segment in SequenceDiff.segments(oldCount: a.count, newCount: b.count, equal: { a[$0].isWireIdentical(to: b[$1]) }) {
      if segment.isEqual {
        cursor += segment.new.count
        continue
      }
      let paired = min(segment.old.count, segment.new.count)
      for offset in 0..<paired {
        diff(a[segment.old.lowerBound + offset], b[segment.new.lowerBound + offset], at: path / .index(cursor), into: &changes, paths: &paths)
        cursor += 1
      }
      for offset in paired..<segment.old.count {
        let at = path / .index(cursor)
        append(Change(path: at.description, op: .remove, old: a[segment.old.lowerBound + offset]), at: at, &changes, &paths)
      }
      for offset in paired..<segment.new.count {
        let at = path / .index(cursor)
        append(Change(path: at.description, op: .insert, new: b[segment.new.lowerBound + offset]), at: at, &changes, &paths)
        cursor += 1
      }
    }
  }

  private static func append(_ change: Change, at path: StatePath, _ changes: inout [Change], _ paths: inout [StatePath]?) {
    changes.append(change)
    paths?.append(path)
  }
}
