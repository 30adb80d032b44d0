import LoupeCore

/// `initialized`: the client got the `initialize` result. Params `{}`.
public struct InitializedNotification: NotificationType, Hashable {
  public static let method = "initialized"
  public init() {}
  public init(params: JSON?) throws(ResponseError) {}
  public var params: JSON? { .object([:]) }
}
