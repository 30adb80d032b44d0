import Testing
@testable import LoupeCore
@testable import LoupeSession

@Suite struct NotificationEventLinesTests {
  func lines(_ body: String) -> [String]? {
    NotificationEventLines.lines(inNotification: Array(body.utf8))?.map { String(decoding: $0, as: UTF8.self) }
  }

  @Test func slicesEachEventExactlyAsItCame() {
    let body = #"{"jsonrpc":"2.0","method":"loupe/events","params":{"events":[{"seq":1,"time":0.5,"kind":"mark","label":"a\"b"}, {"seq":2,"time":1.0,"kind":"x","future":[1,{"y":null}]}]}}"#
    #expect(lines(body) == [#"{"seq":1,"time":0.5,"kind":"mark","label":"a\"b"}"#, #"{"seq":2,"time":1.0,"kind":"x","future":[1,{"y":null}]}"#])
  }

  @Test func membersInAnyOrderAndEmptyBatches() {
    #expect(lines(#"{"params":{"other":1,"events":[{"seq":1}]},"method":"loupe/events","jsonrpc":"2.0"}"#) == [#"{"seq":1}"#])
    #expect(lines(#" {"method":"loupe/events","params":{"events":[]}} "#) == [])
  }

  @Test func anythingElseIsLeftToTheDecoder() {
    #expect(lines(#"{"jsonrpc":"2.0","id":1,"result":{"history":0}}"#) == nil)  // an answer
    #expect(lines(#"{"jsonrpc":"2.0","method":"loupe/other","params":{"events":[{}]}}"#) == nil)
    #expect(lines(#"{"jsonrpc":"2.0","method":"loupe\/events","params":{"events":[{}]}}"#) == nil)  // escaped: decode
    #expect(lines(#"[{"jsonrpc":"2.0","method":"loupe/events","params":{"events":[{}]}}]"#) == nil)  // a batch
    #expect(lines(#"{"jsonrpc":"2.0","method":"loupe/events","params":{"events":{}}}"#) == nil)
    #expect(lines(#"{"jsonrpc":"2.0","method":"loupe/events"}"#) == nil)
    #expect(lines("{\"method\":\"loupe/events\",\"params\":{\"events\":[{\n\"seq\":1}]}}") == nil)  // spans lines
  }

  @Test func invalidJSONIsRejected() {
    #expect(lines(#"{"method":"loupe/events","params":{"events":[{"seq":1,}]}}"#) == nil)
    #expect(lines(#"{"method":"loupe/events","params":{"events":[{"seq":1}]}} x"#) == nil)
    #expect(lines(#"{"method":"loupe/events","params":{"events":[{"seq":1}]}"#) == nil)
    #expect(lines(#"{"method":"loupe/events","params":{"events":["\u12"]}}"#) == nil)
  }
}

@Suite struct NotificationEventBatchTests {
  func make(_ body: String) -> NotificationEventLines.Batch? {
    NotificationEventLines.batch(inNotification: Array(body.utf8))
  }

  @Test func theEventsAsLinesInOneBuffer() throws {
    let body = #"{"jsonrpc":"2.0","method":"loupe/events","params":{"events":[{"seq":1,"kind":"mark"} , {"seq":2,"x":[1]}]}}"#
    let batch = try #require(make(body))
    #expect(String(decoding: batch.text, as: UTF8.self) == "{\"seq\":1,\"kind\":\"mark\"}\n{\"seq\":2,\"x\":[1]}\n")
    #expect(batch.count == 2)
    #expect(String(decoding: batch.text[batch.first], as: UTF8.self) == #"{"seq":1,"kind":"mark"}"#)
    #expect(batch.lines.map { String(decoding: $0, as: UTF8.self) } == [#"{"seq":1,"kind":"mark"}"#, #"{"seq":2,"x":[1]}"#])
  }

  @Test func emptyAndRefusedBatches() throws {
    let empty = try #require(make(#"{"method":"loupe/events","params":{"events":[]}}"#))
    #expect(empty.count == 0)
    #expect(empty.text.isEmpty)
    #expect(empty.lines.isEmpty)
    // A line break anywhere among the events (even between two of them): decode instead.
    #expect(make("{\"method\":\"loupe/events\",\"params\":{\"events\":[{\"seq\":1},\r\n{\"seq\":2}]}}") == nil)
    #expect(make("{\"method\":\"loupe/events\",\"params\":{\"events\":[{\"seq\":1,\r\"b\":2}]}}") == nil)
    #expect(make("{\"method\":\"loupe/events\",\n\"params\":{\"events\":[{\"seq\":1}]}}")?.count == 1)  // outside the events: fine
    #expect(make(#"{"method":"loupe/events","params":{"events":[{"seq":1,"a":"\u00"}]}}"#) == nil)
  }
}
