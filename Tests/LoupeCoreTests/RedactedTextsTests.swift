import LoupeCore
import Testing

/// ``RedactedTexts``: what a rendering notes when it redacts, and how derived texts are
/// scrubbed of it.
@Suite struct RedactedTextsTests {
  struct Token: LoupeRedacted { var value: String }
  struct Account {
    var name: String
    var pin: Int
    var token: Token
    var backup: [String]
  }

  @Test func aRenderingNotesWhatItRedacts() {
    let ledger = RedactedTexts()
    let options = RenderOptions(redactedPaths: [Glob("*backup*")], redactedTexts: ledger)
    let account = Account(name: "Ada", pin: 73_914, token: Token(value: "tok-A1B2"), backup: ["alpha-code", "beta-code"])
    #expect(ValueRenderer.render(account, options: options).jsonText
      == #"{"name":"Ada","pin":73914,"token":"<redacted>","backup":"<redacted>"}"#)
    #expect(ledger.scrub("Ada signed in with tok-A1B2, backup alpha-code or beta-code; pin 73914")
      == "Ada signed in with <redacted>, backup <redacted> or <redacted>; pin 73914")
  }

  @Test func aRenderingWithoutALedgerNotesNothing() {
    let ledger = RedactedTexts()
    _ = ValueRenderer.render(Account(name: "Ada", pin: 1, token: Token(value: "tok-A1B2"), backup: []), options: RenderOptions())
    #expect(ledger.isEmpty)
    #expect(ledger.scrub("tok-A1B2") == "tok-A1B2")
  }

  @Test func aDiffNotesBothSidesOfAHiddenChange() {
    let ledger = RedactedTexts()
    let options = RenderOptions(redactedPaths: [Glob("pin")], redactedTexts: ledger)
    var old = Account(name: "Ada", pin: 111_111, token: Token(value: "tok-old"), backup: [])
    var new = old
    new.pin = 222_222
    new.token = Token(value: "tok-new")
    let changes = StateDiff.diff(old, new, options: options)
    #expect(changes.map { "\($0.path): \($0.old?.jsonText ?? "") → \($0.new?.jsonText ?? "")" } == [
      #"pin: "<redacted>" → "<redacted>""#, #"token: "<redacted>" → "<redacted>""#,
    ])
    #expect(ledger.scrub("111111 222222 tok-old tok-new") == "<redacted> <redacted> <redacted> <redacted>")
    old = new
    #expect(StateDiff.diff(old, new, options: options).isEmpty)
  }

  @Test func overlappingAndAdjacentMatchesBecomeOneMarker() {
    let ledger = RedactedTexts()
    ledger.remember(["abcdef", "defghi", "xyz"])
    #expect(ledger.scrub("[abcdefghi] [xyzxyz] [abc]") == "[<redacted>] [<redacted>] [abc]")
    #expect(ledger.scrub("") == "")
    #expect(ledger.scrub("nothing here") == "nothing here")
  }

  @Test func theMarkerItselfIsNeverRescrubbed() {
    let ledger = RedactedTexts()
    ledger.remember(["red", "act"])
    #expect(ledger.scrub("red act") == "<redacted> <redacted>")
  }

  @Test func shortTextsAreNotKept() {
    let ledger = RedactedTexts()
    ledger.remember(["ok", "7", "", "yes"])
    #expect(ledger.scrub("ok 7 yes") == "ok 7 <redacted>")
  }

  @Test func theOldestTextsAreForgottenPastTheCap() {
    let ledger = RedactedTexts()
    ledger.remember((0..<RedactedTexts.maxCount + 10).map { "secret-\($0)-end" })
    #expect(ledger.scrub("secret-0-end secret-9-end secret-10-end") == "secret-0-end secret-9-end <redacted>")
    #expect(ledger.scrub("secret-\(RedactedTexts.maxCount + 9)-end") == "<redacted>")
  }

  @Test func derivedTextsOfEventsAreScrubbedAndOthersLeftAlone() {
    let ledger = RedactedTexts()
    ledger.remember(["hunter2!"])
    let finished = Event.Payload.effectFinished(EffectFinished(store: "S#1", effect: 1, outcome: .failed, error: "bad hunter2!"))
    #expect(finished.scrubbed(of: ledger) == .effectFinished(EffectFinished(store: "S#1", effect: 1, outcome: .failed, error: "bad <redacted>")))
    #expect(Event.Payload.warning(Warning(code: "c", message: "hunter2! twice")).scrubbed(of: ledger)
      == .warning(Warning(code: "c", message: "<redacted> twice")))
    #expect(Event.Payload.mark(Mark(label: "at hunter2!")).scrubbed(of: ledger) == .mark(Mark(label: "at <redacted>")))
    // Ids and names are not scrubbed (protocol/values.md says so).
    let created = Event.Payload.storeCreated(StoreCreated(store: "hunter2!", type: "T", parent: nil, identity: "i1"))
    #expect(created.scrubbed(of: ledger) == created)
  }
}
