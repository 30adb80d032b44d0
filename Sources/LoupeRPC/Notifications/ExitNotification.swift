import LoupeCore

/// `exit`: close this connection. The program keeps running (unlike an LSP server, the
/// program is not the server's to end).
public struct ExitNotification: NotificationType, Hashable {
  public static let method = "exit"
  public init() {}
  public init(params: JSON?) throws(ResponseError) {}
  public var params: JSON? { nil }
}
