import LoupeCore

/// The state of any store at any `seq` of a trace file, for readers that need states only
/// (`loupe state`, `loupe replay`'s `loupe/state`), without indexing every event.
///
/// One streaming pass decodes no event but the stores' lifecycles: it keeps where each root
/// store's `state.snapshot` and `state.changed` lines are (their offsets in the file) and when
/// each store lived. A state is then rebuilt the way ``SessionModel`` rebuilds it (the same
/// ``StateIndex``, the rule of ``StateRebuilder``): from the root's last snapshot at or before
/// the `seq` (or a checkpoint after it, or the state it rebuilt last), applying in place only
/// the lines it reads back. With the store's snapshot policy (CONTRACT §10: every 1000
/// actions) a query reads at most about that many changes, wherever it is in the trace. A
/// trace without snapshots (version 1, or snapshots turned off) is rebuilt once from its
/// start, leaving packed checkpoints (at most ``StateRebuilder/checkpointBudget`` bytes), so
/// the next question near it applies at most a spacing's changes. Memory follows the number
/// of state events (about 24 bytes each) and the checkpoint budget, not the states' size.
///
/// ```swift
/// let states = try TraceStateIndex(tracePath: "bug.loupe")
/// states.state(of: "AppFeature#1/pages[id: 2]", atSeq: 118)   // RebuiltState(value: {...}, approximate: false)
/// ```
///
/// Not thread-safe: use it from one thread (or actor) at a time.
public final class TraceStateIndex {
  /// One life of a store: the `seq`s of its `store.created` and `store.destroyed`.
  public typealias Life = StoreLife

  public let header: TraceHeader
  /// The reader the pass used, for its damage report (malformed lines, a truncated end).
  public let reader: TraceReader
  /// How many events were read.
  public private(set) var events = 0
  public private(set) var firstSeq: Int?
  /// The last `seq` read: of the trace's last event, or the first one past `through`.
  public private(set) var lastSeq: Int?
  /// Whether the pass read the whole trace (`false` when it stopped after `through`).
  public private(set) var isComplete = true

  let file: TraceLineFile
  // The state events, in order; their positions are what `index` holds.
  private var seqs: [Int] = []
  private(set) var offsets: [Int] = []
  private(set) var lengths: [Int32] = []
  var index = StateIndex()
  private var lifetimes = StoreLifetimes()
  /// Store ids in order of first appearance.
  public private(set) var stores: [String] = []
  private var known: Set<String> = []

  /// Reads the trace at `tracePath` once, streaming. With `through`, stops at the first event
  /// after that `seq`: states after it cannot be asked for then.
  ///
  /// Lines are not checked in full: the start of each (``EventLinePrefix``) says its `seq`,
  /// kind and store; a line that does not start the way Loupe writes events is decoded, and
  /// counted as malformed (or as the trace's cut-short end) when it is not an event. The
  /// snapshots and changes it keeps are decoded when a rebuild reads them back.
  public convenience init(tracePath: String, through: Int? = nil) throws(TraceError) {
    try self.init(reader: TraceReader(path: tracePath), file: TraceLineFile(path: tracePath))
    try pass(through: through)
  }

  package init(reader: TraceReader, file: TraceLineFile) {
    self.reader = reader
    self.file = file
    header = reader.header
  }

  /// At most this many bytes of checkpoints of rebuilt states (``StateIndex``); set it to 0
  /// when only one moment will be asked for.
  package var checkpointBudget: Int {
    get { index.checkpointBudget }
    set { index.checkpointBudget = newValue }
  }

  /// Whether a `seq` read was smaller than the one before it (a reader that sought its place
  /// relies on `seq` order).
  package private(set) var seqsGoBack = false

  /// Reads the lines from where the reader is to the end, or to the first event after `through`.
  package func pass(through: Int?) throws(TraceError) {
    while let line = try reader.nextUncheckedLine() {
      // A last line without its line break may be cut short: it is decoded in full.
      let prefix = line.isLast ? nil : line.bytes.withUnsafeBufferPointer { EventLinePrefix.parse($0) }
      let seq: Int
      var event: Event?
      if let prefix {
        seq = prefix.seq
      } else {
        do {
          event = try Event(jsonText: line.bytes)
        } catch {
          reader.reject(line.bytes, reason: error.message, isLast: line.isLast)
          continue
        }
        seq = event!.seq
      }
      if firstSeq == nil { firstSeq = seq }
      if let lastSeq, seq < lastSeq { seqsGoBack = true }
      lastSeq = seq
      events += 1
      if let through, seq > through {
        isComplete = false
        break
      }
      if let event {
        add(event, offset: line.offset, length: line.bytes.count)
      } else if let prefix {
        add(prefix, line.bytes, offset: line.offset)
      }
    }
  }

  /// What a reader that sought its place knows from before it (``seeking(tracePath:store:through:)``):
  /// the trace's first `seq`, and a store alive or known there.
  package func startSought(firstSeq: Int, store: String?, life: Life?) {
    self.firstSeq = firstSeq
    if let store { see(store) }
    if let store, let life { lifetimes.start(store, with: life) }
  }

  /// A line read by its prefix: only state and store events matter.
  private func add(_ prefix: EventLinePrefix, _ bytes: ArraySlice<UInt8>, offset: Int) {
    let kind = bytes.withUnsafeBufferPointer { line -> Kept? in
      // Most lines are of other kinds: `state.*` and `store.*` are the only ones with `s` first
      // and `t` second, and 13 to 15 bytes long.
      guard prefix.kind.count >= 13, prefix.kind.count <= 15, line[prefix.kind.lowerBound] == UInt8(ascii: "s"),
        line[prefix.kind.lowerBound + 1] == UInt8(ascii: "t")
      else { return nil }
      if EventLinePrefix.bytes(line, prefix.kind, equal: "state.changed") { return .change }
      if EventLinePrefix.bytes(line, prefix.kind, equal: "state.snapshot") { return .snapshot }
      if EventLinePrefix.bytes(line, prefix.kind, equal: "store.created") || EventLinePrefix.bytes(line, prefix.kind, equal: "store.destroyed") {
        return .lifecycle
      }
      return nil
    }
    guard let kind else { return }
    guard kind != .lifecycle, let range = prefix.store else {
      // Rare enough to decode: a store's creation or end, or a store id with escapes.
      if let event = try? Event(jsonText: bytes) { add(event, offset: offset, length: bytes.count) }
      return
    }
    // Consecutive events are often of one store: compare its bytes before making a string.
    let same = bytes.withUnsafeBufferPointer { line in
      lastStoreBytes.count == range.count
        && lastStoreBytes.withUnsafeBufferPointer { LibC.memcmp($0.baseAddress!, line.baseAddress! + range.lowerBound, range.count) == 0 }
    }
    if !same {
      lastStoreBytes = Array(bytes[bytes.startIndex + range.lowerBound..<bytes.startIndex + range.upperBound])
      lastStoreName = String(decoding: lastStoreBytes, as: UTF8.self)
    }
    keep(kind, store: lastStoreName, seq: prefix.seq, offset: offset, length: bytes.count)
  }

  /// The last store id read from a line's prefix, and its bytes (empty: none yet).
  private var lastStoreBytes: [UInt8] = []
  private var lastStoreName = ""

  /// A decoded event (a line the prefix could not read, or a lifecycle event).
  private func add(_ event: Event, offset: Int, length: Int) {
    switch event.payload {
    case .stateChanged(let e):
      keep(.change, store: e.store, seq: event.seq, offset: offset, length: length)
    case .storeCreated(let e):
      lifetimes.apply(event, at: event.seq)
      see(e.store)
    case .storeDestroyed:
      lifetimes.apply(event, at: event.seq)
    default:
      if let snapshot = StateRebuilder.snapshot(in: event) {
        keep(.snapshot, store: snapshot.store, seq: event.seq, offset: offset, length: length)
      }
    }
  }

  private enum Kept { case change, snapshot, lifecycle }

  /// The last store kept, and its root: consecutive events are often of one store.
  private var lastKept: (store: String, root: String)?

  private func keep(_ kind: Kept, store: String, seq: Int, offset: Int, length: Int) {
    let root: String
    if let last = lastKept, last.store == store {
      root = last.root
    } else {
      root = StateRebuilder.rootStore(of: store)
      lastKept = (store, root)
      see(store)
    }
    let position = seqs.count
    seqs.append(seq)
    offsets.append(offset)
    lengths.append(Int32(truncatingIfNeeded: length))
    if kind == .change { index.add(changeOf: root, at: position) } else { index.add(snapshotOf: root, at: position) }
  }

  private func see(_ store: String) {
    if known.insert(store).inserted { stores.append(store) }
  }

  // MARK: - Stores

  /// The lives of `store` (empty for a store the trace names only in state events: a
  /// recording filtered without `store.*` events).
  public func lives(of store: String) -> [Life] { lifetimes.lives(of: store) }

  /// Whether `store` was alive right after the event numbered `seq`; a store the trace names
  /// without its lifecycle counts as alive.
  public func isAlive(_ store: String, atSeq seq: Int) -> Bool {
    lifetimes.isAlive(store, at: seq) ?? known.contains(store)
  }

  /// The stores alive right after the event numbered `seq`, in order of first appearance.
  public func stores(aliveAtSeq seq: Int) -> [String] {
    stores.filter { isAlive($0, atSeq: seq) }
  }

  // MARK: - States

  /// Whether the trace has a `state.snapshot` or a `state.changed` of `store`'s root.
  public func hasState(of store: String) -> Bool { index.roots[StateRebuilder.rootStore(of: store)] != nil }

  /// The whole state of `store` right after the event numbered `seq` (after the last event
  /// before it when no event has that number); `nil` when nothing of its root is known by then
  /// or the store's path is not in its root's state.
  public func state(of store: String, atSeq seq: Int) -> RebuiltState? {
    let position = StateIndex.firstPosition(in: seqs, after: seq) - 1
    guard position >= 0 else { return nil }
    let rootID = StateRebuilder.rootStore(of: store)
    let root: RebuiltState?
    if focusesOnEachStore, let focus = ScopeFocus(store: store), let focused = focusedState(rootID, at: position, focus) {
      root = focused
    } else {
      root = index.rootState(rootID, at: position) { self.event(at: $0) }
    }
    return root.flatMap { StateRebuilder.scoped($0, store: store) }
  }

  /// Set when each state is asked for once, for itself (`loupe state` about one store): a
  /// scoped store's state rebuilt without a snapshot then leaves out the changes of other
  /// stores that land beside its scope (``ScopeFocus``), reading only their `store` and
  /// paths; the root's state it rebuilt is kept neither whole nor as checkpoints.
  package var focusesOnEachStore = false
  /// How many changes were left out so.
  package internal(set) var changesLeftOut = 0
  /// The change lines of the focused rebuild under way.
  var focused: FocusedChangeReader?

  /// The `seq` of the snapshot that a state of `store` right after `seq` starts from.
  public func snapshotSeq(of store: String, atOrBeforeSeq seq: Int) -> Int? {
    let position = StateIndex.firstPosition(in: seqs, after: seq) - 1
    guard position >= 0 else { return nil }
    return index.lastSnapshot(of: StateRebuilder.rootStore(of: store), atOrBefore: position).map { seqs[$0] }
  }

  /// The `seq` of the first snapshot of `store`'s root, if any.
  public func firstSnapshotSeq(of store: String) -> Int? {
    index.roots[StateRebuilder.rootStore(of: store)]?.snapshots.first.map { seqs[Int($0)] }
  }

  /// Which parts of `store`'s state at `path` are enum cases and tuples right after `seq`, as
  /// far as the trace tells: the shape the root's last snapshot at or before `seq` carried,
  /// narrowed to the store's path and `path` (CONTRACT §10, protocol/values.md). A part a
  /// later change turned into another enum case may not be in it; it then prints as JSON text.
  public func shape(of store: String, atSeq seq: Int, path: StatePath = StatePath()) -> ValueShape? {
    let position = StateIndex.firstPosition(in: seqs, after: seq) - 1
    guard position >= 0, let snapshot = index.lastSnapshot(of: StateRebuilder.rootStore(of: store), atOrBefore: position),
      let scope = StateRebuilder.scopePath(of: store)
    else { return nil }
    let shape: ValueShape?
    if let last = lastSnapshotShape, last.position == snapshot {
      shape = last.shape
    } else {
      shape = event(at: snapshot).flatMap(StateRebuilder.snapshot(in:))?.shape
    }
    return shape?.descending(scope.components + path.components, positionsHold: false)
  }

  /// The shape of the snapshot read back last (a rebuild reads it, a shape query follows).
  var lastSnapshotShape: (position: Int, shape: ValueShape?)?
}
