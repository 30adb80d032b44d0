import LoupeCore

/// `loupe/mark`: insert a `mark` event into the session (e.g. "tapped Save").
/// Params `{label: String}`; result `{seq}`, the mark event's seq.
public struct MarkRequest: RequestType, Hashable {
  public static let method = "loupe/mark"

  public var label: String
  public init(label: String) { self.label = label }

  public init(params: JSON?) throws(ResponseError) {
    label = try ObjectReader(params, context: "\(Self.method) params", allowAbsent: false).string("label")
  }

  public var params: JSON? { ["label": .string(label)] }

  public struct Result: Sendable, Hashable {
    public var seq: Int
    public init(seq: Int) { self.seq = seq }
  }

  public static func encodeResult(_ result: Result) -> JSON { ["seq": .int(result.seq)] }
  public static func decodeResult(_ json: JSON) throws(ResponseError) -> Result {
    Result(seq: try ObjectReader.result(json, of: method).int("seq"))
  }
}
