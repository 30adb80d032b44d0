import LoupeCore
import LoupeRPC
import Testing

@testable import LoupeCLI

@Suite struct MCPLifecycleTests {
  @Test func initializeNegotiatesTheVersion() async {
    let client = MCPTestClient()
    let answer = await client.initialize("2025-06-18")
    #expect(answer["result"]?["protocolVersion"] == "2025-06-18")
    #expect(answer["result"]?["serverInfo"]?["name"] == "loupe")
    #expect(answer["result"]?["capabilities"] == ["tools": ["listChanged": false]])
    let newer = MCPTestClient()
    #expect(await newer.initialize("2031-01-01")["result"]?["protocolVersion"] == "2025-11-25")
  }

  @Test func requestsBeforeInitializeAreRefusedButPingIsAnswered() async {
    let client = MCPTestClient()
    #expect(await client.request("tools/list")["error"]?["code"] == -32600)
    #expect(await client.request("ping")["result"] == [:])
    #expect(await client.request("initialize", ["capabilities": [:]])["error"]?["code"] == -32602)
    _ = await client.initialize()
    #expect(await client.request("tools/list")["result"]?["tools"]?.arrayValue?.count == 13)
    #expect(await client.request("resources/list")["error"]?["code"] == -32601)
  }

  @Test func modernRequestsCarryTheirVersionAndGetResultType() async {
    let client = MCPTestClient()
    let discover = await client.request("server/discover", ["_meta": envelope("2026-07-28")])
    #expect(discover["result"]?["supportedVersions"]?.arrayValue?.first == "2026-07-28")
    #expect(discover["result"]?["resultType"] == "complete")
    let list = await client.request("tools/list", ["_meta": envelope("2026-07-28")])
    #expect(list["result"]?["resultType"] == "complete")
    #expect(list["result"]?["cacheScope"] == "public")
    let old = await client.request("tools/list", ["_meta": envelope("2027-01-01")])
    #expect(old["error"]?["code"] == -32022)
    #expect(old["error"]?["data"]?["requested"] == "2027-01-01")
    let missing = await client.request("tools/list", ["_meta": [MCPProtocolVersion.versionKey: "2026-07-28"]])
    #expect(missing["error"]?["code"] == -32602)
  }

  @Test func malformedLinesGetParseErrorsAndTheServerGoesOn() async {
    let client = MCPTestClient()
    client.sendLine("{nope")
    #expect(await client.answer(nil)["error"]?["code"] == -32700)
    client.sendLine(#"[{"jsonrpc":"2.0","id":1,"method":"ping"}]"#)
    #expect(await client.answer(nil)["error"]?["message"]?.stringValue?.contains("batches") == true)
    client.server.receiveOversizedLine(length: 20_000_000)
    #expect(await client.answer(nil)["error"]?["code"] == -32700)
    #expect(await client.request("ping")["result"] == [:])
  }

  func envelope(_ version: String) -> JSON {
    var meta = JSONObject()
    meta.append(MCPProtocolVersion.versionKey, .string(version))
    meta.append(MCPProtocolVersion.capabilitiesKey, [:])
    return .object(meta)
  }
}

@Suite struct MCPToolTests {
  let pages = Fixtures.path("pages.loupe")

  func opened() async -> (MCPTestClient, String) {
    let client = MCPTestClient()
    _ = await client.initialize()
    let result = await client.call("loupe_open", ["trace": .string(pages)])
    return (client, result["structuredContent"]?["session"]?.stringValue ?? "?")
  }

  @Test func unknownToolsAndMalformedCallsAreProtocolErrors() async {
    let (client, _) = await opened()
    let unknown = await client.request("tools/call", ["name": "loupe_tail", "arguments": [:]])
    #expect(unknown["error"]?["code"] == -32602)
    #expect(unknown["error"]?["message"]?.stringValue?.hasPrefix("Unknown tool 'loupe_tail'. The tools are: loupe_open") == true)
    #expect(await client.request("tools/call", ["name": "loupe_doctor", "arguments": [1]])["error"]?["code"] == -32602)
  }

  @Test func toolFailuresAreResultsWithIsError() async {
    let (client, session) = await opened()
    let wrong = await client.call("loupe_timeline", ["session": .string(session), "since": -1])
    #expect(wrong["isError"] == true)
    #expect(wrong["structuredContent"] == nil)
    #expect(await client.text("loupe_timeline", ["session": .string(session), "since": -1]) == "Error (invalid-arguments): loupe_timeline: 'since' must be at least 0, not -1.")
    #expect(await client.text("loupe_why", ["session": "s7", "seq": 1]) == "Error (no-such-session): There is no session 's7'. Open sessions: \(session).")
    _ = await client.call("loupe_close", ["session": .string(session)])
    #expect(await client.text("loupe_why", ["session": .string(session), "seq": 1]) == "Error (no-such-session): Session '\(session)' was closed. No session is open: open one with loupe_open.")
  }

  @Test func answersOnTheSeed000Fixture() async {
    let (client, session) = await opened()
    let s = JSON.string(session)
    var transcript = ""
    for (tool, arguments) in [
      ("loupe_timeline", ["session": s, "kinds": ["effect.*"], "limit": 3] as JSON),
      ("loupe_why", ["session": s, "seq": 8]),
      ("loupe_why", ["session": s, "seq": 26]),
      ("loupe_effects", ["session": s, "at": 40]),
      ("loupe_stores", ["session": s, "at": 30]),
      ("loupe_state", ["session": s, "store": "AppFeature#1/pages[id: 1]", "path": "count", "at": 20]),
    ] {
      transcript += "> \(tool) \(arguments.jsonText)\n" + (await client.text(tool, arguments)) + "\n"
    }
    Fixtures.expectGolden(transcript, "mcp.pages.txt")
  }

  @Test func structuredContentMatchesTheText() async {
    let (client, session) = await opened()
    let why = await client.call("loupe_why", ["session": .string(session), "seq": 8])["structuredContent"]
    #expect(why?["event"]?["seq"] == 8)
    #expect(why?["effects"]?.arrayValue?.map { $0["seq"] } == [9, 10, 11, 14, 17, 26])
    #expect(why?["effectCounts"] == ["action.received": 3, "effect.cancelled": 1, "effect.started": 1, "state.changed": 1])
    let timeline = await client.call("loupe_timeline", ["session": .string(session), "limit": 10, "since": 60])["structuredContent"]
    #expect(timeline?["events"]?.arrayValue?.map { $0["seq"] } == [60, 61, 62, 63, 64, 65])
    #expect(timeline?["next"] == .null)
  }
}
