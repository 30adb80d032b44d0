import Loupe

/// Codable mirrors of Loupe's events: what a program would write to log the same events with
/// Foundation's `JSONEncoder`. Synthesized conformances throughout; fields the protocol
/// spells "String or null" use ``Nullable`` so that `null` is written rather than omitted,
/// and optional fields the protocol omits when absent are plain optionals. Encoding one
/// gives the same JSON as Loupe's writer (checked by the benchmark).
enum CodableEvents {
  enum AnyEvent: Encodable {
    case sessionStarted(SessionStartedEvent)
    case storeCreated(StoreCreatedEvent)
    case identityChanged(IdentityChangedEvent)
    case actionReceived(ActionReceivedEvent)
    case stateChanged(StateChangedEvent)
    case effectStarted(EffectStartedEvent)
    case effectFinished(EffectFinishedEvent)
    case effectCancelled(EffectCancelledEvent)
    case derivedRecomputed(DerivedRecomputedEvent)
    case mark(MarkEvent)

    func encode(to encoder: any Encoder) throws {
      switch self {
      case .sessionStarted(let e): try e.encode(to: encoder)
      case .storeCreated(let e): try e.encode(to: encoder)
      case .identityChanged(let e): try e.encode(to: encoder)
      case .actionReceived(let e): try e.encode(to: encoder)
      case .stateChanged(let e): try e.encode(to: encoder)
      case .effectStarted(let e): try e.encode(to: encoder)
      case .effectFinished(let e): try e.encode(to: encoder)
      case .effectCancelled(let e): try e.encode(to: encoder)
      case .derivedRecomputed(let e): try e.encode(to: encoder)
      case .mark(let e): try e.encode(to: encoder)
      }
    }
  }

  struct SessionStartedEvent: Encodable {
    var seq: Int, time: Double, kind: String
    var pid: Int, program: String, protocolVersion: String, startedAt: String
  }
  struct StoreCreatedEvent: Encodable {
    var seq: Int, time: Double, kind: String
    var store: String, type: String, parent: Nullable<String>, identity: String
  }
  struct IdentityChangedEvent: Encodable {
    var seq: Int, time: Double, kind: String
    var store: String, identity: String, previous: Nullable<String>, reason: String
  }
  struct ActionReceivedEvent: Encodable {
    var seq: Int, time: Double, kind: String
    var store: String, action: String, value: JSONValue, origin: String, effect: Int?
  }
  struct ChangeRecord: Encodable {
    var path: String, op: String, old: JSONValue?, new: JSONValue?, index: Int?
  }
  struct StateChangedEvent: Encodable {
    var seq: Int, time: Double, kind: String
    var store: String, cause: Int, changes: [ChangeRecord], summary: String
  }
  struct EffectStartedEvent: Encodable {
    var seq: Int, time: Double, kind: String
    var store: String, effect: Int, cause: Int, cancelID: Nullable<String>
  }
  struct EffectFinishedEvent: Encodable {
    var seq: Int, time: Double, kind: String
    var store: String, effect: Int, outcome: String, error: String?
  }
  struct Source: Encodable {
    var store: String, cause: Int
  }
  struct EffectCancelledEvent: Encodable {
    var seq: Int, time: Double, kind: String
    var store: String, effect: Int, cancelID: Nullable<String>, reason: String, by: Nullable<Source>
  }
  struct DerivedRecomputedEvent: Encodable {
    var seq: Int, time: Double, kind: String
    var store: String, derived: String, cause: Nullable<Int>, outputChanged: Bool, durationNs: Int
  }
  struct MarkEvent: Encodable {
    var seq: Int, time: Double, kind: String
    var label: String
  }

  /// A value that is always written: `null` when absent.
  struct Nullable<Wrapped: Encodable>: Encodable {
    var value: Wrapped?
    init(_ value: Wrapped?) { self.value = value }
    func encode(to encoder: any Encoder) throws {
      var container = encoder.singleValueContainer()
      if let value { try container.encode(value) } else { try container.encodeNil() }
    }
  }

  /// Any JSON value, members in order.
  enum JSONValue: Encodable {
    case null, bool(Bool), int(Int), double(Double), string(String), array([JSONValue]), object([(String, JSONValue)])

    struct Key: CodingKey {
      var stringValue: String
      var intValue: Int? { nil }
      init(stringValue: String) { self.stringValue = stringValue }
      init?(intValue: Int) { nil }
    }

    func encode(to encoder: any Encoder) throws {
      switch self {
      case .object(let members):
        var container = encoder.container(keyedBy: Key.self)
        for (key, value) in members { try container.encode(value, forKey: Key(stringValue: key)) }
      case .array(let elements):
        var container = encoder.unkeyedContainer()
        for element in elements { try container.encode(element) }
      default:
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let b): try container.encode(b)
        case .int(let i): try container.encode(i)
        case .double(let d): try container.encode(d)
        case .string(let s): try container.encode(s)
        case .array, .object: break
        }
      }
    }

    init(_ json: JSON) {
      switch json {
      case .null: self = .null
      case .bool(let b): self = .bool(b)
      case .int(let i): self = .int(i)
      case .double(let d): self = .double(d)
      case .string(let s): self = .string(s)
      case .array(let a): self = .array(a.map(JSONValue.init))
      case .object(let o): self = .object(o.members.map { ($0.key, JSONValue($0.value)) })
      }
    }
  }

  /// The mirror of `event` (built before timing: a program would hold these already).
  static func mirror(of event: Event) -> AnyEvent {
    let (seq, time, kind) = (event.seq, event.time, event.kind)
    switch event.payload {
    case .sessionStarted(let e):
      return .sessionStarted(.init(
        seq: seq, time: time, kind: kind, pid: e.pid, program: e.program, protocolVersion: e.protocolVersion, startedAt: e.startedAt))
    case .storeCreated(let e):
      return .storeCreated(.init(
        seq: seq, time: time, kind: kind, store: e.store, type: e.type, parent: Nullable(e.parent), identity: e.identity))
    case .identityChanged(let e):
      return .identityChanged(.init(
        seq: seq, time: time, kind: kind, store: e.store, identity: e.identity, previous: Nullable(e.previous),
        reason: e.reason.rawValue))
    case .actionReceived(let e):
      return .actionReceived(.init(
        seq: seq, time: time, kind: kind, store: e.store, action: e.action, value: JSONValue(e.value), origin: e.origin.rawValue,
        effect: e.effect))
    case .stateChanged(let e):
      return .stateChanged(.init(
        seq: seq, time: time, kind: kind, store: e.store, cause: e.cause,
        changes: e.changes.map {
          ChangeRecord(path: $0.path, op: $0.op.rawValue, old: $0.old.map(JSONValue.init), new: $0.new.map(JSONValue.init), index: $0.index)
        },
        summary: e.summary))
    case .effectStarted(let e):
      return .effectStarted(.init(
        seq: seq, time: time, kind: kind, store: e.store, effect: e.effect, cause: e.cause, cancelID: Nullable(e.cancelID)))
    case .effectFinished(let e):
      return .effectFinished(.init(
        seq: seq, time: time, kind: kind, store: e.store, effect: e.effect, outcome: e.outcome.rawValue, error: e.error))
    case .effectCancelled(let e):
      return .effectCancelled(.init(
        seq: seq, time: time, kind: kind, store: e.store, effect: e.effect, cancelID: Nullable(e.cancelID),
        reason: e.reason.rawValue, by: Nullable(e.by.map { Source(store: $0.store, cause: $0.cause) })))
    case .derivedRecomputed(let e):
      return .derivedRecomputed(.init(
        seq: seq, time: time, kind: kind, store: e.store, derived: e.derived, cause: Nullable(e.cause),
        outputChanged: e.outputChanged, durationNs: e.durationNs))
    case .mark(let e):
      return .mark(.init(seq: seq, time: time, kind: kind, label: e.label))
    case .storeDestroyed, .dropped, .warning, .stateSnapshot, .unknown:
      preconditionFailure("not in the mix: \(kind)")
    }
  }
}
