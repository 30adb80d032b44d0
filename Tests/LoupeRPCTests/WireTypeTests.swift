import LoupeCore
import Testing
@testable import LoupeRPC

/// Every request, result and notification with its exact JSON, both ways.
@Suite struct WireTypeTests {
  func roundTrip<R: RequestType & Equatable>(_ request: R, params: String?, sourceLocation: SourceLocation = #_sourceLocation) throws {
    #expect(request.params?.jsonText == params, sourceLocation: sourceLocation)
    let decoded = try R(params: params.map { try JSONParser.parse($0) })
    #expect(decoded == request, sourceLocation: sourceLocation)
  }

  func roundTripResult<R: RequestType>(_ type: R.Type, _ result: R.Result, json: String, sourceLocation: SourceLocation = #_sourceLocation)
    throws where R.Result: Equatable
  {
    #expect(R.encodeResult(result).jsonText == json, sourceLocation: sourceLocation)
    #expect(try R.decodeResult(JSONParser.parse(json)) == result, sourceLocation: sourceLocation)
  }

  @Test func initialize() throws {
    try roundTrip(
      InitializeRequest(clientInfo: .init(name: "nvim", version: "0.10")),
      params: #"{"clientInfo":{"name":"nvim","version":"0.10"},"protocolVersion":"1"}"#)
    try roundTrip(InitializeRequest(clientInfo: nil, protocolVersion: nil), params: "{}")
    try roundTripResult(
      InitializeRequest.self,
      InitializeResult(
        serverInfo: .init(name: "loupe", version: "0.1.0"), process: .init(pid: 42, name: "App"),
        capabilities: .init(eventKinds: ["mark"], methods: ["initialize"])),
      json:
        #"{"protocolVersion":"1","serverInfo":{"name":"loupe","version":"0.1.0"},"process":{"pid":42,"name":"App"},"capabilities":{"eventKinds":["mark"],"methods":["initialize"]}}"#
    )
  }

  @Test func subscribe() throws {
    try roundTrip(SubscribeRequest(), params: "{}")
    try roundTrip(
      SubscribeRequest(filter: EventFilter(kinds: [Glob("state.*")], stores: [Glob("App#1/*")]), history: true),
      params: #"{"filter":{"kinds":["state.*"],"stores":["App#1/*"]},"history":true}"#)
    try roundTripResult(SubscribeRequest.self, .init(history: 12), json: #"{"history":12}"#)
    #expect(throws: ResponseError.invalidParams("loupe/subscribe params: filter.kinds must be an array of strings")) {
      try SubscribeRequest(params: ["filter": ["kinds": "mark"]])
    }
    #expect(throws: ResponseError.invalidParams("loupe/subscribe params: 'history' must be a boolean, not string")) {
      try SubscribeRequest(params: ["history": "yes"])
    }
  }

  @Test func simpleRequests() throws {
    try roundTrip(UnsubscribeRequest(), params: "{}")
    try roundTrip(StoresRequest(), params: "{}")
    try roundTrip(ShutdownRequest(), params: nil)
    try roundTrip(MarkRequest(label: "tap ✓"), params: #"{"label":"tap ✓"}"#)
    try roundTripResult(MarkRequest.self, .init(seq: 7), json: #"{"seq":7}"#)
    #expect(UnsubscribeRequest.encodeResult(NullResult()) == .null)
    #expect(ShutdownRequest.encodeResult(NullResult()) == .null)
    try roundTripResult(
      StoresRequest.self,
      [
        StoreInfo(id: "App#1", type: "App", parent: nil, identity: "App#1@1"),
        StoreInfo(id: "App#1/pages[id: 2]", type: "Page", parent: "App#1", identity: "2"),
      ],
      json:
        #"{"stores":[{"id":"App#1","type":"App","parent":null,"identity":"App#1@1"},{"id":"App#1/pages[id: 2]","type":"Page","parent":"App#1","identity":"2"}]}"#
    )
  }

  @Test func state() throws {
    try roundTrip(StateRequest(store: "App#1"), params: #"{"store":"App#1"}"#)
    try roundTrip(StateRequest(store: "App#1", path: "pages[id: 2].count"), params: #"{"store":"App#1","path":"pages[id: 2].count"}"#)
    try roundTripResult(
      StateRequest.self, .init(store: "App#1", seq: 9, state: ["count": 2]), json: #"{"store":"App#1","seq":9,"state":{"count":2}}"#)
    #expect(try StateRequest(store: "a", path: "pages[id: 2].count").statePath() == StatePath([.field("pages"), .id(2), .field("count")]))
    #expect(try StateRequest(store: "a", path: "").statePath() == nil)
    #expect(throws: ResponseError.invalidParams("loupe/state params are required")) { try StateRequest(params: nil) }
    #expect(throws: ResponseError.invalidParams("loupe/state params: 'store' is required")) { try StateRequest(params: [:]) }
    // `at` (CONTRACT §10) and `approximate`.
    try roundTrip(StateRequest(store: "App#1", path: "count", at: 42), params: #"{"store":"App#1","path":"count","at":42}"#)
    try roundTripResult(
      StateRequest.self, .init(store: "App#1", seq: 42, state: 3, approximate: true), json: #"{"store":"App#1","seq":42,"state":3,"approximate":true}"#)
    #expect(try StateRequest(params: ["store": "a", "at": .null]).at == nil)
    #expect(throws: ResponseError.invalidParams("loupe/state params: 'at' must be an integer, not string")) {
      try StateRequest(params: ["store": "a", "at": "end"])
    }
    #expect(throws: ResponseError.invalidParams("loupe/state params: 'at' must be a seq (an integer from 0), not -1")) {
      try StateRequest(params: ["store": "a", "at": -1])
    }
  }

  @Test func notifications() throws {
    #expect(InitializedNotification().message.jsonText == #"{"jsonrpc":"2.0","method":"initialized","params":{}}"#)
    #expect(ExitNotification().message.jsonText == #"{"jsonrpc":"2.0","method":"exit"}"#)
    #expect(CancelRequestNotification(id: "a").message.jsonText == #"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":"a"}}"#)
    #expect(try CancelRequestNotification(params: ["id": 3]).id == 3)
    let events = [Event(seq: 3, time: 1.5, payload: .mark(Mark(label: "x")))]
    var writer = JSONWriter()
    EventsNotification.encode(events, into: &writer)
    let text = #"{"jsonrpc":"2.0","method":"loupe/events","params":{"events":[{"seq":3,"time":1.5,"kind":"mark","label":"x"}]}}"#
    #expect(writer.string == text)
    #expect(EventsNotification(events: events).message.jsonText == text)
    #expect(try EventsNotification(params: JSONParser.parse(text)["params"]).events == events)
  }

  @Test func messages() {
    #expect(Message.request(id: 1, method: "shutdown", params: nil).jsonText == #"{"jsonrpc":"2.0","id":1,"method":"shutdown"}"#)
    #expect(Message.success(id: "x", .null).jsonText == #"{"jsonrpc":"2.0","id":"x","result":null}"#)
    #expect(
      Message.failure(id: nil, ResponseError(code: .parseError, message: "bad", data: ["at": 3])).jsonText
        == #"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"bad","data":{"at":3}}}"#)
    for message in [
      Message.request(id: "r", method: "m", params: ["a": [1, 2]]),
      .notification(method: "n", params: [1]),
      .success(id: 4, ["ok": true]),
      .failure(id: 5, .requestCancelled),
      .failure(id: nil, .invalidRequest("x")),
    ] {
      #expect(IncomingItem(json: try! JSONParser.parse(message.body)) == .message(message))
    }
    #expect(Message.batchBody([.success(id: 1, .null), .success(id: 2, 3)]) == Array(#"[{"jsonrpc":"2.0","id":1,"result":null},{"jsonrpc":"2.0","id":2,"result":3}]"#.utf8))
  }

  @Test func registryListsEveryMethodOnce() {
    let methods = MessageRegistry.serverMethods
    #expect(Set(methods).count == methods.count)
    #expect(
      Set(methods) == [
        "initialize", "initialized", "loupe/subscribe", "loupe/unsubscribe", "loupe/stores", "loupe/state", "loupe/mark",
        "loupe/send", "loupe/setState", "shutdown", "exit", "$/cancelRequest",
      ])
    #expect(MessageRegistry.requestType(for: "loupe/mark") == MarkRequest.self)
  }
}
