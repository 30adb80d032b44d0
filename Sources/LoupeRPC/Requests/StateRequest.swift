import LoupeCore

/// `loupe/state`: a live store's current state, or the value at a path in it.
///
/// Params `{store: String, path?: String}` (path syntax as in CONTRACT §6, e.g.
/// `pages[id: 2].count`); result `{store, seq, state}` where `seq` is the last event's seq when
/// the state was read. An unknown store, a malformed path or a path with no value is `-32602`.
public struct StateRequest: RequestType, Hashable {
  public static let method = "loupe/state"

  public var store: String
  /// The path text, unparsed (the server parses it with `StatePath(parsing:)`).
  public var path: String?

  public init(store: String, path: String? = nil) {
    self.store = store
    self.path = path
  }

  public init(params: JSON?) throws(ResponseError) {
    let reader = try ObjectReader(params, context: "\(Self.method) params", allowAbsent: false)
    store = try reader.string("store")
    path = try reader.optionalString("path")
  }

  public var params: JSON? {
    var object: JSONObject = ["store": .string(store)]
    if let path { object.append("path", .string(path)) }
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
    public init(store: String, seq: Int, state: JSON) {
      self.store = store
      self.seq = seq
      self.state = state
    }
  }

  public static func encodeResult(_ result: Result) -> JSON {
    ["store": .string(result.store), "seq": .int(result.seq), "state": result.state]
  }

  public static func decodeResult(_ json: JSON) throws(ResponseError) -> Result {
    let reader = try ObjectReader.result(json, of: method)
    guard let state = reader.object["state"] else { throw reader.fail("state", "is required") }
    return Result(store: try reader.string("store"), seq: try reader.int("seq"), state: state)
  }
}
