import Foundation
@testable import Loupe
import LoupeCore
import LoupeRPC
import Testing

/// What Neovim's `vim.lsp.rpc` puts on the wire, byte for byte: it encodes a request with
/// `vim.json.encode`, which writes an empty Lua table (`rpc.request('loupe/stores', {})`) as
/// `[]`, and frames it with `Content-Length: N\r\n\r\n` only.
@Suite struct NeovimClientTests {
  /// The inspector's real handler behind a session; returns the answers to `bytes` (frames).
  func answers(to bytes: String) -> [JSON] {
    let hub = EventHub(historyCapacity: 10)
    let bus = EventBus(program: "nvim-test")
    bus.attach(hub)
    let subscription = ClientSubscription(hub: hub, capacity: 10, maxBatch: 10, wake: {})
    let sent = Lock<[JSON]>([])
    let session = ServerSession(
      handler: InspectorClient(bus: bus, hub: hub, queue: subscription),
      send: { body in sent.withLock { $0.append((try? JSONParser.parse(body)) ?? "unparseable") } }, exit: {})
    var decoder = FrameDecoder()
    decoder.append(Array(bytes.utf8)[...])
    while case .frame(let body) = decoder.next() { session.receive(body) }
    return sent.withLock { $0 }
  }

  static func frame(_ body: String) -> String { "Content-Length: \(body.utf8.count)\r\n\r\n\(body)" }

  static let initialize = frame(
    #"{"id":1,"jsonrpc":"2.0","method":"initialize","params":{"clientInfo":{"name":"Neovim","version":"0.10.2"},"processId":4242}}"#)
  static let initialized = frame(#"{"jsonrpc":"2.0","method":"initialized","params":[]}"#)

  @Test func emptyArrayParamsMeanNoParams() {
    let replies = answers(
      to: Self.initialize + Self.initialized
        + Self.frame(#"{"id":2,"jsonrpc":"2.0","method":"loupe/stores","params":[]}"#)
        + Self.frame(#"{"id":3,"jsonrpc":"2.0","method":"loupe/subscribe","params":[]}"#)
        + Self.frame(#"{"id":4,"jsonrpc":"2.0","method":"loupe/unsubscribe","params":[]}"#)
        + Self.frame(#"{"id":5,"jsonrpc":"2.0","method":"shutdown","params":[]}"#))
    #expect(replies.count == 5)
    #expect(replies.dropFirst().map { $0["error"] } == [nil, nil, nil, nil])
    #expect(replies[1]["result"] == ["stores": []])
    #expect(replies[2]["result"] == ["history": 0])
    #expect(replies[3]["result"] == .null)
  }

  @Test func emptyArrayForRequiredParamsSaysWhatIsMissing() {
    let replies = answers(
      to: Self.initialize + Self.frame(#"{"id":2,"jsonrpc":"2.0","method":"loupe/mark","params":[]}"#)
        + Self.frame(#"{"id":3,"jsonrpc":"2.0","method":"loupe/state","params":[]}"#))
    #expect(replies.count == 3)
    #expect(replies[1]["error"] == ["code": -32602, "message": "loupe/mark params are required"])
    #expect(replies[2]["error"] == ["code": -32602, "message": "loupe/state params are required"])
  }

  @Test func positionalParamsAreStillRefused() {
    let replies = answers(
      to: Self.initialize + Self.frame(#"{"id":2,"jsonrpc":"2.0","method":"loupe/stores","params":[1]}"#))
    #expect(replies.last?["error"]?["code"] == -32602)
  }
}
