/// A store's whole state at any event (CONTRACT §10): its root store's last `state.snapshot`
/// at or before the event, with every later `state.changed` of the root and of its scoped
/// stores applied in order; a scoped store's state is the value at its path in the root's.
///
/// Without a snapshot (traces from before §10) the state is built from the changes alone
/// and marked approximate: only what a change wrote is known.
///
/// Cost: the rebuilder keeps, per root store, the positions of its snapshots and changes, and
/// checkpoints of states it already built (every ``checkpointSpacing`` changes, at most
/// ``checkpointLimit`` per root), so a query applies at most about ``checkpointSpacing``
/// changes when walking near where it was, and never more than the changes since the last
/// snapshot.
struct StateRebuilder {
  static let snapshotKind = "state.snapshot"
  static let checkpointSpacing = 256
  static let checkpointLimit = 512

  struct Root {
    var snapshots: [Int32] = []
    var changes: [Int32] = []
    /// (position in `changes` applied up to, exclusive; the state; approximate)
    var checkpoints: [(applied: Int, state: JSON, approximate: Bool)] = []
  }

  var roots: [String: Root] = [:]

  mutating func add(_ event: Event, at index: Int) {
    switch event.payload {
    case .stateChanged(let e):
      roots[Self.root(of: e.store), default: Root()].changes.append(Int32(index))
    case .unknown(Self.snapshotKind, let fields):
      if let store = fields["store"]?.stringValue {
        roots[Self.root(of: store), default: Root()].snapshots.append(Int32(index))
      }
    default:
      break
    }
  }

  /// `AppFeature#1` for `AppFeature#1/pages[id: 2]/detail`.
  static func root(of store: String) -> String {
    store.firstIndex(of: "/").map { String(store[..<$0]) } ?? store
  }

  /// `pages[id: 2].detail` for `AppFeature#1/pages[id: 2]/detail`; empty for a root.
  static func path(of store: String) -> StatePath? {
    guard let slash = store.firstIndex(of: "/") else { return StatePath() }
    let text = store[store.index(after: slash)...].split(separator: "/").joined(separator: ".")
    return try? StatePath(parsing: text)
  }
}

/// A rebuilt state: the value, and whether parts of it may be missing (no snapshot, or a
/// snapshot cut short with `truncated: true`).
public struct RebuiltState: Sendable, Hashable {
  public var value: JSON
  public var approximate: Bool
}

extension SessionModel {
  /// The whole state of `store` right after the event at `index`, or `nil` when nothing of it
  /// is known yet.
  public func state(of store: String, at index: Int) -> RebuiltState? {
    let rootID = StateRebuilder.root(of: store)
    guard let root = rebuilder.roots[rootID], let rootState = rootState(rootID, root, at: index) else { return nil }
    guard let path = StateRebuilder.path(of: store) else { return nil }
    if path.components.isEmpty { return rootState }
    var value = rootState.value
    for component in path.components {
      guard let child = Self.child(value, component) else { return nil }
      value = child
    }
    return RebuiltState(value: value, approximate: rootState.approximate)
  }

  private func rootState(_ rootID: String, _ root: StateRebuilder.Root, at index: Int) -> RebuiltState? {
    let snapshot = Self.lastPosition(in: root.snapshots, atOrBefore: index)
    // Changes after the snapshot and up to `index`: positions [first, end) in `root.changes`.
    let first = snapshot.map { SessionModel.firstPosition(in: root.changes, after: Int(root.snapshots[$0])) } ?? 0
    let end = SessionModel.firstPosition(in: root.changes, after: index)
    var state: JSON
    var approximate: Bool
    var applied: Int
    if let checkpoint = root.checkpoints.last(where: { $0.applied >= first && $0.applied <= end }) {
      (applied, state, approximate) = checkpoint
    } else if let snapshot {
      guard case .unknown(_, let fields) = event(at: Int(root.snapshots[snapshot])).payload else { return nil }
      state = fields["state"] ?? .null
      approximate = fields["truncated"]?.boolValue == true
      applied = first
    } else {
      guard end > 0 else { return nil }
      state = .object([:])
      approximate = true
      applied = 0
    }
    while applied < end {
      let position = Int(root.changes[applied])
      if case .stateChanged(let e) = event(at: position).payload {
        let prefix = StateRebuilder.path(of: e.store) ?? StatePath()
        for change in e.changes {
          var change = change
          if !prefix.components.isEmpty, let inner = try? StatePath(parsing: change.path) {
            change.path = StatePath(prefix.components + inner.components).description
          }
          do {
            try change.apply(to: &state)
          } catch {
            approximate = true
            if snapshot == nil { StateRebuilder.place(change, in: &state) }
          }
        }
      }
      applied += 1
      if applied % StateRebuilder.checkpointSpacing == 0 { remember(rootID, applied: applied, state, approximate) }
    }
    return RebuiltState(value: state, approximate: approximate)
  }

  private func remember(_ rootID: String, applied: Int, _ state: JSON, _ approximate: Bool) {
    guard var root = rebuilder.roots[rootID], !root.checkpoints.contains(where: { $0.applied == applied }) else { return }
    rebuilder.roots[rootID] = nil  // no second copy of the arrays while editing
    root.checkpoints.append((applied, state, approximate))
    root.checkpoints.sort { $0.applied < $1.applied }
    if root.checkpoints.count > StateRebuilder.checkpointLimit {
      // Thin out evenly: keep every other one.
      root.checkpoints = root.checkpoints.enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
    }
    rebuilder.roots[rootID] = root
  }

  static func lastPosition(in list: [Int32], atOrBefore index: Int) -> Int? {
    let position = firstPosition(in: list, after: index)
    return position > 0 ? position - 1 : nil
  }

  /// The member or element at `component` of `value`.
  public static func child(_ value: JSON, _ component: StatePath.Component) -> JSON? {
    switch component {
    case .field(let name), .key(let name):
      return value[name]
    case .index(let index):
      guard let array = value.arrayValue, array.indices.contains(index) else { return nil }
      return array[index]
    case .id(let id):
      return value.arrayValue?.first { $0["id"] == id }
    }
  }
}
