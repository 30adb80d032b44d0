import LoupeCore
import Testing

@testable import LoupeCLI

/// The pure parts of acting on a program from the editor (CONTRACT §16): what `send …` in the
/// Debug Console means, how a typed value reads, and where a variable is in its root's state.
/// The requests themselves run end to end in Tests/dap/test_dap_control.py.
@Suite struct DAPControlTests {
  @Test func sendNamesAStoreWhenItsFirstWordHasAHash() {
    #expect(ConsoleSend("send timerTicked") == ConsoleSend(store: nil, action: "timerTicked"))
    #expect(ConsoleSend("send PageFeature#1 timerTicked") == ConsoleSend(store: "PageFeature#1", action: "timerTicked"))
    #expect(
      ConsoleSend(#"send   AppFeature#1/pages[id: 2]  {"selected": true}"#)
        == ConsoleSend(store: "AppFeature#1/pages[id: 2]", action: #"{"selected": true}"#))
    #expect(ConsoleSend(##"send {"queryChanged": "#1"}"##) == ConsoleSend(store: nil, action: ##"{"queryChanged": "#1"}"##))
    #expect(ConsoleSend(##"send "tag#2""##) == ConsoleSend(store: nil, action: ##""tag#2""##))
    // A store with no action is the action (the program says it does not decode).
    #expect(ConsoleSend("send PageFeature#1") == ConsoleSend(store: nil, action: "PageFeature#1"))
    // Not a send: a state path, or a member named send.
    #expect(ConsoleSend("send") == nil)
    #expect(ConsoleSend("sender.count") == nil)
    #expect(ConsoleSend("send.count") == nil)
  }

  @Test func aTypedValueIsJSONOrACaseName() throws {
    #expect(try DAPSession.controlValue(" 77 ", what: "value") == 77)
    #expect(try DAPSession.controlValue(#""text""#, what: "value") == "text")
    #expect(try DAPSession.controlValue(#"{"selected": true}"#, what: "action") == ["selected": true])
    #expect(try DAPSession.controlValue("loading", what: "value") == "loading")
    #expect(try DAPSession.controlValue(".loading", what: "value") == "loading")
    #expect(try DAPSession.controlValue("null", what: "value") == .null)
    #expect(throws: DAPError.self) { try DAPSession.controlValue("two words", what: "value") }
    let error = #expect(throws: DAPError.self) { try DAPSession.controlValue("3 apples", what: "value") }
    #expect(
      error?.message
        == #"'3 apples' is not a value: write the value as Loupe shows it, as JSON (3, true, "text", {"selected": true}) or a case name (onAppear)."#)
  }

  @Test func aVariableIsFoundInItsRootsState() throws {
    let page = try DAPSession.inRoot(store: "PageFeature#1", "count")
    #expect(page.root == "PageFeature#1" && page.path == "count")
    let detail = try DAPSession.inRoot(store: "AppFeature#1/pages[id: 2]/detail", "title")
    #expect(detail.root == "AppFeature#1")
    #expect(detail.path == StatePath([.field("pages"), .id(2), .field("detail"), .field("title")]))
    #expect(detail.path.description == "pages[id: 2].detail.title")
    let rows: JSON = [["id": 7, "done": false], ["done": true]]
    #expect(try DAPSession.component(named: "[0]", in: rows) == .id(7))
    #expect(try DAPSession.component(named: "[1]", in: rows) == .index(1))
    #expect(try DAPSession.component(named: "two words", in: ["two words": 1]) == .key("two words"))
    #expect(throws: DAPError.self) { try DAPSession.component(named: "[2]", in: rows) }
    #expect(throws: DAPError.self) { try DAPSession.component(named: "missing", in: ["count": 1]) }
  }
}
