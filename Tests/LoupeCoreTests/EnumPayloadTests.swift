import Foundation
import Testing
@testable import LoupeCore

private final class Ref: CustomStringConvertible {
  let id: Int
  init(_ id: Int) { self.id = id }
  var description: String { "Ref(\(id))" }
}
private protocol Shape {}
private struct Square: Shape, Equatable { var side = 2 }
private indirect enum Tree { case leaf(Int), node(Tree, Tree), empty }
private enum Mode<T> {
  case idle
  case loading(progress: Double)
  case loaded(T, note: String)
  case failed(any Error)
  case shape(any Shape)
  case object(Ref)
  case nothing(())
  case pair(Int, Int?)
}
private enum Held { case leaf(Any), pair(Any, label: Any), empty }
private struct Point { var x = 1 }
private enum Empty { case only }
/// Cases laid out three ways: payloads in spare bits (a class, a string), a case whose payload
/// takes no bytes declared between empty cases, a small payload after them.
private enum Packed { case none, object(Ref), text(String), tapped(Empty), later, small(Int8), unit(Void), pair(Ref, Ref) }
private enum Single { case value(Ref), absent, gone }
private enum Custom: CustomReflectable {
  case secret(String)
  var customMirror: Mirror { Mirror(self, children: ["shown": "no"], displayStyle: .struct) }
}
private struct Failure: Error {}

/// `Reflection.caseAndPayload` (the runtime's reflection calls, no `Mirror`) against the `Mirror`
/// it stands in for: the same case name and a payload that renders the same, for every kind
/// of payload; and enums with a custom mirror still rendered through it.
@Suite struct EnumPayloadTests {
  nonisolated(unsafe) static let values: [Any] = [
    Mode<Int>.idle, Mode<Int>.loading(progress: 0.5), Mode<[String]>.loaded(["a"], note: "n"), Mode<Int>.failed(Failure()),
    Mode<Int>.shape(Square()), Mode<Int>.object(Ref(3)), Mode<Int>.nothing(()), Mode<Int>.pair(1, nil), Mode<Int>.pair(1, 2),
    Tree.leaf(1), Tree.node(.leaf(1), .node(.empty, .leaf(2))), Tree.empty, Optional(Mode<Int>.loading(progress: 1)) as Any,
    Held.leaf(1), Held.leaf(Point()), Held.leaf(\Point.x), Held.pair("a", label: [1]), Held.empty, Held.leaf(Held.empty),
    Packed.none, Packed.object(Ref(4)), Packed.text("long enough to be on the heap, not inline"), Packed.tapped(.only),
    Packed.later, Packed.small(-3), Packed.unit(()), Packed.pair(Ref(5), Ref(6)), Single.value(Ref(7)), Single.absent,
    Single.gone, Result<Int, Failure>.success(8), Result<Int, Failure>.failure(Failure()), Mode<Packed>.loaded(.small(1), note: ""),
  ]

  /// The enums whose cases are read from their metadata (``EnumCases``) and those left to the
  /// runtime's reflection: an `indirect` case, a custom mirror.
  @Test func casesAreReadFromMetadataWhereTheyCanBe() {
    for type in [Mode<Int>.self, Held.self, Packed.self, Single.self, Result<Int, Failure>.self, Empty.self] as [any Any.Type] {
      #expect(TypeInfo.of(type).enumCases != nil, "\(type)")
    }
    #expect(TypeInfo.of(Tree.self).enumCases == nil)
    #expect(TypeInfo.of(Custom.self).enumCases == nil)
    // Tag order: the cases with payload bytes as declared, then the others (`tapped` and
    // `unit` carry payloads of no size).
    #expect(
      TypeInfo.of(Packed.self).enumCases?.cases.map(\.name) == ["object", "text", "small", "pair", "none", "tapped", "later", "unit"])
    for value in Self.values {
      let read = Reflection.labelledCaseAndPayload(value)
      let reflected = Reflection.reflectedCaseAndPayload(value)
      #expect(read?.name == reflected?.name, "\(value)")
      if let read, let reflected {
        #expect(ValueRenderer.render(read.payload).jsonText == ValueRenderer.render(reflected.payload).jsonText, "\(value)")
      }
    }
    #expect(Reflection.labelledCaseAndPayload(Packed.small(2))?.label == "Packed.small")
  }

  @Test func payloadsAreWhatAMirrorShows() {
    for value in Self.values {
      let mirror = Mirror(reflecting: value)
      let child = mirror.children.first
      let direct = Reflection.caseAndPayload(value)
      #expect(direct?.name == child?.label, "\(value)")
      if let direct, let child {
        #expect(ValueRenderer.render(direct.payload).jsonText == ValueRenderer.render(child.value).jsonText, "\(value)")
      }
    }
  }

  @Test func renderingIsUnchanged() {
    let expected = [
      #""idle""#, #"{"loading":{"progress":0.5}}"#, #"{"loaded":{"0":["a"],"note":"n"}}"#,
    ]
    for (value, json) in zip(Self.values, expected) {
      #expect(ValueRenderer.render(value).jsonText == json)
    }
    #expect(ValueRenderer.render(Tree.node(.leaf(1), .empty)).jsonText == #"{"node":[{"leaf":1},"empty"]}"#)
    #expect(ValueRenderer.render(Mode<Int>.object(Ref(3))).jsonText == #"{"object":{"id":3}}"#)
    // A custom mirror is asked, as before.
    #expect(ValueRenderer.render(Custom.secret("x")).jsonText == #"{"shown":"no"}"#)
    let (json, shape) = ValueRenderer.renderWithShape(Mode<Int>.loading(progress: 0.25))
    #expect(json.jsonText == #"{"loading":{"progress":0.25}}"#)
    #expect(shape.enums == [""])
  }
}

private struct Pairing { var first: Any; var second: Any? }

extension EnumPayloadTests {
  @Test func aDiffToAnEnumCaseWithAPayloadCarriesThePayload() {
    let old: Any = Pairing(first: "text", second: nil)
    let new: Any = Held.pair(1.25, label: ["status"])
    let changes = StateDiff.diff(old, new)
    #expect(changes.map { $0.new?.jsonText } == [ValueRenderer.render(new).jsonText])
  }
}

private enum Tapped { case start, stop }
private enum OnlyPayloads { case toggle(Int), rename(id: Int, to: String) }
private enum Swapping: CustomLoupeRepresentable {
  case shown(Int)
  var customLoupeValue: Any { Tapped.stop }
}
private struct NotAnEnum { var value = 1 }
/// Plain bytes in every case: copied as bytes to read a payload.
private enum Counter { case add(Int), flag(Bool), ratio(Double), none }
private enum Scalars { case int(Int), flag(Bool), ratio(Double), small(UInt8), big(UInt64), text(String), maybe(Int?), none, empty(Void) }

extension EnumPayloadTests {
  nonisolated(unsafe) static let actions: [Any] = [
    Tapped.start, OnlyPayloads.toggle(3), OnlyPayloads.rename(id: 1, to: "x"), Mode<Int>.idle, Mode<Int>.loaded(1, note: "n"),
    Optional(Tapped.stop) as Any, Optional<Tapped>.none as Any, Optional(Optional(OnlyPayloads.toggle(1))) as Any,
    Swapping.shown(1), Custom.secret("s"), AnyHashable(Tapped.start), NotAnEnum(), Held.leaf(Tapped.start), Tree.node(.empty, .leaf(1)),
    Scalars.int(-1), Scalars.flag(true), Scalars.ratio(-0.0), Scalars.ratio(.nan), Scalars.ratio(.infinity), Scalars.ratio(0.1),
    Scalars.small(255), Scalars.big(.max), Scalars.text("t"), Scalars.maybe(nil), Scalars.maybe(2), Scalars.none, Scalars.empty(()),
    Packed.small(1), Packed.tapped(.only), Single.absent, Result<Int, Failure>.success(1),
    Counter.add(-5), Counter.flag(false), Counter.ratio(2.5), Counter.none,
  ]

  /// `renderAction` gives what `actionLabel` and `renderWithShape` give, label, value and shape,
  /// whatever the action: plain and payload enums, optionals, substitutions, custom mirrors,
  /// wrappers, non-enums, and with the root redacted.
  @Test func renderActionIsTheLabelAndTheRendering() {
    let capped = [RenderOptions(maxDepth: 0), RenderOptions(maxNodes: 1), RenderOptions(maxNodes: 2)]
    for options in [RenderOptions.default, RenderOptions(redactedPaths: [Glob("")]), RenderOptions(redactedPaths: [Glob("toggle")])] + capped {
      for action in Self.actions {
        let (label, json, shape) = ValueRenderer.renderAction(action, options: options)
        let (expectedJSON, expectedShape) = ValueRenderer.renderWithShape(action, options: options)
        #expect(label == ValueRenderer.actionLabel(action), "\(action)")
        #expect(json == expectedJSON, "\(action)")
        #expect(shape == expectedShape, "\(action)")
      }
    }
    #expect(ValueRenderer.renderAction(OnlyPayloads.toggle(3)).label == "OnlyPayloads.toggle")
    #expect(ValueRenderer.renderAction(OnlyPayloads.toggle(3)).json.jsonText == #"{"toggle":3}"#)
    // The commonest actions take the path with no renderer; the rest do not.
    #expect(_isPOD(Counter.self) && !_isPOD(OnlyPayloads.self))
    for action in [OnlyPayloads.toggle(3), Tapped.start, Scalars.ratio(.nan), Scalars.none, Single.absent, Counter.add(1)] as [Any] {
      #expect(ValueRenderer.renderPlainAction(action, options: .default) != nil, "\(action)")
    }
    for action in [OnlyPayloads.rename(id: 1, to: "x"), Scalars.text("t"), Scalars.maybe(1), Scalars.empty(()), Swapping.shown(1)] as [Any] {
      #expect(ValueRenderer.renderPlainAction(action, options: .default) == nil, "\(action)")
    }
    #expect(TypeInfo.of(OnlyPayloads.self).everyCaseHasPayload)
    #expect(!TypeInfo.of(Mode<Int>.self).everyCaseHasPayload)
    #expect(!TypeInfo.of(Tapped.self).everyCaseHasPayload)
    #expect(TypeInfo.of(Tree.self).everyCaseHasPayload == false)  // `empty` has none
  }
}
