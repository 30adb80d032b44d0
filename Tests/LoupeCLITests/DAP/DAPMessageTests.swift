@testable import LoupeCLI
import LoupeCore
import Synchronization
import Testing

/// `loupe dap`'s wire: requests decoded with clear errors, answers and events in exact JSON,
/// and the pure parts of breakpoint matching.
@Suite struct DAPMessageTests {
  func decode(_ text: String) -> Result<DAPRequest, DAPError> { DAPRequest.decode(Array(text.utf8)) }

  @Test func decodesRequestsAndTreatsNullArgumentsAsAbsent() throws {
    let request = try decode(#"{"seq":3,"type":"request","command":"next","arguments":{"threadId":2,"granularity":null}}"#).get()
    #expect(request.seq == 3)
    #expect(request.command == "next")
    #expect(try request.arguments.int("threadId") == 2)
    #expect(try request.arguments.string("granularity") == nil)
    #expect(try decode(#"{"seq":1,"type":"request","command":"threads","arguments":null}"#).get().arguments.object.isEmpty)
  }

  @Test func explainsWhatIsNotARequest() {
    #expect(decode("nope").failureMessage?.hasPrefix("The message is not JSON") == true)
    #expect(decode("[1]").failureMessage == "A DAP message is a JSON object, not array.")
    #expect(decode(#"{"type":"request","command":"x"}"#).failureMessage == "The message has no integer 'seq'.")
    let event = decode(#"{"seq":4,"type":"event","event":"x"}"#)
    #expect(event.failureMessage == "Only requests are expected from the client (type 'event').")
    #expect(event.failure?.requestSeq == 4)
    #expect(decode(#"{"seq":5,"type":"request","command":"launch","arguments":[1]}"#).failureMessage == "'launch': 'arguments' must be an object, not array.")
  }

  @Test func argumentErrorsNameTheFieldAndTheType() throws {
    let request = try decode(#"{"seq":1,"type":"request","command":"launch","arguments":{"args":"--x","stopOnEntry":1}}"#).get()
    #expect(throws: DAPError(.invalidArguments, "'launch': 'args' must be an array of strings, not string.")) { try request.arguments.strings("args") }
    #expect(throws: DAPError(.invalidArguments, "'launch': 'stopOnEntry' must be true or false, not number.")) { try request.arguments.bool("stopOnEntry") }
    #expect(throws: DAPError(.invalidArguments, "'launch' needs 'trace'.")) { try request.arguments.requiredString("trace") }
  }

  @Test func writesNumberedResponsesAndEventsInExactJSON() throws {
    let written = Lock<[String]>([])
    let channel = DAPChannel { body in written.withLock { $0.append(String(decoding: body, as: UTF8.self)) } }
    let request = try decode(#"{"seq":7,"type":"request","command":"threads"}"#).get()
    channel.respond(to: request, body: ["threads": []])
    channel.event("initialized")
    channel.fail(DAPError(.unknownCommand, "loupe dap does not support 'x'."), requestSeq: 8, command: "x")
    channel.fail(DAPError(.wrongState, "Not stopped: 'next' needs the view stopped at an event."), requestSeq: 9, command: "next")
    #expect(written.withLock { $0 } == [
      #"{"seq":1,"type":"response","request_seq":7,"success":true,"command":"threads","body":{"threads":[]}}"#,
      #"{"seq":2,"type":"event","event":"initialized","body":{}}"#,
      #"{"seq":3,"type":"response","request_seq":8,"success":false,"command":"x","message":"loupe dap does not support 'x'.","body":{"error":{"id":3,"format":"loupe dap does not support 'x'.","showUser":true}}}"#,
      #"{"seq":4,"type":"response","request_seq":9,"success":false,"command":"next","message":"notStopped","body":{"error":{"id":5,"format":"Not stopped: 'next' needs the view stopped at an event.","showUser":true}}}"#,
    ])
  }

  @Test func functionBreakpointsAreActionLabelGlobs() {
    #expect(DAPBreakpoints.functionMatches(Glob("*.onAppear"), "PageFeature.Action.onAppear"))
    #expect(DAPBreakpoints.functionMatches(Glob("onAppear"), "PageFeature.Action.onAppear"))
    #expect(DAPBreakpoints.functionMatches(Glob("timer*"), "PageFeature.Action.timerTicked"))
    #expect(!DAPBreakpoints.functionMatches(Glob("Page.onAppear"), "PageFeature.Action.onAppear"))
    #expect(!DAPBreakpoints.functionMatches(Glob("onDisappear"), "PageFeature.Action.onAppear"))
  }

  @Test func dataBreakpointsTouchThePathItsInsideOrAroundIt() throws {
    let watched = try StatePath(parsing: "pages[id: 2]")
    #expect(DAPBreakpoints.touches(try StatePath(parsing: "pages[id: 2].count"), watched))
    #expect(DAPBreakpoints.touches(try StatePath(parsing: "pages"), watched))
    #expect(DAPBreakpoints.touches(StatePath(), watched))
    #expect(!DAPBreakpoints.touches(try StatePath(parsing: "pages[id: 3].count"), watched))
    #expect(DAPSession.parseDataID(DAPSession.dataID(store: "App#1/pages[id: 2]", path: watched))?.1 == watched)
  }

  @Test func sourcesMatchByPathOrByFileName() {
    let withPath = CodeLocation(file: "App/Pager.swift", line: 63, path: "/src/App/Pager.swift")
    let withoutPath = CodeLocation(file: "App/Pager.swift", line: 63)
    #expect(DAPSourceMatch(path: "/src/./App/../App/Pager.swift").matches(withPath))
    #expect(!DAPSourceMatch(path: "/elsewhere/Pager.swift").matches(withPath))
    #expect(DAPSourceMatch(path: "/elsewhere/Pager.swift").matches(withoutPath))
    #expect(DAPSourceMatch(name: "Pager.swift").matches(withoutPath))
    #expect(!DAPSourceMatch(name: "PageFeature.swift").matches(withoutPath))
  }
}

extension Result where Failure == DAPError {
  var failure: DAPError? { if case .failure(let error) = self { error } else { nil } }
  var failureMessage: String? { failure?.message }
}
