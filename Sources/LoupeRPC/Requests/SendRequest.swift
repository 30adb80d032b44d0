import LoupeCore

/// `loupe/send`: a tool sends an action to a live store (CONTRACT §16; off unless the program
/// allows control, else `-32004`).
///
/// Params `{store: String, action: JSON}`: `action` in the form `action.received`'s `value`
/// renders it (`"incrementTapped"`, `{"rows":{"element":{"id":1,"action":"toggled"}}}`), so
/// a recorded action can be sent as it is; the program decodes it into the store's `Action`,
/// which must be `Decodable`. Result `{seq, through?}`: the seq of the `action.received` it
/// caused (origin `tool`, with the client's name), or `null` when no event was emitted, and
/// the seq of the last event its processing emitted (the action's changes, effects started,
/// actions of `.send` effects) before the program did anything else.
public struct SendRequest: RequestType, Hashable {
  public static let method = "loupe/send"

  public var store: String
  public var action: JSON

  public init(store: String, action: JSON) {
    self.store = store
    self.action = action
  }

  public init(params: JSON?) throws(ResponseError) {
    let reader = try ObjectReader(params, context: "\(Self.method) params", allowAbsent: false)
    store = try reader.string("store")
    guard let action = reader.value("action") else { throw reader.fail("action", "is required") }
    self.action = action
  }

  public var params: JSON? { ["store": .string(store), "action": action] }

  public struct Result: Sendable, Hashable {
    /// The `action.received` event's seq; `nil` when no event was emitted (no sink attached).
    public var seq: Int?
    /// The last event the action's processing emitted; `nil` with `seq`, and in
    /// `loupe/setState`'s result.
    public var through: Int?
    public init(seq: Int?, through: Int? = nil) {
      self.seq = seq
      self.through = through
    }
  }

  public static func encodeResult(_ result: Result) -> JSON {
    var object: JSONObject = ["seq": result.seq.map(JSON.int) ?? .null]
    if let through = result.through { object.append("through", .int(through)) }
    return .object(object)
  }
  public static func decodeResult(_ json: JSON) throws(ResponseError) -> Result {
    let reader = try ObjectReader.result(json, of: method)
    return Result(
      seq: reader.value("seq") == nil ? nil : try reader.int("seq"),
      through: reader.value("through") == nil ? nil : try reader.int("through"))
  }
}
