import LoupeCore

/// `loupe/state`: a store's state (or the value at a path in it), now or right after an event.
///
/// Params `{store: String, path?: String, at?: Int}` (path syntax as in CONTRACT §6, e.g.
/// `pages[id: 2].count`); result `{store, seq, state, approximate?, shape?}` where `seq` is the
/// last event's seq when the state was read, or `at`, and `shape` says where the enum cases and
/// tuples of `state` are (protocol/values.md "Shapes"; left out when there are none). With `at` (CONTRACT §10) the state is rebuilt
/// from the history's `state.snapshot` and `state.changed` events; `approximate: true` says a
/// cap cut a snapshot or a change short. An unknown store, a malformed path, a path with no
/// value, or an `at` the server cannot answer for is `-32602` (a live program names the
/// oldest `seq` it can answer for).
public struct StateRequest: RequestType, Hashable {
  public static let method = "loupe/state"

  public var store: String
  /// The path text, unparsed (the server parses it with `StatePath(parsing:)`).
  public var path: String?
  /// The `seq` of the event right after which the state is wanted; `nil` for now.
  public var at: Int?

  public init(store: String, path: String? = nil, at: Int? = nil) {
    self.store = store
    self.path = path
    self.at = at
  }

  public init(params: JSON?) throws(ResponseError) {
    let reader = try ObjectReader(params, context: "\(Self.method) params", allowAbsent: false)
    store = try reader.string("store")
    path = try reader.optionalString("path")
    if reader.value("at") != nil {
      let at = try reader.int("at")
      guard at >= 0 else { throw reader.fail("at", "must be a seq (an integer from 0), not \(at)") }
      self.at = at
    }
  }

  public var params: JSON? {
    var object: JSONObject = ["store": .string(store)]
    if let path { object.append("path", .string(path)) }
    if let at { object.append("at", .int(at)) }
    return .object(object)
  }

  /// The parsed path; a malformed one is `-32602` naming the problem.
  public func statePath() throws(ResponseError) -> StatePath? {
    guard let path, !path.isEmpty else { return nil }
    do {
      return try StatePath(parsing: path)
    } catch {
      throw .invalidParams(error.message)
    }
  }

  public struct Result: Sendable, Hashable {
    public var store: String
    public var seq: Int
    public var state: JSON
    /// The state was rebuilt through a snapshot or a change that a cap cut short (or one that
    /// did not apply): parts of it may be missing. Encoded only when `true`.
    public var approximate: Bool
    /// Where `state`'s enum cases and tuples are, so a reader prints it as Swift; `nil` when
    /// there are none or the server does not say (encoded only when set).
    public var shape: ValueShape?
    public init(store: String, seq: Int, state: JSON, approximate: Bool = false, shape: ValueShape? = nil) {
      self.store = store
      self.seq = seq
      self.state = state
      self.approximate = approximate
      self.shape = shape?.nonEmpty
    }
  }

  public static func encodeResult(_ result: Result) -> JSON {
    var object: JSONObject = ["store": .string(result.store), "seq": .int(result.seq), "state": result.state]
    if result.approximate { object.append("approximate", true) }
    if let shape = result.shape?.nonEmpty { object.append("shape", shape.json) }
    return .object(object)
  }

  public static func decodeResult(_ json: JSON) throws(ResponseError) -> Result {
    let reader = try ObjectReader.result(json, of: method)
    guard let state = reader.object["state"] else { throw reader.fail("state", "is required") }
    var shape: ValueShape?
    if let json = reader.object["shape"] {
      guard let decoded = ValueShape(json: json) else { throw reader.fail("shape", "must be {enums?: [String], tuples?: [String]}") }
      shape = decoded
    }
    return Result(
      store: try reader.string("store"), seq: try reader.int("seq"), state: state,
      approximate: try reader.optionalBool("approximate") ?? false, shape: shape)
  }
}
