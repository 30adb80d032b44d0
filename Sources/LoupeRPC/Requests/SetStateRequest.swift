import LoupeCore

/// `loupe/setState`: a tool replaces a live root store's state (CONTRACT §16; off unless the
/// program allows control, else `-32004`).
///
/// Params `{store: String, state: JSON}`: the state in its rendered form (as `loupe/state`
/// answers it, or `loupe state --format json` prints it), decoded into the store's `State`,
/// which must be `Decodable`. Redacted paths keep their current values whatever `state` holds
/// there. Result `{seq}`: the seq of the `mark` that names the change (`setState App#1 by
/// NAME`), which every `state.changed` it caused has as its `cause`; `null` when no event was
/// emitted.
public struct SetStateRequest: RequestType, Hashable {
  public static let method = "loupe/setState"

  public var store: String
  public var state: JSON

  public init(store: String, state: JSON) {
    self.store = store
    self.state = state
  }

  public init(params: JSON?) throws(ResponseError) {
    let reader = try ObjectReader(params, context: "\(Self.method) params", allowAbsent: false)
    store = try reader.string("store")
    guard let state = reader.value("state") else { throw reader.fail("state", "is required") }
    self.state = state
  }

  public var params: JSON? { ["store": .string(store), "state": state] }

  public typealias Result = SendRequest.Result

  public static func encodeResult(_ result: Result) -> JSON { SendRequest.encodeResult(result) }
  public static func decodeResult(_ json: JSON) throws(ResponseError) -> Result {
    let reader = try ObjectReader.result(json, of: method)
    return Result(seq: reader.value("seq") == nil ? nil : try reader.int("seq"))
  }
}
