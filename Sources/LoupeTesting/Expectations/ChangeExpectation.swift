/// One expected change in a `state.changed` event (see
/// ``EventExpectation/stateChanged(store:paths:changes:summary:)``).
///
/// ```swift
/// .stateChanged(store: "TimerFeature#1", changes: [.replace("ticks", from: 1, to: 2)])
/// .stateChanged(changes: [.insert("todos[id: 3]"), .replace("count", from: 2, to: 3)])
/// ```
///
/// Paths are patterns (`"pages[id: *].count"`); `"@self"` is the whole state. Values are
/// the rendered JSON (`JSON` literals: `0`, `"text"`, `["id": 3]`, `nil`).
public struct ChangeExpectation: Sendable, Hashable, CustomStringConvertible {
  let path: String
  let op: Change.Op?
  let old: JSON?
  let new: JSON?

  /// The value at `path` was replaced; `from` and `to` are checked when given.
  public static func replace(_ path: String, from old: JSON? = nil, to new: JSON? = nil) -> Self {
    Self(path: path, op: .replace, old: old, new: new)
  }

  /// A value was inserted at `path` (`value` checked when given).
  public static func insert(_ path: String, _ value: JSON? = nil) -> Self {
    Self(path: path, op: .insert, old: nil, new: value)
  }

  /// The value at `path` was removed.
  public static func remove(_ path: String) -> Self {
    Self(path: path, op: .remove, old: nil, new: nil)
  }

  /// Any change at `path`.
  public static func changed(_ path: String) -> Self {
    Self(path: path, op: nil, old: nil, new: nil)
  }

  /// Whether `change` matches. Given the `store` that reported it, the path also matches the
  /// change's path from the root store (`pages*.count` matches a child's `count`; see
  /// `ScopePath`).
  public func matches(_ change: Change, store: String? = nil) -> Bool {
    let glob = Glob(path == "@self" ? "" : path)
    let pathMatches = glob.matches(change.path) || (store.flatMap { ScopePath.fromRoot(change.path, store: $0) }.map(glob.matches) ?? false)
    guard pathMatches else { return false }
    if let op, op != change.op { return false }
    if let old, old != change.old { return false }
    if let new, new != change.new { return false }
    return true
  }

  /// In the form of the events' own lines: `count: 0 → 1`, `todos[id: 3]: inserted`.
  public var description: String {
    switch op {
    case nil: return path
    case .replace?: return "\(path): \(old.map { EventText.value($0) } ?? "…") → \(new.map { EventText.value($0) } ?? "…")"
    case .insert?: return "\(path): inserted" + (new.map { " " + EventText.value($0) } ?? "")
    case .remove?: return "\(path): removed"
    }
  }

  /// Whether every expectation matches one of `changes` and every change matches one of the
  /// expectations.
  static func match(_ expected: [Self], _ changes: [Change], store: String? = nil) -> Bool {
    expected.allSatisfy { expectation in changes.contains { expectation.matches($0, store: store) } }
      && changes.allSatisfy { change in expected.contains { $0.matches(change, store: store) } }
  }
}
