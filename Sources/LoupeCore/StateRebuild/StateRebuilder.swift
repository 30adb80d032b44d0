/// The rebuilding rule of CONTRACT §10, on its own: feed it a session's `state.snapshot` and
/// `state.changed` events in `seq` order and ask for any store's state after the last one.
///
/// - A root store's state is its last snapshot with every later `state.changed` of the root
///   and of its scoped stores applied in order.
/// - A scoped store's changes are applied at the path its store id names after the root:
///   `AppFeature#1/pages[id: 2]/detail` → `pages[id: 2].detail`; its state is the value there.
/// - A scoped store's `state.changed` that marks a new identity (`@identity` in its summary)
///   restates, relative to its previous lifetime, what its parent's event of the same action
///   already wrote; it is skipped.
/// - Before a root's first snapshot (a trace from before §10), changes are applied to an empty
///   object, making up the containers they need (``place(_:in:)``): only what a change wrote
///   is known, and the state is approximate.
/// - The state is **approximate** when its snapshot was `truncated`, a change carried
///   `truncated` (a cap cut it short), or a change could not be applied.
///
/// ```swift
/// var rebuilder = StateRebuilder()
/// for event in events where event.seq <= 118 { rebuilder.apply(event) }
/// rebuilder.state(of: "AppFeature#1/pages[id: 2]")   // RebuiltState(value: {...}, approximate: false)
/// ```
///
/// ``SessionModel`` uses the same rule (``applyChanges(of:to:approximate:)``) with an index of
/// snapshots and checkpoints, so a query at any `seq` applies a bounded number of changes.
public struct StateRebuilder: Sendable {
  /// The `kind` of a snapshot event.
  public static let snapshotKind = StateSnapshot.kind
  /// A ``SessionModel`` keeps a checkpoint of a rebuilt root state every this many changes at
  /// most (further apart for larger states and when the limits below are reached).
  public static let checkpointSpacing = 256
  /// At most this many checkpoints per root store (thinned out evenly beyond).
  public static let checkpointLimit = 512
  /// At most this many bytes of checkpoints (packed states) per session or trace, all root
  /// stores together (thinned out evenly beyond).
  public static let checkpointBudget = 32 << 20
  /// Checkpoints of a root are made at least this many packed bytes of its state apart, in
  /// changes: packing a state costs about as much as applying this many bytes' worth of
  /// changes, so checkpoints take a bounded share of a rebuild's time.
  public static let checkpointBytesPerChange = 256

  private var roots: [String: RebuiltState] = [:]
  /// Root stores whose state started from a snapshot.
  private var snapshotted: Set<String> = []

  public init() {}

  /// Applies `event` if it is a `state.snapshot` or a `state.changed`; ignores anything else.
  public mutating func apply(_ event: Event) {
    if let snapshot = Self.snapshot(in: event) {
      roots[snapshot.store] = RebuiltState(snapshot)
      snapshotted.insert(snapshot.store)
    } else if case .stateChanged(let e) = event.payload {
      let root = Self.rootStore(of: e.store)
      var state = roots[root] ?? RebuiltState(value: .object([:]), approximate: true)
      roots[root] = nil  // edit in place, no copy of the tree
      Self.applyChanges(
        of: e, to: &state.value, approximate: &state.approximate, shape: &state.shape, placing: !snapshotted.contains(root))
      roots[root] = state
    }
  }

  /// The root stores seen so far.
  public var rootStores: [String] { roots.keys.sorted() }

  /// The state of `store` after the events applied so far; `nil` when nothing of its root is
  /// known or the store's path is not in its root's state.
  public func state(of store: String) -> RebuiltState? {
    guard let root = roots[Self.rootStore(of: store)] else { return nil }
    return Self.scoped(root, store: store)
  }

  // MARK: - The rule, shared with SessionModel

  /// A `state.snapshot` (also one decoded by a build that saw it as an unknown kind).
  public static func snapshot(in event: Event) -> StateSnapshot? {
    switch event.payload {
    case .stateSnapshot(let e): return e
    case .unknown(snapshotKind, let fields):
      guard let store = fields["store"]?.stringValue, let state = fields["state"] else { return nil }
      return StateSnapshot(
        store: store, cause: fields["cause"]?.intValue, state: state, truncated: fields["truncated"]?.boolValue == true,
        shape: fields["shape"].flatMap(ValueShape.init(json:))?.nonEmpty)
    default: return nil
    }
  }

  /// Applies the changes of `event` (of any store of the root whose state `value` is).
  /// `placing`: there was no snapshot, so a change whose containers are missing makes them.
  public static func applyChanges(of event: StateChanged, to value: inout JSON, approximate: inout Bool, placing: Bool = false) {
    var shape: ValueShape?
    applyChanges(of: event, to: &value, approximate: &approximate, shape: &shape, placing: placing)
  }

  /// ``applyChanges(of:to:approximate:placing:)``, adding the shapes of the values the
  /// changes write to `shape` (see ``ValueShape/merge(_:at:)``).
  public static func applyChanges(
    of event: StateChanged, to value: inout JSON, approximate: inout Bool, shape: inout ValueShape?, placing: Bool = false
  ) {
    applyChanges(of: event, under: scopePath(of: event.store), to: &value, approximate: &approximate, shape: &shape, placing: placing)
  }

  /// ``applyChanges(of:to:approximate:shape:placing:)`` with the store's scope path already
  /// parsed (``scopePath(of:)``; `nil`: the store's id has none), for a caller that keeps it,
  /// and the ids of `value`'s identified arrays (``IDDirectory``) and the paths parsed before
  /// (``ParsedPaths``), for a caller that applies change after change to the same value.
  package static func applyChanges(
    of event: StateChanged, under scope: StatePath?, to value: inout JSON, approximate: inout Bool, shape: inout ValueShape?,
    placing: Bool = false, directory: IDDirectory? = nil, paths: ParsedPaths? = nil
  ) {
    guard let prefix = scope else {
      approximate = true
      return
    }
    if !prefix.isRoot, restatesIdentity(event) { return }
    for change in event.changes {
      if change.truncated { approximate = true }
      // The path parsed once, and put under the store's scope without going back to text.
      let parsed: StatePath? = if let paths { paths.path(change.path) } else { try? StatePath(parsing: change.path) }
      guard let inner = parsed else {
        approximate = true
        continue
      }
      let path = prefix.isRoot ? inner : StatePath(prefix.components + inner.components)
      if let newShape = change.newShape {
        var merged = shape ?? ValueShape()
        merged.merge(newShape, at: path)
        shape = merged.nonEmpty
      }
      do {
        try change.apply(to: &value, at: path.components[...], directory: directory)
      } catch {
        approximate = true
        if placing {
          directory?.forget(along: path.components[...])
          place(change, at: path, in: &value)
        }
      }
    }
  }

  /// Whether a scoped store's event restates its new identity (`Store#1: @self, @identity…`).
  static func restatesIdentity(_ event: StateChanged) -> Bool {
    let summary = event.summary.utf8
    let store = event.store.utf8
    guard summary.starts(with: store) else { return false }
    return summary.dropFirst(store.count).starts(with: ": @self, @identity".utf8)
  }

  /// `root`'s state narrowed to `store`'s path in it.
  package static func scoped(_ root: RebuiltState, store: String) -> RebuiltState? {
    guard let path = scopePath(of: store) else { return nil }
    guard let value = value(in: root.value, at: path) else { return nil }
    return RebuiltState(value: value, approximate: root.approximate, shape: root.shape?.descending(path.components, positionsHold: false))
  }

  /// `AppFeature#1` for `AppFeature#1/pages[id: 2]/detail`.
  public static func rootStore(of store: String) -> String {
    // Searched in the UTF-8 bytes in place (the hub calls this for every `state.changed` under
    // its lock): a search by `Character` cost ~1,500 instructions for a short id, one through
    // the UTF-8 view's generic `firstIndex` ~1,000.
    var text = store
    guard let slash = text.withUTF8({ $0.firstIndex(of: UInt8(ascii: "/")) }) else { return store }
    return String(store.utf8.prefix(slash))!
  }

  /// `pages[id: 2].detail` for `AppFeature#1/pages[id: 2]/detail`; the root path for a root
  /// store; `nil` when the id's scope does not parse as a path.
  public static func scopePath(of store: String) -> StatePath? {
    let scope = ScopePath.of(store: store)
    if scope.isEmpty { return StatePath() }
    return try? StatePath(parsing: scope.split(separator: "/").joined(separator: "."))
  }

  /// The value at `path` inside `value`, or `nil` when it is not there.
  public static func value(in value: JSON, at path: StatePath) -> JSON? {
    var current = value
    for component in path.components {
      guard let next = child(current, component) else { return nil }
      current = next
    }
    return current
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

/// A rebuilt state: the value, and whether parts of it may be missing or wrong (no snapshot,
/// a snapshot or change cut short with `truncated: true`, a change that could not be applied).
public struct RebuiltState: Sendable, Hashable {
  public var value: JSON
  public var approximate: Bool
  /// Where the value's enum cases and tuples are, as its snapshot and the changes since said
  /// (``ValueShape/merge(_:at:)``); `nil` when they said nothing (traces before shapes).
  public var shape: ValueShape?
  public init(value: JSON, approximate: Bool, shape: ValueShape? = nil) {
    self.value = value
    self.approximate = approximate
    self.shape = shape
  }

  /// The state a snapshot gives.
  package init(_ snapshot: StateSnapshot) {
    self.init(value: snapshot.state, approximate: snapshot.truncated, shape: snapshot.shape.flatMap { ValueShape().merging($0, at: .root) })
  }

  /// The value at `path` (relative to this state), keeping the approximate flag.
  public func at(_ path: StatePath) -> RebuiltState? {
    StateRebuilder.value(in: value, at: path).map {
      RebuiltState(value: $0, approximate: approximate, shape: shape?.descending(path.components, positionsHold: false))
    }
  }
}
