/// One diagnostic event: what a store did, when, and in which order.
///
/// Every event has a `seq` (strictly increasing within a session), a `time` (milliseconds
/// since the session started, monotonic) and a ``Payload`` whose ``Payload/kind`` is the
/// `kind` string on the wire. See `protocol/events.md` for every kind and its JSON.
public struct Event: Sendable, Hashable {
  public var seq: Int
  public var time: Double
  public var payload: Payload

  @inlinable
  public init(seq: Int, time: Double, payload: Payload) {
    self.seq = seq
    self.time = time
    self.payload = payload
  }

  /// The wire `kind`, e.g. `"state.changed"`.
  public var kind: String { payload.kind }

  /// The store this event is about, when it is about one.
  public var store: String? { payload.store }
}

/// The protocol version spoken by this build (CONTRACT §4: `"1"`).
public let loupeProtocolVersion = "1"

extension Event {
  /// Everything an event can say. Unknown kinds from newer writers are kept as ``unknown``.
  public enum Payload: Sendable, Hashable {
    case sessionStarted(SessionStarted)
    case storeCreated(StoreCreated)
    case storeDestroyed(StoreDestroyed)
    case identityChanged(IdentityChanged)
    case actionReceived(ActionReceived)
    case stateChanged(StateChanged)
    /// The whole state of a root store (CONTRACT §10).
    case stateSnapshot(StateSnapshot)
    case effectStarted(EffectStarted)
    case effectFinished(EffectFinished)
    case effectCancelled(EffectCancelled)
    case derivedRecomputed(DerivedRecomputed)
    case mark(Mark)
    case dropped(Dropped)
    case warning(Warning)
    /// A kind this build does not know. `fields` holds every member but `seq`, `time`, `kind`.
    case unknown(kind: String, fields: JSONObject)

    public var kind: String {
      switch self {
      case .sessionStarted: SessionStarted.kind
      case .storeCreated: StoreCreated.kind
      case .storeDestroyed: StoreDestroyed.kind
      case .identityChanged: IdentityChanged.kind
      case .actionReceived: ActionReceived.kind
      case .stateChanged: StateChanged.kind
      case .stateSnapshot: StateSnapshot.kind
      case .effectStarted: EffectStarted.kind
      case .effectFinished: EffectFinished.kind
      case .effectCancelled: EffectCancelled.kind
      case .derivedRecomputed: DerivedRecomputed.kind
      case .mark: Mark.kind
      case .dropped: Dropped.kind
      case .warning: Warning.kind
      case .unknown(let kind, _): kind
      }
    }

    public var store: String? {
      switch self {
      case .sessionStarted, .mark, .dropped: nil
      case .storeCreated(let e): e.store
      case .storeDestroyed(let e): e.store
      case .identityChanged(let e): e.store
      case .actionReceived(let e): e.store
      case .stateChanged(let e): e.store
      case .stateSnapshot(let e): e.store
      case .effectStarted(let e): e.store
      case .effectFinished(let e): e.store
      case .effectCancelled(let e): e.store
      case .derivedRecomputed(let e): e.store
      case .warning(let e): e.store
      case .unknown(_, let fields): fields["store"]?.stringValue
      }
    }
  }

  /// Every kind this build knows, in the order of CONTRACT §6 (plus `warning`).
  public static let knownKinds: [String] = [
    SessionStarted.kind, StoreCreated.kind, StoreDestroyed.kind, IdentityChanged.kind,
    ActionReceived.kind, StateChanged.kind, StateSnapshot.kind, EffectStarted.kind, EffectFinished.kind,
    EffectCancelled.kind, DerivedRecomputed.kind, Mark.kind, Dropped.kind, Warning.kind,
  ]
}

// MARK: - Payloads

/// `session.started`: the first event of every session.
public struct SessionStarted: Sendable, Hashable {
  public static let kind = "session.started"
  public var pid: Int
  public var program: String
  public var protocolVersion: String
  /// ISO 8601, e.g. `2026-11-22T10:04:05.123Z`.
  public var startedAt: String
  public init(pid: Int, program: String, protocolVersion: String = loupeProtocolVersion, startedAt: String) {
    self.pid = pid
    self.program = program
    self.protocolVersion = protocolVersion
    self.startedAt = startedAt
  }
}

/// `store.created`: a root store was made, or a scoped child store's identity began.
public struct StoreCreated: Sendable, Hashable {
  public static let kind = "store.created"
  public var store: String
  public var type: String
  public var parent: String?
  public var identity: String
  public init(store: String, type: String, parent: String?, identity: String) {
    self.store = store
    self.type = type
    self.parent = parent
    self.identity = identity
  }
}

/// `store.destroyed`: a store ended (released, or its child identity ended).
public struct StoreDestroyed: Sendable, Hashable {
  public static let kind = "store.destroyed"
  public var store: String
  public var identity: String
  public init(store: String, identity: String) {
    self.store = store
    self.identity = identity
  }
}

/// `identity.changed`: the identity behind a store id began, ended or was replaced.
public struct IdentityChanged: Sendable, Hashable {
  public static let kind = "identity.changed"
  public enum Reason: String, Sendable, Hashable, CaseIterable {
    case created, presented, dismissed, inserted, removed, replaced
  }
  public var store: String
  public var identity: String
  public var previous: String?
  public var reason: Reason
  public init(store: String, identity: String, previous: String?, reason: Reason) {
    self.store = store
    self.identity = identity
    self.previous = previous
    self.reason = reason
  }
}

/// `action.received`: a store received an action.
public struct ActionReceived: Sendable, Hashable {
  public static let kind = "action.received"
  public enum Origin: String, Sendable, Hashable, CaseIterable {
    /// Sent by the program (`store.send`).
    case send
    /// Sent by an effect; `effect` names it.
    case effect
    /// Routed from the parent store's reducer into a scoped child.
    case parent
    /// Sent by a tool through `loupe/send` (CONTRACT §16); `client` names it.
    case tool
  }
  // `action` is declared before `store` only so that the synthesized memberwise init
  // (`init(action:store:…)`) differs from the public one, which builds through it: an init
  // that assigns each member (`self.store = store`) copied the whole event into its result and
  // destroyed the original, ~450 instructions per event on the program's thread.
  /// The action's label, e.g. `PageFeature.Action.timerTicked`.
  public var action: String
  public var store: String
  /// The action rendered as JSON (its payload, if any).
  public var value: JSON
  public var origin: Origin
  /// The effect that sent it, when `origin` is `.effect`.
  public var effect: Int?
  /// Where it came from (CONTRACT §9): the line that called `send` (origin `send`), the line
  /// that created the effect that sent it (origin `effect`), or the parent action's source
  /// (origin `parent`). Absent in traces written before source locations (version 1).
  public var source: CodeLocation?
  /// Where `value`'s enum cases and tuples are, so readers print it as Swift
  /// (`.rows(.element(id: 1, action: .startTapped))`); `nil` when it has none, and in traces
  /// written before shapes.
  public var shape: ValueShape?
  /// The name of the client that sent it (its `initialize` `clientInfo.name`), when `origin`
  /// is `.tool`.
  public var client: String?
}

extension ActionReceived {
  public init(
    store: String, action: String, value: JSON, origin: Origin, effect: Int? = nil, source: CodeLocation? = nil,
    shape: ValueShape? = nil, client: String? = nil
  ) {
    self = ActionReceived(
      action: action, store: store, value: value, origin: origin, effect: effect, source: source, shape: shape, client: client)
  }
}

extension Event.Payload {
  /// An `action.received` payload, made where it is put: the store makes one per action, and
  /// wrapping an `ActionReceived` made there into the payload copied it whole and destroyed
  /// the original (~440 instructions per action).
  package static func actionReceived(
    store: String, action: String, value: JSON, origin: ActionReceived.Origin, effect: Int?, source: CodeLocation?,
    shape: ValueShape?, client: String?
  ) -> Event.Payload {
    .actionReceived(ActionReceived(
      action: action, store: store, value: value, origin: origin, effect: effect, source: source, shape: shape, client: client))
  }
}

/// One change in a ``StateChanged`` event.
public struct Change: Sendable, Hashable {
  public enum Op: String, Sendable, Hashable, CaseIterable {
    case replace, insert, remove
  }
  // `op` before `path`: the memberwise init, which the public one builds through, then
  // differs from it (see `ActionReceived`).
  public var op: Op
  /// The state path, e.g. `pages[id: 2].count` (see ``StatePath``). `""` is the whole state.
  public var path: String
  /// The value before; absent for `insert`.
  public var old: JSON?
  /// The value after; absent for `remove`.
  public var new: JSON?
  /// For an `insert` into an identified collection (path `[id: …]`), the element's position
  /// in the collection after the insert. Positional inserts (`[3]`) carry it in the path.
  public var index: Int?
  /// A cap cut this change short (`"truncated": true` on the wire; absent when `false`): it
  /// happened below ``RenderOptions/maxDepth`` (then `old` and `new` are the capped renderings
  /// of the nearest value that shows, and may be equal), inside a collection past
  /// ``RenderOptions/maxCollectionCount`` (it names the element's real position, which a
  /// capped rendering does not hold, or it shifts the elements across the cut), or in a
  /// string past ``RenderOptions/maxStringLength``. Applied to a capped rendering it may not
  /// fit or may leave it approximate: a state rebuilt through it is marked approximate.
  public var truncated: Bool
  /// Where `old`'s enum cases and tuples are (see ``ValueShape``); `nil` when it has none,
  /// and in traces written before shapes.
  public var oldShape: ValueShape?
  /// Where `new`'s enum cases and tuples are.
  public var newShape: ValueShape?
}

extension Change {
  @inline(__always)  // the diff makes one per change, in place in its array
  public init(
    path: String, op: Op, old: JSON? = nil, new: JSON? = nil, index: Int? = nil, truncated: Bool = false,
    oldShape: ValueShape? = nil, newShape: ValueShape? = nil
  ) {
    self = Change(
      op: op, path: path, old: old, new: new, index: index, truncated: truncated, oldShape: oldShape, newShape: newShape)
  }
}

/// `state.changed`: an action changed a store's state.
public struct StateChanged: Sendable, Hashable {
  public static let kind = "state.changed"
  // `cause` before `store`: the memberwise init, which the public one builds through, then
  // differs from it (see `ActionReceived`).
  /// `seq` of the `action.received` that caused it.
  public var cause: Int
  public var store: String
  public var changes: [Change]
  /// A `_printChanges()`-style line: `PageFeature#2: _count changed.`
  public var summary: String
  /// `.tool` when a tool replaced the state (`loupe/setState`, CONTRACT §16): then `cause` is
  /// the seq of the `mark` that names it, and `client` the tool's name. `nil` for a change an
  /// action caused.
  public var origin: ActionReceived.Origin?
  public var client: String?
}

extension StateChanged {
  public init(
    store: String, cause: Int, changes: [Change], summary: String, origin: ActionReceived.Origin? = nil,
    client: String? = nil
  ) {
    self = StateChanged(cause: cause, store: store, changes: changes, summary: summary, origin: origin, client: client)
  }
}

/// `state.snapshot`: the whole rendered state of a root store (CONTRACT §10).
///
/// A root store's first snapshot comes with its creation (`cause` `nil`); later ones follow
/// the store's snapshot policy, after the `state.changed` of the action in `cause`; a history
/// replay begins with one for every live root store. A root store's state after event `n` is
/// its last snapshot at or before `n` with every later `state.changed` of that store and of
/// its scoped stores up to `n` applied in order (see ``StateRebuilder``).
public struct StateSnapshot: Sendable, Hashable {
  public static let kind = "state.snapshot"
  /// A root store's id.
  public var store: String
  /// `seq` of the action after which the snapshot was taken; `nil` for the initial state and
  /// for the snapshot a history replay begins with.
  public var cause: Int?
  /// The whole state, rendered as in `state.changed` values.
  public var state: JSON
  /// `true` when a rendering cap (depth, collection size, string length) cut the state short:
  /// a state rebuilt from this snapshot is approximate. Absent (`false`) otherwise.
  public var truncated: Bool
  /// Where the state's enum cases and tuples are (see ``ValueShape``); `nil` when it has
  /// none, and in traces written before shapes.
  public var shape: ValueShape?
  public init(store: String, cause: Int?, state: JSON, truncated: Bool = false, shape: ValueShape? = nil) {
    self.store = store
    self.cause = cause
    self.state = state
    self.truncated = truncated
    self.shape = shape
  }
}

/// `effect.started`.
public struct EffectStarted: Sendable, Hashable {
  public static let kind = "effect.started"
  public var store: String
  /// Unique within the session.
  public var effect: Int
  /// `seq` of the action whose reducer returned the effect.
  public var cause: Int
  public var cancelID: String?
  /// The line that created the effect (`.run { }`, `.send(…)`); a `.cancellable(id:)`
  /// chained to it does not change it.
  public var source: CodeLocation?
  public init(store: String, effect: Int, cause: Int, cancelID: String?, source: CodeLocation? = nil) {
    self.store = store
    self.effect = effect
    self.cause = cause
    self.cancelID = cancelID
    self.source = source
  }
}

/// `effect.finished`: an effect ran to its end.
public struct EffectFinished: Sendable, Hashable {
  public static let kind = "effect.finished"
  public enum Outcome: String, Sendable, Hashable, CaseIterable {
    case completed, failed
  }
  public var store: String
  public var effect: Int
  public var outcome: Outcome
  public var error: String?
  public init(store: String, effect: Int, outcome: Outcome, error: String? = nil) {
    self.store = store
    self.effect = effect
    self.outcome = outcome
    self.error = error
  }
}

/// `effect.cancelled`: an effect was stopped before its end.
public struct EffectCancelled: Sendable, Hashable {
  public static let kind = "effect.cancelled"
  public enum Reason: String, Sendable, Hashable, CaseIterable {
    case cancel, cancelInFlight, storeDestroyed, identityEnded
  }
  /// Which store's action cancelled it.
  public struct Source: Sendable, Hashable {
    public var store: String
    /// `seq` of the action whose reducer asked for the cancellation.
    public var cause: Int
    /// The line that asked for it: the `.cancel(id:)`, `.cancellable(id:cancelInFlight: true)`
    /// or `.debounce(id:for:)`; for an ended identity, the source of the action that ended it.
    public var source: CodeLocation?
    public init(store: String, cause: Int, source: CodeLocation? = nil) {
      self.store = store
      self.cause = cause
      self.source = source
    }
  }
  public var store: String
  public var effect: Int
  public var cancelID: String?
  public var reason: Reason
  public var by: Source?
  public init(store: String, effect: Int, cancelID: String?, reason: Reason, by: Source?) {
    self.store = store
    self.effect = effect
    self.cancelID = cancelID
    self.reason = reason
    self.by = by
  }
}

/// `derived.recomputed`: a derived value ran its computation.
public struct DerivedRecomputed: Sendable, Hashable {
  public static let kind = "derived.recomputed"
  public var store: String
  /// The derived value's name.
  public var derived: String
  /// `seq` of the action that caused it, or `nil` (first computation, explicit refresh).
  public var cause: Int?
  public var outputChanged: Bool
  public var durationNs: Int
  /// The line that declared the derived value (`store.derived(…)`, `.map(…)`).
  public var source: CodeLocation?
  public init(store: String, derived: String, cause: Int?, outputChanged: Bool, durationNs: Int, source: CodeLocation? = nil) {
    self.store = store
    self.derived = derived
    self.cause = cause
    self.outputChanged = outputChanged
    self.durationNs = durationNs
    self.source = source
  }
}

/// `mark`: a label inserted by a client (`loupe/mark`) or the program.
public struct Mark: Sendable, Hashable {
  public static let kind = "mark"
  public var label: String
  public init(label: String) { self.label = label }
}

/// `dropped`: events lost to a slow client or a full buffer.
public struct Dropped: Sendable, Hashable {
  public static let kind = "dropped"
  public var count: Int
  public init(count: Int) { self.count = count }
}

/// `warning`: the runtime noticed a misuse it survived, e.g. an action sent to a store whose
/// identity has ended. Not in CONTRACT §6; readers that do not know it ignore it.
public struct Warning: Sendable, Hashable {
  public static let kind = "warning"
  /// A stable machine-readable code, e.g. `sendToEndedStore`.
  public var code: String
  public var message: String
  public var store: String?
  /// The line behind the misuse: the source of the action that was ignored or misrouted.
  public var source: CodeLocation?
  public init(code: String, message: String, store: String? = nil, source: CodeLocation? = nil) {
    self.code = code
    self.message = message
    self.store = store
    self.source = source
  }
}
