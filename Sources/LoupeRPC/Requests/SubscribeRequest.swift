import LoupeCore

/// `loupe/subscribe`: start receiving `loupe/events` notifications.
///
/// Params `{filter?: Filter, history?: Bool}`; result `{history: Int}`, the number of buffered
/// events replayed before live ones (0 without `history: true`). Subscribing again replaces the
/// filter (and replays history again when asked).
public struct SubscribeRequest: RequestType, Hashable {
  public static let method = "loupe/subscribe"
  /// The most globs a filter may hold, all members together.
  public static let maxFilterPatterns = 1_000
  /// The longest glob a filter may hold, in UTF-8 bytes.
  public static let maxPatternLength = 1_000

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
    try Self.checkSize(of: filter)
  }

  /// Refuses a filter over ``maxFilterPatterns`` globs or with a glob over
  /// ``maxPatternLength`` bytes (`-32602`, saying the limit).
  static func checkSize(of filter: EventFilter) throws(ResponseError) {
    let globs = [filter.kinds, filter.stores, filter.actions, filter.paths].compactMap { $0 }.joined()
    let count = globs.count
    guard count <= maxFilterPatterns else {
      throw .invalidParams("\(method) params: 'filter' has \(count) patterns; at most \(maxFilterPatterns) are accepted")
    }
    if let long = globs.first(where: { $0.pattern.utf8.count > maxPatternLength }) {
      throw .invalidParams(
        "\(method) params: a 'filter' pattern is \(long.pattern.utf8.count) bytes long; at most \(maxPatternLength) are accepted")
    }
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
