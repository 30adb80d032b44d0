import LoupeCore
/// Where each root store's snapshots and changes are, and checkpoints of states already
/// rebuilt, so a state at any event is its root's last snapshot (or a checkpoint after it, or
/// the state rebuilt last) with the changes since applied, in place.
///
/// Positions are whatever the owner numbers its events by, in `seq` order: ``SessionModel``
/// uses its event positions, ``TraceStateIndex`` the positions of the state events it keeps.
/// The owner reads an event back by its position when a rebuild needs it.
///
/// Memory is bounded whatever the trace: checkpoints are packed (``PackedState``) and hold at
/// most ``checkpointBudget`` bytes in all, and one state is kept whole, the one rebuilt last
/// (a query at or after it, stepping forward, goes on from it). A root's checkpoints are made
/// every ``Root/spacing`` changes: ``StateRebuilder/checkpointSpacing`` at first, doubled
/// while packing a state would cost more than applying the changes between two checkpoints
/// (``StateRebuilder/checkpointBytesPerChange`` bytes a change), and doubled again, keeping
/// every other checkpoint, when the budget or ``StateRebuilder/checkpointLimit`` is reached.
/// A trace without snapshots (CONTRACT §10) is then rebuilt once from its start, at about the
/// cost of reading its changes, and any later question applies at most a spacing's changes.
package struct StateIndex {
  package struct Root {
    /// Positions of the root's `state.snapshot` events.
    package var snapshots: [Int32] = []
    /// Positions of the `state.changed` events of the root and its scoped stores (packed: a
    /// byte or two each, for a long live session).
    package var changes = PositionList()
    /// Positions of the changes a rebuild focused on one store (``ScopeFocus``) cannot leave
    /// out by their store alone: a path may give an element another `id`, or is escaped, or a
    /// change carries a shape. Their lines are read to know (``FocusedChangeReader``).
    package var pinned = PositionList()
    /// States already rebuilt, in `(base, applied)` order.
    package var checkpoints: [Checkpoint] = []
    /// Checkpoints are made where `applied` is a multiple of this.
    package var spacing = StateRebuilder.checkpointSpacing
    /// The bytes the checkpoints hold.
    package var checkpointBytes = 0
  }

  /// A state rebuilt from the snapshot numbered `base` (-1: none, from nothing) with
  /// `changes[..<applied]` applied.
  package struct Checkpoint {
    package var base: Int
    package var applied: Int
    package var state: PackedState
  }

  /// The state rebuilt last, whole.
  private struct Latest {
    var root: String
    var base: Int
    var applied: Int
    var state: RebuiltState
    /// The ids of its identified arrays, kept right by the changes applied to it.
    var directory: IDDirectory
  }

  package var roots: [String: Root] = [:]
  /// At most this many bytes of packed checkpoints, all roots together; 0: none are made (a
  /// reader that asks one question, as `loupe state` does, would only pay for packing them).
  package var checkpointBudget: Int
  /// The bytes the checkpoints of all roots hold (at most ``checkpointBudget``).
  package private(set) var checkpointBytes = 0
  private var latest: Latest?
  /// Packs the checkpoints on a thread of its own (``CheckpointPacker``); `nil`: on the
  /// caller's thread, in the order they are made (as the tests of spacing and budget expect).
  package var packer: CheckpointPacker?
  private var scopes: [String: StatePath?] = [:]
  private let paths = ParsedPaths()

  package init(checkpointBudget: Int = StateRebuilder.checkpointBudget) {
    self.checkpointBudget = checkpointBudget
  }

  /// The checkpoints of all roots.
  package var checkpointCount: Int { roots.values.reduce(0) { $0 + $1.checkpoints.count } }

  mutating package func add(_ event: Event, at index: Int) {
    if let snapshot = StateRebuilder.snapshot(in: event) {
      add(snapshotOf: StateRebuilder.rootStore(of: snapshot.store), at: index)
    } else if case .stateChanged(let e) = event.payload {
      add(changeOf: StateRebuilder.rootStore(of: e.store), at: index, besideByStore: Self.besideByStore(e))
    }
  }

  /// Whether a focus may leave `change` out by its store alone: no shapes, and each path
  /// leaves the `id` of the element it is in alone (``ScopeFocus/pathLeavesIDAlone(_:)``).
  static func besideByStore(_ change: StateChanged) -> Bool {
    change.changes.allSatisfy { change in
      guard change.oldShape == nil, change.newShape == nil else { return false }
      var path = change.path
      return path.withUTF8 { ScopeFocus.pathLeavesIDAlone($0) }
    }
  }

  mutating package func add(snapshotOf root: String, at index: Int) {
    roots[root, default: Root()].snapshots.append(Int32(index))
  }

  /// Adds a change of `root`'s; `besideByStore` `false` pins it (``Root/pinned``), `nil`
  /// for an owner that never focuses by the index (``TraceStateIndex`` reads every line).
  mutating package func add(changeOf root: String, at index: Int, besideByStore: Bool? = nil) {
    roots[root, default: Root()].changes.append(index)
    if besideByStore == false { roots[root]!.pinned.append(index) }
  }

  /// The position of `root`'s last snapshot at or before `index`.
  package func lastSnapshot(of root: String, atOrBefore index: Int) -> Int? {
    guard let list = roots[root]?.snapshots, let position = Self.lastPosition(in: list, atOrBefore: index) else { return nil }
    return Int(list[position])
  }

  /// The state of root store `rootID` right after the event at `index`; `nil` when nothing of
  /// it is known by then. `event` reads an event back by its position (`nil`: unreadable).
  ///
  /// `leavingOut`, given a change's position, the state so far and the ids of its identified
  /// arrays, says whether the change cannot reach the part of the state the caller wants
  /// (``ScopeFocus``); it is asked only
  /// while rebuilding without a snapshot (the state is approximate anyway). A state that left
  /// a change out is right only for that part: it is neither kept as the latest nor packed as
  /// a checkpoint.
  mutating package func rootState(
    _ rootID: String, at index: Int, leavingOut: ((Int, JSON, IDDirectory) -> Bool)? = nil, event: (Int) -> Event?
  ) -> RebuiltState? {
    guard let root = roots[rootID], let start = start(of: root, rootID, at: index) else { return nil }
    let (snapshot, base, end) = (start.snapshot, start.base, start.end)
    var state: RebuiltState
    var applied: Int
    var directory = IDDirectory()
    switch start.from {
    case .latest:
      // Taken out while it is edited, so that the edits find its containers unshared.
      let kept = latest!
      latest = nil
      (applied, state, directory) = (kept.applied, kept.state, kept.directory)
    case .checkpoint(let checkpoint):
      (applied, state) = (checkpoint.applied, checkpoint.state.state)
    case .snapshot(let position, let first):
      guard let read = event(position), let event = StateRebuilder.snapshot(in: read) else { return nil }
      state = RebuiltState(event)
      applied = first
    case .nothing:
      state = RebuiltState(value: .object([:]), approximate: true)
      applied = 0
    }
    var spacing = root.spacing
    let leavingOut = snapshot == nil ? leavingOut : nil
    var leftOut = false
    // The changes' positions, decoded a run at a time.
    var positions: [Int] = []
    var positionsStart = applied
    while applied < end {
      if applied - positionsStart >= positions.count {
        positionsStart = applied
        positions = root.changes.positions(in: applied..<min(end, applied + 1_024))
      }
      let position = positions[applied - positionsStart]
      if let leavingOut, leavingOut(position, state.value, directory) {
        leftOut = true
      } else if case .stateChanged(let e)? = event(position)?.payload {
        StateRebuilder.applyChanges(
          of: e, under: scopePath(of: e.store), to: &state.value, approximate: &state.approximate, shape: &state.shape,
          placing: snapshot == nil, directory: directory, paths: paths)
      } else {
        state.approximate = true  // a change that could not be read back
      }
      applied += 1
      if applied % spacing == 0, !leftOut {
        spacing = remember(rootID, base: base, applied: applied, state)
      }
    }
    if !leftOut { latest = Latest(root: rootID, base: base, applied: applied, state: state, directory: directory) }
    takePacked(waiting: true)
    return state
  }

  /// Where a rebuild of a root's state right after the event at `index` starts: the root's
  /// last snapshot at or before it (its position in `snapshots`; `base` its event's position,
  /// -1 for none), the changes up to `index` (`changes[..<end]`), and what it goes on from.
  private struct Start {
    enum From {
      case latest
      case checkpoint(Checkpoint)
      /// The snapshot at `position`, before `changes[first]`.
      case snapshot(position: Int, first: Int)
      case nothing
    }
    var snapshot: Int?
    var end: Int
    var from: From
    /// How many changes the rebuild applies.
    var applying: Int
    /// What the rebuilt state is based on (``Checkpoint/base``).
    var base: Int { snapshot ?? -1 }
  }

  /// `nil` when nothing of the root is known right after the event at `index`.
  private func start(of root: Root, _ rootID: String, at index: Int) -> Start? {
    let snapshot = Self.lastPosition(in: root.snapshots, atOrBefore: index)
    let base = snapshot ?? -1
    // Changes after the snapshot and up to `index`: positions [first, end) in `root.changes`.
    let first = snapshot.map { root.changes.count(atOrBefore: Int(root.snapshots[$0])) } ?? 0
    let end = root.changes.count(atOrBefore: index)
    guard snapshot != nil || end > 0 else { return nil }
    let checkpoint = root.checkpoints.last { $0.base == base && $0.applied >= first && $0.applied <= end }
    if let kept = latest, kept.root == rootID, kept.base == base, kept.applied >= first, kept.applied <= end,
      kept.applied + Self.latestSlack >= checkpoint?.applied ?? first
    {
      return Start(snapshot: snapshot, end: end, from: .latest, applying: end - kept.applied)
    }
    if let checkpoint {
      return Start(snapshot: snapshot, end: end, from: .checkpoint(checkpoint), applying: end - checkpoint.applied)
    }
    if let snapshot {
      let from = Start.From.snapshot(position: Int(root.snapshots[snapshot]), first: first)
      return Start(snapshot: snapshot, end: end, from: from, applying: end - first)
    }
    return Start(snapshot: nil, end: end, from: .nothing, applying: end)
  }

  /// How many changes a rebuild of `rootID`'s state right after the event at `index` would
  /// apply, when it has no snapshot to start from (`nil`: it has one, or nothing is known).
  package func changesToApplyWithoutSnapshot(_ rootID: String, at index: Int) -> Int? {
    guard let root = roots[rootID], let start = start(of: root, rootID, at: index), start.snapshot == nil else { return nil }
    return start.applying
  }

  /// How many of `rootID`'s changes come before its first snapshot (all of them without one):
  /// those a state without a snapshot is rebuilt from.
  package func changesBeforeFirstSnapshot(of rootID: String) -> Int {
    guard let root = roots[rootID] else { return 0 }
    guard let first = root.snapshots.first else { return root.changes.count }
    return root.changes.count(atOrBefore: Int(first))
  }

  /// Keeps checkpoints of `rootID` made elsewhere (a rebuild aside, ``RootRebuildAside``) as
  /// if this index had made them: within the budget, the spacing grown as packing them says.
  mutating package func adopt(_ checkpoints: [Checkpoint], of rootID: String) {
    for checkpoint in checkpoints {
      keep(checkpoint.state, of: rootID, base: checkpoint.base, applied: checkpoint.applied)
    }
  }

  /// Each store's scope path, parsed once (a rebuild applies many changes of few stores).
  private mutating func scopePath(of store: String) -> StatePath? {
    if let known = scopes[store] { return known }
    if scopes.count >= 4_096 { scopes.removeAll(keepingCapacity: true) }
    let path = StateRebuilder.scopePath(of: store)
    scopes[store] = .some(path)
    return path
  }

  /// The state rebuilt last is gone on from rather than a checkpoint at most this many
  /// changes after it (unpacking a checkpoint costs about as much as applying its spacing's).
  static let latestSlack = 64

  /// Keeps `state` as a checkpoint (unless there is one), within the budget; returns the
  /// root's spacing from now on. With a ``packer``, the state is packed on its thread and kept
  /// when the next checkpoint is made, or at the end of the rebuild (``takePacked(waiting:)``).
  private mutating func remember(_ rootID: String, base: Int, applied: Int, _ state: RebuiltState) -> Int {
    guard checkpointBudget > 0 else { return StateRebuilder.checkpointSpacing }
    takePacked(waiting: true)
    guard let root = roots[rootID] else { return StateRebuilder.checkpointSpacing }
    if root.checkpoints.contains(where: { $0.base == base && $0.applied == applied }) { return root.spacing }
    let expected = root.checkpoints.last?.state.bytes.count ?? 0
    if let packer {
      packer.pack(CheckpointPacker.Job(root: rootID, base: base, applied: applied, state: state, expectedBytes: expected))
      return root.spacing
    }
    keep(PackedState(state, expectedBytes: expected), of: rootID, base: base, applied: applied)
    return roots[rootID]?.spacing ?? StateRebuilder.checkpointSpacing
  }

  /// Keeps the checkpoints the ``packer`` has packed (with `waiting`, once it has packed all).
  private mutating func takePacked(waiting: Bool) {
    guard let packer else { return }
    for packed in packer.take(waiting: waiting) {
      keep(packed.state, of: packed.root, base: packed.base, applied: packed.applied)
    }
  }

  /// Keeps `packed` as `rootID`'s checkpoint at `(base, applied)` (unless there is one there),
  /// makes the root's checkpoints further apart when packing its state costs more than
  /// applying the changes between two, and thins checkpoints to the limit and the budget.
  private mutating func keep(_ packed: PackedState, of rootID: String, base: Int, applied: Int) {
    guard var root = roots[rootID] else { return }
    let place = root.checkpoints.firstIndex { ($0.base, $0.applied) >= (base, applied) } ?? root.checkpoints.endIndex
    if place < root.checkpoints.endIndex, root.checkpoints[place].base == base, root.checkpoints[place].applied == applied {
      return
    }
    roots[rootID] = nil  // no second copy of the arrays while editing
    root.checkpoints.insert(Checkpoint(base: base, applied: applied, state: packed), at: place)
    root.checkpointBytes += packed.bytes.count
    checkpointBytes += packed.bytes.count
    // Packing a larger state costs more: checkpoints are made further apart.
    while root.spacing * StateRebuilder.checkpointBytesPerChange < packed.bytes.count {
      root.spacing *= 2
    }
    if root.checkpoints.count > StateRebuilder.checkpointLimit { checkpointBytes -= Self.thin(&root) }
    roots[rootID] = root
    while checkpointBytes > checkpointBudget, let largest = roots.max(by: { $0.value.checkpointBytes < $1.value.checkpointBytes })?.key {
      let freed = Self.thin(&roots[largest]!)
      checkpointBytes -= freed
    }
  }

  /// Doubles `root`'s spacing and keeps the checkpoints that fall on it; when that keeps them
  /// all (one left, or all on the new spacing too), drops the first one. Returns the bytes freed.
  private static func thin(_ root: inout Root) -> Int {
    root.spacing *= 2
    let spacing = root.spacing
    var kept: [Checkpoint] = []
    var bytes = 0
    for checkpoint in root.checkpoints where checkpoint.applied % spacing == 0 {
      kept.append(checkpoint)
      bytes += checkpoint.state.bytes.count
    }
    if kept.count == root.checkpoints.count, !kept.isEmpty {
      bytes -= kept.removeFirst().state.bytes.count
    }
    let freed = root.checkpointBytes - bytes
    root.checkpoints = kept
    root.checkpointBytes = bytes
    return freed
  }

  // MARK: - Binary search over sorted positions

  /// How many of the sorted `list` are at or before `index`.
  static package func firstPosition<Position: BinaryInteger>(in list: [Position], after index: Int) -> Int {
    var low = 0
    var high = list.count
    while low < high {
      let mid = (low + high) / 2
      if Int(list[mid]) <= index { low = mid + 1 } else { high = mid }
    }
    return low
  }

  static package func lastPosition(in list: [Int32], atOrBefore index: Int) -> Int? {
    let position = firstPosition(in: list, after: index)
    return position > 0 ? position - 1 : nil
  }
}
