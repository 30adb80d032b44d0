import LoupeCore
import LoupeRPC
/// Why a client call failed.
public enum ClientError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The server answered with an error.
  case response(ResponseError)
  /// The connection ended before the answer came.
  case connectionClosed(Connection.CloseReason)
  /// The server's answer is not what the protocol says.
  case invalidResponse(String)
  /// The program or socket could not be reached.
  case launchFailed(String)

  public var description: String {
    switch self {
    case .response(let error): "Server error: \(error)"
    case .connectionClosed(let reason): "Connection closed (\(reason))"
    case .invalidResponse(let message): "Invalid response: \(message)"
    case .launchFailed(let message): message
    }
  }
}
