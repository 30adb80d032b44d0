import Foundation
import LoupeCore
import Testing

@testable import LoupeCLI

/// `loupe_send` and `loupe_set_state` (CONTRACT §16) through the MCP server, on a real
/// `loupe-examples pages` it launches. The scenario plays 100 times slower than usual, so page 4
/// (`PageFeature#4`, id 3) stays unloaded with no timer: only these tests change its state.
@Suite struct MCPControlTests {
  static let slowPages: JSON = ["pages", "--speed", "0.01", "--seconds", "600", "--quiet"]  // closed by the tests
  static let page: JSON = "PageFeature#4"

  func launched(allowingControl: Bool) async throws -> (MCPTestClient, JSON) {
    let client = MCPTestClient()
    _ = await client.initialize()
    var arguments: JSONObject = ["program": .string(try BuiltProducts.executable("loupe-examples")), "args": Self.slowPages]
    if allowingControl { arguments.append("env", ["LOUPE_CONTROL": "1"]) }
    let opened = await client.call("loupe_open", .object(arguments))
    let session = try #require(opened["structuredContent"]?["session"])
    return (client, session)
  }

  /// Page 4's state as the session has seen it, once `accept` holds or after 20 s (a guard for
  /// what the program does concurrently, not a timing assertion).
  func state(_ client: MCPTestClient, _ session: JSON, until accept: (JSON?) -> Bool) async -> JSON? {
    let deadline = ContinuousClock.now + .seconds(20)
    while true {
      let value = await client.call("loupe_state", ["session": session, "store": Self.page])["structuredContent"]?["value"]
      if accept(value) || ContinuousClock.now > deadline { return value }
      try? await Task.sleep(for: .milliseconds(20))
    }
  }

  @Test func aProgramThatAllowsControlTakesTheStateAndTheAction() async throws {
    let (client, session) = try await launched(allowingControl: true)
    // The handshake can finish before the program has made its fourth page.
    #expect(await state(client, session) { $0 != nil } == ["id": 3, "count": 0, "isSelected": false])
    let wanted: JSON = ["id": 3, "count": 77, "isSelected": true]
    let set = await client.call("loupe_set_state", ["session": session, "store": Self.page, "state": wanted])
    let mark = try #require(set["structuredContent"]?["seq"]?.intValue, "\(set.jsonText)")
    #expect(set["isError"] == false)
    #expect(await state(client, session) { $0 == wanted } == wanted)

    let sent = await client.call("loupe_send", ["session": session, "store": Self.page, "action": ["timerTicked": [:]]])
    let seq = try #require(sent["structuredContent"]?["seq"]?.intValue, "\(sent.jsonText)")
    #expect(seq > mark)
    #expect(sent["content"]?.arrayValue?.first?["text"]?.stringValue?.hasPrefix(#"Sent {"timerTicked":{}} to PageFeature#4 as #\#(seq) "#) == true)
    #expect(await state(client, session) { $0?["count"] == 78 } == ["id": 3, "count": 78, "isSelected": true])

    let wrong = await client.text("loupe_set_state", ["session": session, "store": Self.page, "state": ["id": "three"]])
    #expect(wrong.hasPrefix("Error (refused): Cannot decode PageFeature.State"))
    _ = await client.call("loupe_close", ["session": session])
  }

  @Test func aProgramWithoutLOUPE_CONTROLRefuses() async throws {
    let (client, session) = try await launched(allowingControl: false)
    #expect(await state(client, session) { $0 != nil } != nil)
    let refused = await client.call("loupe_send", ["session": session, "store": Self.page, "action": ["timerTicked": [:]]])
    #expect(refused["isError"] == true)
    #expect(
      refused["content"]?.arrayValue?.first?["text"]?.stringValue
        == #"Error (control-not-allowed): Control not allowed: loupe/send acts on the program, which it allows only when started with LOUPE_CONTROL=1 (or Inspector.shared.configuration.allowsControl = true). Close this session and open the program again with "env": {"LOUPE_CONTROL": "1"}."#
    )
    #expect(await state(client, session) { $0 != nil } == ["id": 3, "count": 0, "isSelected": false])
    _ = await client.call("loupe_close", ["session": session])
  }

  @Test func aTraceHasNoProgramToActOn() async {
    let client = MCPTestClient()
    _ = await client.initialize()
    let session = await client.call("loupe_open", ["trace": .string(Fixtures.path("pages.loupe"))])["structuredContent"]?["session"] ?? "s1"
    #expect(
      await client.text("loupe_set_state", ["session": session, "store": "PageFeature#1", "state": [:]])
        == #"Error (not-live): Session s1 is a trace: a recording has no program to set the state of. Open the running program with loupe_open ("program" with "env": {"LOUPE_CONTROL": "1"}, or "socket"/"tcp" of one started with LOUPE_CONTROL=1)."#
    )
  }
}
