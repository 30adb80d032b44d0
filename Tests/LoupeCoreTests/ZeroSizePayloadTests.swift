import Foundation
import Testing
@testable import LoupeCore

// Payloads that take no bytes. The compiler lays out a case whose payload is known to be
// empty as a case without one, so the enum's descriptor counts no payload cases for it —
// but the payload is there, and the rendering must show it.

private enum PlayButton { case tapped }
private enum Stepper { case incremented }
private struct Empty {}
private enum Leaf { case c }
private enum Middle { case b(Leaf) }
private enum Outer { case a(Middle) }
/// Every payload is empty: laid out as a plain one-byte enum.
private enum Action {
  case playButton(PlayButton)
  case stepper(Stepper)
  case empty(Empty)
  case void(Void)
  case nested(Outer)
  case refresh
}
/// One case with an empty payload beside real payloads.
private enum Mixed {
  case count(Int)
  case button(PlayButton)
  case empty(Empty)
  case idle
}
private enum Generic<Payload> {
  case value(Payload)
  case none
}
private indirect enum Tree {
  case leaf(PlayButton)
  case node(Tree)
  case empty
}
/// A single case with an empty payload: the enum itself takes no bytes.
private enum Only { case only(PlayButton) }
private enum Feature {
  case child(Action)
  case button(PlayButton)
}

private func text(_ value: Any) -> String { ValueRenderer.render(value).jsonText }

private func diff<T>(_ old: T, _ new: T, sourceLocation: SourceLocation = #_sourceLocation) -> [String] {
  let changes = StateDiff.diff(old, new)
  let replayed = try? changes.apply(to: ValueRenderer.render(old))
  #expect(replayed == ValueRenderer.render(new), "replay", sourceLocation: sourceLocation)
  return changes.map(describe)
}

@Suite struct ZeroSizePayloadTests {
  @Test func emptyPayloadsRenderUnderTheirCaseName() {
    #expect(text(Action.playButton(.tapped)) == #"{"playButton":"tapped"}"#)
    #expect(text(Action.stepper(.incremented)) == #"{"stepper":"incremented"}"#)
    #expect(text(Action.empty(Empty())) == #"{"empty":{}}"#)
    #expect(text(Action.void(())) == #"{"void":[]}"#)
    #expect(text(Action.nested(.a(.b(.c)))) == #"{"nested":{"a":{"b":"c"}}}"#)
    #expect(text(Action.refresh) == #""refresh""#)
  }

  @Test func emptyPayloadsBesideRealOnes() {
    #expect(text(Mixed.count(2)) == #"{"count":2}"#)
    #expect(text(Mixed.button(.tapped)) == #"{"button":"tapped"}"#)
    #expect(text(Mixed.empty(Empty())) == #"{"empty":{}}"#)
    #expect(text(Mixed.idle) == #""idle""#)
  }

  @Test func genericIndirectAndSingleCaseEnums() {
    #expect(text(Generic<PlayButton>.value(.tapped)) == #"{"value":"tapped"}"#)
    #expect(text(Generic<Void>.value(())) == #"{"value":[]}"#)
    #expect(text(Generic<Empty>.none) == #""none""#)
    #expect(text(Result<Void, CancellationError>.success(())) == #"{"success":[]}"#)
    #expect(text(Tree.node(.leaf(.tapped))) == #"{"node":{"leaf":"tapped"}}"#)
    #expect(text(Tree.empty) == #""empty""#)
    #expect(text(Only.only(.tapped)) == #"{"only":"tapped"}"#)
    #expect(text(Feature.child(.playButton(.tapped))) == #"{"child":{"playButton":"tapped"}}"#)
    #expect(text([Action.refresh, .playButton(.tapped)]) == #"["refresh",{"playButton":"tapped"}]"#)
    #expect(text(Action?.some(.stepper(.incremented)) as Any) == #"{"stepper":"incremented"}"#)
  }

  @Test func emptyPayloadsCanBeRedactedByPath() {
    let options = RenderOptions(redactedPaths: [Glob("child.playButton")])
    #expect(ValueRenderer.render(Feature.child(.playButton(.tapped)), options: options).jsonText == #"{"child":{"playButton":"<redacted>"}}"#)
  }

  @Test func actionLabelsNameTheOutermostCase() {
    #expect(ValueRenderer.actionLabel(Action.playButton(.tapped)).hasSuffix("Action.playButton"))
    #expect(ValueRenderer.actionLabel(Action.void(())).hasSuffix("Action.void"))
    #expect(ValueRenderer.actionLabel(Mixed.button(.tapped)).hasSuffix("Mixed.button"))
    #expect(ValueRenderer.actionLabel(Only.only(.tapped)).hasSuffix("Only.only"))
    #expect(ValueRenderer.actionLabel(Feature.child(.nested(.a(.b(.c))))).hasSuffix("Feature.child"))
    #expect(ValueRenderer.actionLabel(Generic<Void>.value(())).hasSuffix("Generic<()>.value"))
  }

  @Test func switchingBetweenCasesWithEmptyPayloadsIsOneReplace() {
    #expect(diff(Action.playButton(.tapped), .stepper(.incremented)) == [#"replace : {"playButton":"tapped"} → {"stepper":"incremented"}"#])
    #expect(diff(Action.playButton(.tapped), .refresh) == [#"replace : {"playButton":"tapped"} → "refresh""#])
    #expect(diff(Action.empty(Empty()), .void(())) == [#"replace : {"empty":{}} → {"void":[]}"#])
    #expect(diff(Mixed.count(1), .button(.tapped)) == [#"replace : {"count":1} → {"button":"tapped"}"#])
    #expect(diff(Mixed.button(.tapped), .empty(Empty())) == [#"replace : {"button":"tapped"} → {"empty":{}}"#])
    #expect(diff(Tree.node(.leaf(.tapped)), .node(.empty)) == [#"replace node: {"leaf":"tapped"} → "empty""#])
    #expect(diff(Feature.child(.playButton(.tapped)), .child(.nested(.a(.b(.c))))) == [#"replace child: {"playButton":"tapped"} → {"nested":{"a":{"b":"c"}}}"#])
    #expect(diff(Generic<PlayButton>.value(.tapped), .none) == [#"replace : {"value":"tapped"} → "none""#])
  }

  @Test func theSameCaseWithAnEmptyPayloadHasNothingToChange() {
    #expect(diff(Action.playButton(.tapped), .playButton(.tapped)) == [])
    #expect(diff(Action.void(()), .void(())) == [])
    #expect(diff(Only.only(.tapped), .only(.tapped)) == [])
    #expect(diff(Tree.node(.leaf(.tapped)), .node(.leaf(.tapped))) == [])
  }

  @Test func enumsWithEmptyPayloadsInsideAState() {
    struct State { var last: Action?; var history: [Mixed] }
    let old = State(last: nil, history: [.idle])
    let new = State(last: .playButton(.tapped), history: [.idle, .button(.tapped)])
    #expect(diff(old, new) == [#"insert last: ∅ → {"playButton":"tapped"}"#, #"insert history[1]: ∅ → {"button":"tapped"}"#])
    #expect(ChangeText.text(StateDiff.diff(old, new)) == """
        + last: {playButton: "tapped"}
        + history[1]: {button: "tapped"}
      """)
  }
}
