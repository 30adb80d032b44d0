import LoupeCore

/// `loupe/unsubscribe`: stop event notifications (events already queued are discarded).
/// Params `{}`; result `null`.
public struct UnsubscribeRequest: RequestType, Hashable {
  public static let method = "loupe/unsubscribe"
  public init() {}
  public init(params: JSON?) throws(ResponseError) { _ = try ObjectReader.params(params, of: Self.method) }
  public var params: JSON? { .object([:]) }
  public static func encodeResult(_ result: NullResult) -> JSON { .null }
  public static func decodeResult(_ json: JSON) throws(ResponseError) -> NullResult { NullResult() }
}
