import LoupeCore

/// `loupe/state`: a store's state, or the value at a path in it — now, or right after an
/// earlier event (CONTRACT §10).
///
/// Params `{store: String, path?: String, at?: Int}` (path syntax as in CONTRACT §6, e.g.
/// `pages[id: 2].count`; `at` a `seq`); result `{store, seq, state, approximate?}` where `seq`
/// is the last event's seq when the state was read, or `at`. `approximate: true` (absent when
/// `false`) marks a state rebuilt from a snapshot or change cut short by a cap, or without a
/// snapshot. An unknown store, a malformed path, a path with no value or an `at` the server
/// cannot answer for is `-32602`.
public struct StateRequest: RequestType, Hashable {
  public static let method = "loupe/state"

  public var store: String
  /// The path text, unparsed (the server parses it with `StatePath(parsing:)`).
  public var path: String?
  /// The state right after the event with this `seq`; `nil` for the state now.
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
      guard at >= 0 else { throw reader.fail("at", "must be a seq (0 or more), not \(at)") }
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
    /// Rebuilt from a snapshot or change cut short by a cap, or without a snapshot (CONTRACT §10).
    public var approximate: Bool
    public init(store: String, seq: Int, state: JSON, approximate: Bool = false) {
      self.store = store
      self.seq = seq
      self.state = state
      self.approximate = approximate
    }
  }

  public static func encodeResult(_ result: Result) -> JSON {
    var object: JSONObject = ["store": .string(result.store), "seq": .int(result.seq), "state": result.state]
    if result.approximate { object.append("approximate", true) }
    return .object(object)
  }

  public static func decodeResult(_ json: JSON) throws(ResponseError) -> Result {
    let reader = try ObjectReader.result(json, of: method)
    guard let state = reader.object["state"] else { throw reader.fail("state", "is required") }
    return Result(
      store: try reader.string("store"), seq: try reader.int("seq"), state: state,
      approximate: try reader.optionalBool("approximate") ?? false)
  }
}
