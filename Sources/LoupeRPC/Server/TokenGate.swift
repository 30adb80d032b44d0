import LoupeCore

/// The door of a TCP client (CONTRACT §14): its first message must be `initialize` with
/// `params.token` equal to the program's token. Anything else — another method, a
/// notification, a batch, bad JSON, a missing or wrong token — is answered with `-32003`
/// (``ResponseError/Code/unauthorized``) and the connection is closed; nothing before it
/// reaches the server session. The token is compared in constant time (for the expected
/// token's length) and removed from the `initialize` params before the session sees them, so
/// it never reaches events, traces or logs.
///
/// Wrong tokens cost the program nothing but the answer: no delay, no lock-out (a client that
/// guesses is refused as fast as a client that knows is admitted; guessing a 128-bit random
/// token is hopeless, and a slowed program would be a denial of service of its own).
package final class TokenGate: Sendable {
  private let token: [UInt8]
  /// 0 waiting for `initialize`, 1 admitted, 2 refused.
  private let state = AtomicInt(0)

  package init(token: String) {
    self.token = Array(token.utf8)
  }

  package enum Decision: Equatable {
    /// Pass this body (the first one without its token) to the session.
    case pass([UInt8])
    /// Send this frame body, then close the connection.
    case refuse([UInt8])
    /// Drop it: the connection was refused and is closing.
    case drop
  }

  /// Decides about each frame body, in order (the connection's reader calls it).
  package func check(_ body: [UInt8]) -> Decision {
    switch state.load(ordering: .acquiring) {
    case 1: return .pass(body)
    case 2: return .drop
    default: break
    }
    var id: RequestID?
    if case .single(.message(.request(let requestID, let method, let params))) = IncomingBody.decode(body) {
      id = requestID
      if method == "initialize", case .object(var object)? = params, case .string(let given)? = object["token"],
        Self.equalInConstantTime(token, Array(given.utf8))
      {
        object["token"] = nil
        state.store(1, ordering: .releasing)
        return .pass(Message.request(id: requestID, method: method, params: .object(object)).body)
      }
    }
    state.store(2, ordering: .releasing)
    return .refuse(Message.failure(id: id, .unauthorized).body)
  }

  /// Whether `given` equals `expected`, in a time that depends only on `expected`'s length.
  package static func equalInConstantTime(_ expected: [UInt8], _ given: [UInt8]) -> Bool {
    var difference = UInt8(expected.count == given.count ? 0 : 1)
    for index in expected.indices {
      let other = index < given.count ? given[index] : ~expected[index]
      difference |= expected[index] ^ other
    }
    return difference == 0
  }

  /// A random token: 32 hexadecimal digits (128 bits from the system's generator).
  package static func randomToken() -> String {
    var generator = SystemRandomNumberGenerator()
    return (0..<2).map { _ in
      let word = generator.next() as UInt64
      let hex = String(word, radix: 16)
      return String(repeating: "0", count: 16 - hex.count) + hex
    }.joined()
  }
}
