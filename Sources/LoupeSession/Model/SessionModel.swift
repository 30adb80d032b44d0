import LoupeCore
/// The session so far, indexed by `seq`, by store and by cause: the one model every front end
/// reads (`show`, `stats`, `doctor`, `replay`, `dap`, `mcp`; DESIGN "one session model, many
/// front ends"). The API below is stable: later changes only add to it.
///
/// **Feeding it.** ``init(tracePath:)`` reads a trace file once, streaming, and keeps an index
/// (each event's `seq`, kind, store, cause and the offset of its line) instead of the events:
/// an event is read back from the file by offset when asked for (recently read ones are
/// cached). A live session records its events to a trace of its own as they come:
/// ``init(growingTrace:)`` + ``append(_:at:)`` indexes that file while it grows, each event
/// added with where its line was written, so a live session too holds the index and not the
/// events. ``init()`` + ``append(_:)`` keeps events in memory (tests, small sessions).
///
/// **Positions.** Most queries take and return *positions* (`Int` indices into the session's
/// events, in `seq` order); ``index(ofSeq:)`` and ``firstIndex(atOrAfterSeq:)`` turn a `seq`
/// into one, ``seq(at:)`` back. `seq` may have gaps (dropped events, a filtered recording).
///
/// | question | API |
/// |---|---|
/// | the event numbered `seq` | ``event(seq:)``, ``event(at:)``, ``eventJSON(at:)``; without reading it back: ``seq(at:)``, ``kind(at:)``, ``kindName(at:)``, ``store(at:)`` |
/// | events in a `seq` range, filtered, at most `limit` | ``events(from:through:filter:limit:)`` |
/// | a store's events / actions | ``indices(ofStore:)``, ``actionIndices(ofStore:)`` |
/// | what caused this event | ``cause(of:)``: a change's or an effect's action; the effect that sent an action (origin `effect`); the parent store's action (origin `parent`); the action that cancelled an effect (`by`), else the effect's start; the start of a finished effect; a derived value's action; a snapshot's action |
/// | what this event caused | ``consequences(of:)`` (the reverse links, in order) |
/// | stores alive at a moment | ``stores(at:)`` (type, parent, identity at that moment) |
/// | effects | ``effect(_:)``, ``effects``, ``span(ofEffect:)``, ``runningEffects(at:)``, ``endedEffects(at:)``, ``runningEffects(of:at:)`` — ``EffectLife``: store, cause, cancel id, source, end (`completed`/`failed`/`cancelled` with reason and `by`), duration |
/// | a store's state at any moment | ``state(of:at:)``, ``state(of:atSeq:path:)`` → ``RebuiltState`` (value + `approximate`), CONTRACT §10, rule in ``StateRebuilder`` |
/// | source lines | ``indices(atLine:)``, ``hasSource(at:line:)``, ``namesSourcePath(_:)``, ``source(of:)`` |
///
/// **Cost.** Memory follows the index, packed in blocks of 4,096 events (``PackedColumns``):
/// about 9 bytes an event on a typical mix (``indexBytes``; 2–3 for `seq`, kind, store and
/// cause, nothing for `seq`s that follow one another; 2 for the line's location; about 1 for
/// each position in a store's, an action's or a line's list and for each change's position in
/// ``StateIndex`` (``PositionList``); about 6 for each effect) plus per-store and per-line
/// tables (a file-backed session holds no events, only a cache of the last
/// ``EventStorage/cacheLimit`` it read, and of the last blocks it decoded). Reading a sealed
/// block's `seq`, kind, store or cause decodes that column of the block once (microseconds);
/// ``consequences(of:)`` looks at the causes of the next ``nearConsequences`` events and keeps
/// the farther ones aside. A state query starts from the store's last snapshot (or a packed
/// checkpoint of a state it rebuilt before, at most ``StateRebuilder/checkpointBudget`` bytes
/// of them, or the state it rebuilt last) and applies the changes after it in place; the
/// store's snapshot policy bounds them (CONTRACT §10: 1000 actions by default). A root without
/// snapshots is rebuilt once from its start, leaving checkpoints behind.
///
/// **Threads.** A trace of ``decodingAheadBytes`` or more is read on two threads of their
/// own while the events before are indexed (``DecodedBatches``; its commonest lines only
/// skimmed for what the index keeps, ``EventIndexSkim``), and a file-backed session packs its
/// checkpoints on another while a state is rebuilt (``CheckpointPacker``): on two cores that
/// takes most of the work off the caller's path. The caller waits for both before it is
/// answered, so the model is the same as one thread makes. A recording's root without
/// snapshots is rebuilt whole on a thread of its own after a first, focused answer
/// (``RootRebuildAside``, ``state(of:at:)``); the caller adopts its checkpoints when they
/// are made, or waits for them when a question needs the whole root.
///
/// Not thread-safe: use a session from one thread (or actor) at a time.
///
/// ```swift
/// let model = try SessionModel(tracePath: "bug.loupe")
/// let index = model.index(ofSeq: 42)!
/// model.cause(of: index)                                       // the position of what caused #42
/// model.state(of: "AppFeature#1/pages[id: 2]", at: index)      // its state right after #42
/// model.state(of: "AppFeature#1", atSeq: 42, path: "pages[id: 2].count")
/// ```
public final class SessionModel {
  /// Kinds the index tells apart without decoding an event (``kind(at:)``).
  public enum Kind: UInt8, Sendable {
    case action, change, effectStarted, effectEnded, storeCreated, storeDestroyed, identity, snapshot, other
  }

  // No dynamic exclusivity checks on the index, read and written for every event: a model is
  // used from one thread at a time (see above), and the only closures its methods hand out
  // while one of these is being modified read `storage` (a rebuild reading changes back).
  /// Each event's `seq`, kind and store (as a ``KindAndStore`` code) and cause (how many
  /// positions back, 0 for none), packed in blocks (``PackedColumns``): about 2 bytes an event
  /// where an entry took 32. What an event caused is found from the causes after it
  /// (``consequences(of:)``).
  package let columns = PackedColumns(modes: [.delta, .plain, .plain])
  /// The exact `kind`s seen (so a filter on kinds and stores can skip events without reading
  /// them back), each with what the index tells apart of it.
  @exclusivity(unchecked) package var kindNames: [String] = []
  @exclusivity(unchecked) package var kindClasses: [Kind] = []
  @exclusivity(unchecked) package var kindIDs: [KindKey: Int] = [:]
  package struct KindKey: Hashable {
    var name: String
    var kind: Kind
  }
  /// The (kind, store) pairs seen: an event's column holds its pair's code, one small number
  /// for both. The store is its index in `storeNames` + 1, 0 for none.
  @exclusivity(unchecked) package var pairKinds: [Int32] = []
  @exclusivity(unchecked) package var pairStores: [Int32] = []
  @exclusivity(unchecked) package var pairIDs: [Int: Int] = [:]
  /// Consequences further than ``nearConsequences`` positions after their cause, by cause
  /// (the nearer ones are found by looking at the causes after an event).
  @exclusivity(unchecked) package var farConsequences: [Int32: [Int32]] = [:]
  static package let nearConsequences = 1024
  /// The last event's `seq`.
  @exclusivity(unchecked) var lastAppendedSeq: Int?
  package let storage: EventStorage
  @exclusivity(unchecked) package var storeNames: [String] = []
  @exclusivity(unchecked) package var storeIDs: [String: Int32] = [:]
  /// Every event of each store, and its actions, as positions.
  @exclusivity(unchecked) package var storeEvents: [PositionList] = []
  @exclusivity(unchecked) package var storeActions: [PositionList] = []
  /// Each store's lives and identities, in positions.
  @exclusivity(unchecked) package var lifetimes = StoreLifetimes()
  /// Where each effect started and ended.
  @exclusivity(unchecked) package var effectTable = EffectTable()
  /// Each store's effects, as ordinals in `effectTable`.
  @exclusivity(unchecked) package var storeEffects: [PositionList] = []
  /// Events with a source location, by line.
  @exclusivity(unchecked) package var byLine: [Int: PositionList] = [:]
  @exclusivity(unchecked) package var sourcePaths: Set<String> = []
  @exclusivity(unchecked) package var stateIndex = StateIndex()
  /// Roots being rebuilt whole aside (``RootRebuildAside``), and those whose rebuild aside
  /// was adopted.
  @exclusivity(unchecked) var rebuildsAside: [String: RootRebuildAside] = [:]
  @exclusivity(unchecked) var rebuiltAside: Set<String> = []
  /// A question about a scoped store of a root without snapshots that would apply at least
  /// this many changes is answered by a rebuild focused on that store while the root is
  /// rebuilt aside (``SessionModel/state(of:at:)``); tests set it lower.
  package var focusingFrom = 16 * StateRebuilder.checkpointSpacing
  /// How many questions were answered by a focused rebuild.
  package internal(set) var focusedAnswers = 0

  /// An empty session, for live events kept in memory.
  public init() {
    storage = .memory([])
  }

  /// An empty session over a trace still being written (a live session's own recording): each
  /// event is added with ``append(_:at:)`` once its line is in the file, and read back from
  /// there when asked. The file is opened on the first read.
  public init(growingTrace path: String) {
    storage = .growingFile(path)
    stateIndex.packer = CheckpointPacker()
  }

  /// Indexes a whole trace (one pass); the events stay in the file.
  public convenience init(tracePath: String) throws(TraceError) {
    try self.init(tracePath: tracePath, decodingAheadFrom: Self.decodingAheadBytes)
  }

  /// A trace of at least this many bytes is decoded on two threads of their own while the
  /// events decoded before are indexed (``DecodedBatches``); a smaller one on the caller's.
  static package let decodingAheadBytes = 4 << 20

  /// ``init(tracePath:)``, decoding ahead on threads of their own from `decodingAheadFrom`
  /// bytes of trace (tests compare both ways).
  package init(tracePath: String, decodingAheadFrom threshold: Int) throws(TraceError) {
    let reader = try TraceReader(path: tracePath)
    let file = try TraceLineFile(path: tracePath)
    storage = .file(file)
    stateIndex.packer = CheckpointPacker()
    if let size = reader.fileSize, size >= threshold {
      let batches = DecodedBatches(reader)
      defer { batches.abandon() }
      while let batch = try batches.next() {
        for (row, event) in batch.events.enumerated() {
          storage.appendLocation(offset: batch.offsets[row], length: batch.lengths[row])
          add(event)
        }
      }
    } else {
      while let item = try reader.next() {
        guard let event = item.event else { continue }
        storage.appendLocation(offset: item.offset, length: item.bytes.count)
        add(event)
      }
    }
    // The decoding threads are done with the reader: `next()` said so.
    self.header = reader.header
    self.damage = (reader.malformedLineCount, reader.truncation)
  }

  deinit {
    for aside in rebuildsAside.values { aside.cancel() }
  }

  /// The trace's header, for a session read from a file.
  public private(set) var header: TraceHeader?
  /// Lines a trace reader skipped, and a truncated last line.
  public private(set) var damage: (malformedLines: Int, truncation: TraceReader.Truncation?) = (0, nil)

  /// The event whose line is at `location` in the session's trace, read back and decoded
  /// (`nil` when it cannot be read or is not an event): for a live session handed the lines
  /// of its growing recording rather than their events, to ``append(_:at:)`` them.
  package func event(atLine location: TraceLineLocation) -> Event? {
    storage.event(atLine: location)
  }

  /// Adds a live event (after every event already in the session). An event whose `seq` is
  /// not above the last one's is ignored (a replayed duplicate).
  public func append(_ event: Event) {
    append(event, at: nil)
  }

  /// Adds a live event whose line is at `location` in the session's growing trace
  /// (``init(growingTrace:)``); with no location (its line could not be written) it is kept
  /// in memory, and so is every event of a session made with ``init()``. An event whose `seq`
  /// is not above the last one's is ignored (a replayed duplicate).
  public func append(_ event: Event, at location: TraceLineLocation?) {
    if let lastAppendedSeq, event.seq <= lastAppendedSeq { return }
    storage.append(event, at: location)
    add(event)
  }

  /// Whether the events are read back from a trace file (a recording, or a live session's
  /// growing recording) rather than kept in memory.
  public var isFileBacked: Bool { storage.isFileBacked }

  /// How many events the session has.
  public var count: Int { columns.count }

  /// The event at `index`.
  public func event(at index: Int) -> Event { storage.event(at: index) }

  /// The event numbered `seq`, if the session has it.
  public func event(seq: Int) -> Event? { index(ofSeq: seq).map(event(at:)) }

  /// What the event at `index` is, from the index (no file read).
  public func kind(at index: Int) -> Kind { kindClasses[Int(pairKinds[columns.value(1, at: index)])] }

  /// The event at `index` as its JSON object (as on the wire).
  public func eventJSON(at index: Int) -> JSON { storage.json(at: index) }

  /// The position of the event numbered `seq`.
  public func index(ofSeq seq: Int) -> Int? {
    let low = firstIndex(atOrAfterSeq: seq)
    return low < count && self.seq(at: low) == seq ? low : nil
  }

  /// The first position whose `seq` is at least `seq` (``count`` when there is none).
  public func firstIndex(atOrAfterSeq seq: Int) -> Int {
    // The block it is in (the first `seq` of each sealed block is known without decoding),
    // then inside that block.
    var low = 0
    var high = columns.sealedBlocks
    while low < high {
      let mid = (low + high) / 2
      if columns.firstValue(0, ofBlock: mid) < seq { low = mid + 1 } else { high = mid }
    }
    // Block `low - 1` starts before `seq`: the answer is in it, or is `low`'s first row.
    let size = PackedColumns.blockSize
    let end = low < columns.sealedBlocks ? low * size : count
    var start = max(0, (low - 1) * size)
    if low > 0, let line = columns.arithmetic(0, ofBlock: low - 1), line.step > 0 {
      let rows = (seq - line.base + line.step - 1) / line.step
      if rows < size { return start + rows }
      start += size  // after that block: in the open one
    }
    var upper = end
    while start < upper {
      let mid = (start + upper) / 2
      if self.seq(at: mid) < seq { start = mid + 1 } else { upper = mid }
    }
    return start
  }
}
