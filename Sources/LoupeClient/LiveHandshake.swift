import LoupeCore
import LoupeRPC

/// The live handshake every tool that follows a program starts with: `initialize`, then
/// `initialized`, then `loupe/subscribe` with `history: true` (so nothing from the program's
/// start is missed), bounded in time. The front ends (DAP, MCP) word its failures their way.
extension LoupeClient {
  /// What the program answered.
  public struct Handshake: Sendable {
    public var result: InitializeResult
    /// How many buffered events the program replays before the live ones.
    public var history: Int
  }

  /// Why the handshake did not complete.
  public enum HandshakeFailure: Error, Sendable {
    /// A request failed: `request` is the method that did (`initialize` or `loupe/subscribe`).
    case failed(request: String, error: ClientError)
    /// No answer within the time allowed; the connection has been closed.
    case timedOut
  }

  /// Runs the handshake, subscribing to what `filter` passes; after `timeout` without both
  /// answers, closes the connection (which fails the request still waiting) and reports
  /// ``HandshakeFailure/timedOut``.
  /// With `timeout` `nil` it waits as long as the program takes (`loupe attach`: a program
  /// starts serving when it creates its first store, whenever that is).
  public func handshake(
    clientName: String, clientVersion: String?, filter: EventFilter = .all, timeout: Duration?
  ) async -> Result<Handshake, HandshakeFailure> {
    guard let timeout else { return await requests(clientName: clientName, clientVersion: clientVersion, filter: filter) }
    // Set before the connection is closed for want of time: the request that fails then
    // failed because of it.
    let expired = ExpiredFlag()
    let outcome = await withTaskGroup(of: Result<Handshake, HandshakeFailure>?.self) { group in
      group.addTask {
        await self.requests(clientName: clientName, clientVersion: clientVersion, filter: filter)
      }
      group.addTask {
        do {
          try await Task.sleep(for: timeout)
        } catch {
          return nil
        }
        expired.value.withLock { $0 = true }
        self.close()
        return .failure(.timedOut)
      }
      let first = await group.next()!
      group.cancelAll()
      if first == nil { return await group.next()!! }
      return first!
    }
    if case .failure(.failed) = outcome, expired.value.withLock({ $0 }) { return .failure(.timedOut) }
    return outcome
  }

  /// `initialize` (with `initialized`), then `loupe/subscribe` with history.
  private func requests(clientName: String, clientVersion: String?, filter: EventFilter) async -> Result<Handshake, HandshakeFailure> {
    var request = InitializeRequest.method
    do throws(ClientError) {
      let result = try await initialize(clientName: clientName, clientVersion: clientVersion)
      request = SubscribeRequest.method
      let history = try await subscribe(SubscribeRequest(filter: filter, history: true))
      return .success(Handshake(result: result, history: history))
    } catch {
      return .failure(.failed(request: request, error: error))
    }
  }
}

private final class ExpiredFlag: Sendable {
  let value = Lock(false)
}
