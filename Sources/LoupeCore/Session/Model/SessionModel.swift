/// The session so far, indexed by `seq`, by store and by cause: what every front end reads
/// (`loupe dap` walks it; DESIGN "one session model, many front ends").
///
/// Fed by a trace file (``init(tracePath:)``, which keeps an index and the events' offsets, not
/// the events) or by live events (``append(_:)``). Positions are indices into the session's
/// events, in `seq` order.
///
/// - causes: an event's cause is the event it follows from — a change's or an effect's action,
///   the effect that sent an action (origin `effect`), the parent store's action that routed
///   it (origin `parent`), the action that cancelled an effect (`by`), or the effect that
///   finished; ``cause(of:)`` and ``consequences(of:)`` walk the links both ways.
/// - stores: each store's events and actions, and which stores are alive at any position.
/// - effects: which of a store's effects run at any position.
/// - state: a store's whole state after any event (``state(of:at:)``, CONTRACT §10).
///
/// ```swift
/// let model = try SessionModel(tracePath: "bug.loupe")
/// let index = model.index(ofSeq: 42)!
/// model.cause(of: index)                       // the index of what caused #42
/// model.state(of: "PageFeature#1", at: index)  // its state right after #42
/// ```
public final class SessionModel {
  /// Kinds the index tells apart without decoding an event (``kind(at:)``).
  public enum Kind: UInt8, Sendable {
    case action, change, effectStarted, effectEnded, storeCreated, storeDestroyed, identity, snapshot, other
  }

  struct Entry {
    var seq: Int
    var kind: Kind
    /// Index into `storeNames`, or -1.
    var store: Int32
    /// Index of the cause event, or -1.
    var cause: Int32
  }

  var entries: [Entry] = []
  /// Each event's exact `kind`, as an index into `kindNames` (so a filter on kinds and stores
  /// can skip events without reading them back).
  var kindCodes: [UInt16] = []
  var kindNames: [String] = []
  var kindIDs: [String: UInt16] = [:]
  let storage: EventStorage
  var storeNames: [String] = []
  var storeIDs: [String: Int32] = [:]
  var storeInfos: [StoreInfo] = []
  /// Every event of each store, and its actions, as indices.
  var storeEvents: [[Int32]] = []
  var storeActions: [[Int32]] = []
  /// Each store's lives: (created, destroyed) indices.
  var lives: [[(created: Int, destroyed: Int?)]] = []
  var effectStarts: [Int: Int] = [:]
  var effectEnds: [Int: Int] = [:]
  var storeEffects: [[Int]] = []
  var consequenceLists: [Int32: [Int32]] = [:]
  /// Events with a source location, by line.
  var byLine: [Int: [Int32]] = [:]
  var sourcePaths: Set<String> = []
  var rebuilder = StateRebuilder()

  /// An empty session, for live events.
  public init() {
    storage = .memory([])
  }

  /// Indexes a whole trace (one pass); the events stay in the file.
  public init(tracePath: String) throws(TraceError) {
    let reader = try TraceReader(path: tracePath)
    let file = try TraceLineFile(path: tracePath)
    storage = .file(file, offsets: [], lengths: [])
    while let item = try reader.next() {
      guard let event = item.event else { continue }
      storage.appendLocation(offset: item.offset, length: item.bytes.count)
      add(event)
    }
    self.header = reader.header
    self.damage = (reader.malformedLineCount, reader.truncation)
  }

  /// The trace's header, for a session read from a file.
  public private(set) var header: TraceHeader?
  /// Lines a trace reader skipped, and a truncated last line.
  public private(set) var damage: (malformedLines: Int, truncation: TraceReader.Truncation?) = (0, nil)

  /// Adds a live event (after every event already in the session).
  public func append(_ event: Event) {
    storage.append(event)
    add(event)
  }

  /// How many events the session has.
  public var count: Int { entries.count }

  /// The event at `index`.
  public func event(at index: Int) -> Event { storage.event(at: index) }

  /// What the event at `index` is, from the index (no file read).
  public func kind(at index: Int) -> Kind { entries[index].kind }

  /// The event at `index` as its JSON object (as on the wire).
  public func eventJSON(at index: Int) -> JSON { storage.json(at: index) }

  /// The position of the event numbered `seq`.
  public func index(ofSeq seq: Int) -> Int? {
    var low = 0
    var high = entries.count
    while low < high {
      let mid = (low + high) / 2
      if entries[mid].seq < seq { low = mid + 1 } else { high = mid }
    }
    return low < entries.count && entries[low].seq == seq ? low : nil
  }

  /// The first position whose `seq` is at least `seq`.
  public func firstIndex(atOrAfterSeq seq: Int) -> Int {
    var low = 0
    var high = entries.count
    while low < high {
      let mid = (low + high) / 2
      if entries[mid].seq < seq { low = mid + 1 } else { high = mid }
    }
    return low
  }
}
