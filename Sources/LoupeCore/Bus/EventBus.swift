import Foundation

/// The session: hands out `seq` numbers and times, and delivers events to sinks.
///
/// Stores emit into a bus (``EventBus/shared`` unless told otherwise); the inspector and test
/// recorders attach sinks to it. With no sink attached ``isActive`` is `false` and stores skip
/// all diagnostic work: that one atomic load is the whole idle cost.
///
/// The first sink attached to a bus receives `session.started` as the session's first event.
public final class EventBus: Sendable {
  /// The process-wide session that stores use by default.
  public static let shared = EventBus()

  private struct State {
    var sinks: [any EventSink] = []
    var seq = 0
    var started = false
    var options = RenderOptions.default
  }

  private let state = Lock(State())
  private let storeDirectory = Lock<(any StoreDirectory)?>(nil)
  private let active = AtomicBool(false)
  private let effectIDs = AtomicInt(0)
  private let sourcePaths = AtomicBool(true)
  private let sourceLocations = AtomicBool(true)
  private let snapshotActions = AtomicInt(SnapshotPolicy.defaultActions)
  private let snapshotBytes = AtomicInt(SnapshotPolicy.defaultBytes)
  private let snapshotsEnabled = AtomicBool(true)
  private let attachments = AtomicInt(0)
  private let origin: ContinuousClock.Instant
  /// `origin` in nanoseconds of the clock ``ContinuousClock`` reads (Linux).
  private let originNanoseconds: Int
  /// The wall-clock start of the session, for `startedAt`.
  public let startDate: Date
  public let pid: Int
  public let program: String
  /// The texts of the values this session's renderings redacted: the texts derived from them
  /// (effect errors, warnings, mark labels) are scrubbed of them as they are emitted.
  public let redactedTexts = RedactedTexts()

  public init(program: String = EventBus.defaultProgramName, pid: Int = Int(ProcessInfo.processInfo.processIdentifier)) {
    origin = .now
    originNanoseconds = Self.continuousNanoseconds()
    startDate = Date()
    self.pid = pid
    self.program = program
    state.withLock { $0.options.redactedTexts = redactedTexts }
  }

  public static var defaultProgramName: String {
    URL(fileURLWithPath: CommandLine.arguments.first ?? "program").lastPathComponent
  }

  /// Whether any sink is attached. Checking it is cheap; do it before building an event.
  ///
  /// Built with `-D LOUPE_NO_INSTRUMENTATION` it is always `false`, which compiles every
  /// diagnostic path of the stores out: the baseline the benchmarks compare an idle store
  /// with (`Benchmarks/scripts/send_idle.py`).
  @inline(__always) public var isActive: Bool {
    #if LOUPE_NO_INSTRUMENTATION
      false
    #else
      active.load(ordering: .relaxed)
    #endif
  }

  /// Milliseconds since the session started, to the nanosecond: the double nearest to a
  /// whole number of nanoseconds over 10^6, which `JSONWriter.double` prints without
  /// `Double.description` (`12.345678`).
  public func now() -> Double {
    #if os(Linux)
      // The clock ContinuousClock reads, without its 128-bit Duration arithmetic: this runs
      // once per event, on the program's thread (~190 instructions less each).
      return Double(Self.continuousNanoseconds() &- originNanoseconds) / 1e6
    #else
      let elapsed = ContinuousClock.now - origin
      let (seconds, attoseconds) = elapsed.components
      return Double(seconds &* 1_000_000_000 &+ attoseconds / 1_000_000_000) / 1e6
    #endif
  }

  /// Nanoseconds on the clock ``ContinuousClock`` reads (`CLOCK_BOOTTIME` on Linux); 0 elsewhere
  /// (``now()`` uses `ContinuousClock` there).
  @inline(__always) static func continuousNanoseconds() -> Int {
    #if os(Linux)
      return LibC.continuousNanoseconds()
    #else
      return 0
    #endif
  }

  /// `startedAt` in ISO 8601 with milliseconds, UTC.
  public var startedAt: String { Self.iso8601(startDate) }

  public static func iso8601(_ date: Date) -> String {
    date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
  }

  /// Attaches a sink; it receives every event emitted from now on.
  public func attach(_ sink: any EventSink) {
    state.withLock { state in
      state.sinks.append(sink)
      if !state.started {
        state.started = true
        var started = Optional(Event(seq: 0, time: 0, payload: .sessionStarted(SessionStarted(pid: pid, program: program, startedAt: startedAt))))
        deliver(&started, in: &state)
      }
      attachments.add(1, ordering: .relaxed)
    }
    active.store(true, ordering: .releasing)
  }

  /// Detaches a sink (compared by identity).
  public func detach(_ sink: any EventSink) {
    state.withLock { state in
      state.sinks.removeAll { $0 === sink }
      active.store(!state.sinks.isEmpty, ordering: .releasing)
    }
  }

  /// Emits an event and returns its `seq`. With no sink attached the event is dropped and the
  /// current `seq` is returned unchanged; callers should check ``isActive`` first to avoid
  /// building the payload at all.
  @discardableResult
  public func emit(_ payload: consuming Event.Payload) -> Int {
    if !redactedTexts.isEmpty { payload = payload.scrubbed(of: redactedTexts) }
    // Made whole outside the lock and numbered inside it: the payload is moved into the event,
    // never copied (an event is a large value; this runs on the program's thread).
    // Held in an optional so that the lock's closure can move it to the last sink (`take()`).
    var event = Optional(Event(seq: 0, time: 0, payload: consume payload))
    return state.withLock { state in
      guard !state.sinks.isEmpty else { return state.seq }
      return deliver(&event, in: &state)
    }
  }

  /// Numbers `event` and hands it to the sinks: copies to all but the last, which takes the
  /// event itself.
  @discardableResult
  private func deliver(_ event: inout Event?, in state: inout State) -> Int {
    state.seq += 1
    event!.seq = state.seq
    event!.time = now()
    for index in 0..<max(0, state.sinks.count - 1) { state.sinks[index].receive(event!) }
    if let sink = state.sinks.last, let last = event.take() { sink.receive(last) }
    return state.seq
  }

  /// The `seq` of the last event emitted.
  public var lastSeq: Int { state.withLock { $0.seq } }

  /// A new effect id, unique in this session.
  public func nextEffectID() -> Int {
    effectIDs.add(1, ordering: .relaxed).newValue
  }

  /// The runtime's store directory, for `loupe/stores` and `loupe/state`. Behind a lock of
  /// its own: clients ask for it on their threads (100,000 times in one batch, maybe), and
  /// must never make ``emit(_:)`` wait.
  public var directory: (any StoreDirectory)? {
    get { storeDirectory.withLock { $0 } }
    set { storeDirectory.withLock { $0 = newValue } }
  }

  /// Whether `source` locations in events keep their `path` (the `#filePath`). `true` by
  /// default; `LOUPE_SOURCE_PATHS=off` sets it to `false` on ``shared`` so that traces
  /// shared with others carry no build-machine paths (CONTRACT §9).
  public var includesSourcePaths: Bool {
    get { sourcePaths.load(ordering: .relaxed) }
    set { sourcePaths.store(newValue, ordering: .relaxed) }
  }

  /// Whether events carry `source` locations at all (CONTRACT §9). `true` by default; `false`
  /// leaves them out of every event (smaller traces, and the baseline the benchmarks measure
  /// the cost of source locations against). The store captures them either way: that costs
  /// no formatting, only passing three words along.
  public var includesSourceLocations: Bool {
    get { sourceLocations.load(ordering: .relaxed) }
    set { sourceLocations.store(newValue, ordering: .relaxed) }
  }

  /// When root stores emit `state.snapshot` (CONTRACT §10); ``SnapshotPolicy/default`` unless
  /// set (`LOUPE_SNAPSHOT_ACTIONS`, `LOUPE_SNAPSHOT_BYTES` on ``shared``).
  public var snapshotPolicy: SnapshotPolicy {
    get {
      guard snapshotsEnabled.load(ordering: .relaxed) else { return .off }
      return SnapshotPolicy(actions: snapshotActions.load(ordering: .relaxed), bytes: snapshotBytes.load(ordering: .relaxed))
    }
    set {
      snapshotActions.store(newValue.actions, ordering: .relaxed)
      snapshotBytes.store(newValue.bytes, ordering: .relaxed)
      snapshotsEnabled.store(newValue.isEnabled, ordering: .relaxed)
    }
  }

  /// How many sinks have been attached so far: a store whose last snapshot is older than the
  /// latest attachment takes a new one before its next action, so every sink gets one.
  public var attachmentCount: Int { attachments.load(ordering: .relaxed) }

  /// How values are rendered for this session (caps, redaction). Its
  /// ``RenderOptions/redactedTexts`` is always this bus's ``redactedTexts``.
  public var renderOptions: RenderOptions {
    get { state.withLock { $0.options } }
    set {
      var options = newValue
      options.redactedTexts = redactedTexts
      state.withLock { $0.options = options }
    }
  }
}
