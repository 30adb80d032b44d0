import LoupeCore

/// `loupe/subscribe`: start receiving `loupe/events` notifications.
///
/// Params `{filter?: Filter, history?: Bool}`; result `{history: Int}`, the number of buffered
/// events replayed before live ones (0 without `history: true`). Subscribing again replaces the
/// filter (and replays history again when asked).
public struct SubscribeRequest: RequestType, Hashable {
  public static let method = "loupe/subscribe"

  public var filter: EventFilter
  public var history: Bool

  public init(filter: EventFilter = .all, history: Bool = false) {
    self.filter = filter
    self.history = history
  }

  public init(params: JSON?) throws(ResponseError) {
    let reader = try ObjectReader.params(params, of: Self.method)
    do {
      filter = try EventFilter(json: reader.value("filter"))
    } catch {
      throw .invalidParams("\(Self.method) params: \(error)")
    }
    history = try reader.optionalBool("history") ?? false
  }

  public var params: JSON? {
    var object = JSONObject()
    if !filter.isEmpty { object.append("filter", filter.json) }
    if history { object.append("history", .bool(true)) }
    return .object(object)
  }

  public struct Result: Sendable, Hashable {
    /// How many buffered events were replayed.
    public var history: Int
    public init(history: Int) { self.history = history }
  }

  public static func encodeResult(_ result: Result) -> JSON { ["history": .int(result.history)] }
  public static func decodeResult(_ json: JSON) throws(ResponseError) -> Result {
    Result(history: try ObjectReader.result(json, of: method).int("history"))
  }
}
