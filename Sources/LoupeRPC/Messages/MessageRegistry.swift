/// Every message of the protocol, in one place (as sourcekit-lsp's registry does).
public enum MessageRegistry {
  /// Requests a client sends to the server.
  public static let requests: [any RequestType.Type] = [
    InitializeRequest.self,
    SubscribeRequest.self,
    UnsubscribeRequest.self,
    StoresRequest.self,
    StateRequest.self,
    MarkRequest.self,
    SendRequest.self,
    SetStateRequest.self,
    ShutdownRequest.self,
  ]

  /// Notifications a client sends to the server.
  public static let clientNotifications: [any NotificationType.Type] = [
    InitializedNotification.self,
    ExitNotification.self,
    CancelRequestNotification.self,
  ]

  /// Notifications the server sends to a client.
  public static let serverNotifications: [any NotificationType.Type] = [
    EventsNotification.self
  ]

  /// The methods a server handles, as `initialize` lists them in `capabilities.methods`.
  public static let serverMethods: [String] =
    requests.map { $0.method } + clientNotifications.map { $0.method }

  /// The request type for `method`, if the protocol has one.
  public static func requestType(for method: String) -> (any RequestType.Type)? {
    requests.first { $0.method == method }
  }
}
