import LoupeCore

/// `$/cancelRequest {id}`: the client no longer needs the answer to request `id`. If it has
/// not completed, it is answered at once with `-32800`; otherwise nothing happens.
public struct CancelRequestNotification: NotificationType, Hashable {
  public static let method = "$/cancelRequest"
  public var id: RequestID
  public init(id: RequestID) { self.id = id }

  public init(params: JSON?) throws(ResponseError) {
    let reader = try ObjectReader(params, context: "\(Self.method) params", allowAbsent: false)
    guard let json = reader.value("id"), let id = RequestID(json: json) else {
      throw reader.fail("id", "must be an integer or a string")
    }
    self.id = id
  }

  public var params: JSON? { ["id": id.json] }
}
