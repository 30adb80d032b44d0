/// Why a JSON value is not an event.
public struct EventDecodingError: Error, Sendable, Equatable, CustomStringConvertible {
  public var message: String
  public init(_ message: String) { self.message = message }
  public var description: String { message }
}

extension Event {
  /// Decodes an event from its JSON object.
  ///
  /// Members this build does not know are ignored; a kind it does not know becomes
  /// ``Payload/unknown(kind:fields:)`` with all its members kept. A known kind with a missing or
  /// mistyped field is an error naming the field.
  public init(json: JSON) throws(EventDecodingError) {
    guard case .object(let object) = json else {
      throw EventDecodingError("An event must be a JSON object, not \(json.typeName)")
    }
    var fields = Fields(object: object, context: .event)
    let kind = try fields.string("kind")
    fields.context = .named(kind)
    seq = try fields.int("seq")
    time = try fields.double("time")
    payload = try Payload(kind: kind, fields: fields)
  }

  /// Parses and decodes one event from its JSON text (a trace line or a wire event).
  public init(jsonText: some Collection<UInt8>) throws(EventDecodingError) {
    let value: JSON
    do {
      value = try JSONParser.parse(jsonText)
    } catch {
      throw EventDecodingError("Invalid JSON: \(error)")
    }
    try self.init(json: value)
  }
}

extension Event.Payload {
  init(kind: String, fields f: Fields) throws(EventDecodingError) {
    switch kind {
    // The kinds a trace holds most of first: each case compares `kind` with its name.
    case ActionReceived.kind:
      self = .actionReceived(
        ActionReceived(
          store: try f.string("store"), action: try f.string("action"), value: f.object["value"] ?? .null,
          origin: try f.enumeration("origin"), effect: try f.optionalInt("effect"), source: try f.source(),
          shape: try f.shape("shape"), client: try f.optionalString("client")))
    case StateChanged.kind:
      guard let changes = f.object["changes"]?.arrayValue else {
        throw f.error("changes", expected: "an array")
      }
      var decoded: [Change] = []
      decoded.reserveCapacity(changes.count)
      for (offset, change) in changes.enumerated() {
        guard case .object(let object) = change else {
          throw EventDecodingError("state.changed: changes[\(offset)] must be an object")
        }
        let cf = Fields(object: object, context: .change(offset))
        decoded.append(
          Change(
            path: try cf.string("path"), op: try cf.enumeration("op"), old: object["old"], new: object["new"],
            index: try cf.optionalInt("index"), truncated: try cf.optionalBool("truncated") ?? false,
            oldShape: try cf.shape("oldShape"), newShape: try cf.shape("newShape")))
      }
      self = .stateChanged(
        StateChanged(
          store: try f.string("store"), cause: try f.int("cause"), changes: decoded, summary: try f.string("summary"),
          origin: f.object["origin"] == nil ? nil : try f.enumeration("origin") as ActionReceived.Origin,
          client: try f.optionalString("client")))
    case DerivedRecomputed.kind:
      self = .derivedRecomputed(
        DerivedRecomputed(
          store: try f.string("store"), derived: try f.string("derived"), cause: try f.optionalInt("cause"),
          outputChanged: try f.bool("outputChanged"), durationNs: try f.int("durationNs"), source: try f.source()))
    case EffectStarted.kind:
      self = .effectStarted(
        EffectStarted(
          store: try f.string("store"), effect: try f.int("effect"), cause: try f.int("cause"),
          cancelID: try f.optionalString("cancelID"), source: try f.source()))
    case EffectFinished.kind:
      self = .effectFinished(
        EffectFinished(
          store: try f.string("store"), effect: try f.int("effect"), outcome: try f.enumeration("outcome"),
          error: try f.optionalString("error")))
    case EffectCancelled.kind:
      var by: EffectCancelled.Source?
      switch f.object["by"] {
      case nil, .null?: by = nil
      case .object(let object)?:
        let bf = Fields(object: object, context: .named("effect.cancelled by"))
        by = EffectCancelled.Source(store: try bf.string("store"), cause: try bf.int("cause"), source: try bf.source())
      default: throw f.error("by", expected: "an object or null")
      }
      self = .effectCancelled(
        EffectCancelled(
          store: try f.string("store"), effect: try f.int("effect"), cancelID: try f.optionalString("cancelID"),
          reason: try f.enumeration("reason"), by: by))
    case StateSnapshot.kind:
      guard let state = f.object["state"] else { throw f.error("state", expected: "a JSON value") }
      let truncated: Bool
      switch f.object["truncated"] {
      case nil, .null?: truncated = false
      case .bool(let value)?: truncated = value
      default: throw f.error("truncated", expected: "a boolean")
      }
      self = .stateSnapshot(
        StateSnapshot(
          store: try f.string("store"), cause: try f.optionalInt("cause"), state: state, truncated: truncated,
          shape: try f.shape("shape")))
    case SessionStarted.kind:
      self = .sessionStarted(
        SessionStarted(
          pid: try f.int("pid"), program: try f.string("program"),
          protocolVersion: try f.string("protocolVersion"), startedAt: try f.string("startedAt")))
    case StoreCreated.kind:
      self = .storeCreated(
        StoreCreated(
          store: try f.string("store"), type: try f.string("type"),
          parent: try f.optionalString("parent"), identity: try f.string("identity")))
    case StoreDestroyed.kind:
      self = .storeDestroyed(StoreDestroyed(store: try f.string("store"), identity: try f.string("identity")))
    case IdentityChanged.kind:
      self = .identityChanged(
        IdentityChanged(
          store: try f.string("store"), identity: try f.string("identity"),
          previous: try f.optionalString("previous"), reason: try f.enumeration("reason")))
    case Mark.kind:
      self = .mark(Mark(label: try f.string("label")))
    case Dropped.kind:
      self = .dropped(Dropped(count: try f.int("count")))
    case Warning.kind:
      self = .warning(
        Warning(
          code: try f.string("code"), message: try f.string("message"), store: try f.optionalString("store"),
          source: try f.source()))
    default:
      var rest = f.object
      for key in Event.envelopeKeys { rest[key] = nil }
      self = .unknown(kind: kind, fields: rest)
    }
  }
}

extension CodeLocation {
  /// A `source` member's value as the event decoder reads it (CONTRACT §9): `.some(nil)` for
  /// null, `nil` when the decoder would reject it.
  package static func decoded(source value: JSON) -> CodeLocation?? {
    // Not `try?`, which would flatten a rejected source into a missing one.
    do {
      return .some(try Fields(object: ["source": value], context: .event).source())
    } catch {
      return nil
    }
  }
}

/// Typed member access with errors that name the kind and the field.
struct Fields {
  var object: JSONObject
  /// What the messages name the object by, spelled out only when one is made (a trace's
  /// every change and `source` used to make its text, e.g. `state.changed changes[3]`,
  /// before anything failed).
  var context: Context

  indirect enum Context {
    /// An event whose kind is not known yet.
    case event
    /// An event of this kind (or another named object, e.g. `effect.cancelled by`).
    case named(String)
    /// A `state.changed` event's change at this offset of `changes`.
    case change(Int)
    /// The member of that name of the object named so.
    case member(Context, String)

    var text: String? {
      switch self {
      case .event: nil
      case .named(let name): name
      case .change(let offset): "state.changed changes[\(offset)]"
      case .member(let parent, let name): "\(parent.text ?? "event") \(name)"
      }
    }
  }

  init(object: JSONObject, context: Context) {
    self.object = object
    self.context = context
  }

  /// The name the messages give the object.
  var kind: String? { context.text }

  func error(_ key: String, expected: String) -> EventDecodingError {
    let found = object[key].map { "found \($0.typeName)" } ?? "missing"
    let prefix = kind.map { "\($0): " } ?? ""
    return EventDecodingError("\(prefix)field '\(key)' must be \(expected) (\(found))")
  }

  func string(_ key: String) throws(EventDecodingError) -> String {
    guard let value = object[key]?.stringValue else { throw error(key, expected: "a string") }
    return value
  }

  func optionalString(_ key: String) throws(EventDecodingError) -> String? {
    switch object[key] {
    case nil, .null?: return nil
    case .string(let s)?: return s
    default: throw error(key, expected: "a string or null")
    }
  }

  /// The optional `source` member (CONTRACT §9): absent or null is `nil`.
  func source() throws(EventDecodingError) -> CodeLocation? {
    switch object["source"] {
    case nil, .null?: return nil
    case .object(let object)?:
      let sf = Fields(object: object, context: .member(context, "source"))
      return CodeLocation(file: try sf.string("file"), line: try sf.int("line"), path: try sf.optionalString("path"))
    default: throw error("source", expected: "an object or null")
    }
  }

  /// An optional ``ValueShape`` member (`shape`, `oldShape`, `newShape`): absent or null is
  /// `nil`, and so is an empty one.
  func shape(_ key: String) throws(EventDecodingError) -> ValueShape? {
    switch object[key] {
    case nil, .null?: return nil
    case let value?:
      guard let shape = ValueShape(json: value) else {
        throw error(key, expected: "an object of string arrays 'enums' and 'tuples'")
      }
      return shape.nonEmpty
    }
  }

  func int(_ key: String) throws(EventDecodingError) -> Int {
    guard let value = object[key]?.intValue else { throw error(key, expected: "an integer") }
    return value
  }

  func optionalInt(_ key: String) throws(EventDecodingError) -> Int? {
    switch object[key] {
    case nil, .null?: return nil
    case let value?:
      guard let int = value.intValue else { throw error(key, expected: "an integer or null") }
      return int
    }
  }

  func double(_ key: String) throws(EventDecodingError) -> Double {
    guard let value = object[key]?.doubleValue else { throw error(key, expected: "a number") }
    return value
  }

  func optionalBool(_ key: String) throws(EventDecodingError) -> Bool? {
    switch object[key] {
    case nil, .null?: return nil
    case let value?:
      guard let bool = value.boolValue else { throw error(key, expected: "a boolean or null") }
      return bool
    }
  }

  func bool(_ key: String) throws(EventDecodingError) -> Bool {
    guard let value = object[key]?.boolValue else { throw error(key, expected: "a boolean") }
    return value
  }

  func enumeration<T: RawRepresentable & CaseIterable>(_ key: String) throws(EventDecodingError) -> T
  where T.RawValue == String {
    let raw = try string(key)
    guard let value = T(rawValue: raw) else {
      let allowed = T.allCases.map { "'\($0.rawValue)'" }.joined(separator: ", ")
      throw EventDecodingError("\(kind.map { "\($0): " } ?? "")field '\(key)' is '\(raw)', expected one of \(allowed)")
    }
    return value
  }
}
