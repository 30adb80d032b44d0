import LoupeCore

/// `shutdown`: the client is about to leave. Afterwards every request gets `-32600`; the
/// client then sends `exit`. Ends this connection's subscription; the program keeps running.
/// No params; result `null`.
public struct ShutdownRequest: RequestType, Hashable {
  public static let method = "shutdown"
  public init() {}
  public init(params: JSON?) throws(ResponseError) {}
  public var params: JSON? { nil }
  public static func encodeResult(_ result: NullResult) -> JSON { .null }
  public static func decodeResult(_ json: JSON) throws(ResponseError) -> NullResult { NullResult() }
}
