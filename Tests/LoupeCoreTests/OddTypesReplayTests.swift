import Foundation
import Testing
import TestSupport
@testable import LoupeCore

/// Values whose `==` and whose rendering disagree, or that reflection shows oddly: replaying
/// `diff(a, b)` on `render(a)` gives `render(b)` byte for byte, through every diff entry point
/// (the general walk, the in-place walk, the store's variants) and the state rebuilder.
@Suite struct OddTypesReplayTests {
  /// Every way a state's changes are made and replayed, compared as the wire writes them
  /// (`JSON`'s `==` calls `0.0` and `-0.0`, `"é"` and `"e\u{301}"` equal).
  private func expectReplay<T>(
    _ a: T, _ b: T, options: RenderOptions = .default, _ comment: String = "", sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let old = ValueRenderer.render(a, options: options)
    let new = ValueRenderer.render(b, options: options)
    let variants: [(String, [Change])] = [
      ("diff", StateDiff.diff(a, b, options: options)),
      ("boxed", StateDiff.diff(a as Any, b as Any, options: options)),
      ("paths", StateDiff.diffWithPaths(a, b, options: options).changes),
      ("firsts", StateDiff.diffWithFirstComponents(a, b, options: options).changes),
      ("shapes", StateDiff.diffWithShapes(a, b, options: options)),
    ]
    for (name, changes) in variants {
      let replayed = try? changes.apply(to: old)
      #expect(
        replayed?.jsonText == new.jsonText,
        "\(comment) \(name): \(old.jsonText) → \(new.jsonText), changes \(changes.map(\.json.jsonText)), replayed \(replayed?.jsonText ?? "error")",
        sourceLocation: sourceLocation)
      // The rebuilder, as `loupe replay` and the session's state views apply them.
      var rebuilt = old
      var approximate = false
      StateRebuilder.applyChanges(
        of: StateChanged(store: "S#1", cause: 0, changes: changes, summary: ""), to: &rebuilt, approximate: &approximate)
      #expect(rebuilt.jsonText == new.jsonText && !approximate, "\(comment) \(name) rebuilt", sourceLocation: sourceLocation)
    }
  }

  // MARK: Floating-point specials (issue 33, item 5)

  @Test func floatingPointSpecialsInsideStructsReplay() {
    let specials: [Double] = [0.0, -0.0, .nan, -.nan, .infinity, -.infinity, 1.5]
    for x in specials {
      for y in specials {
        let label = "\(x) → \(y)"
        expectReplay(Measure(value: x, ratio: Float(x)), Measure(value: y, ratio: Float(y)), label)
        expectReplay(LooseMeasure(value: x), LooseMeasure(value: y), label)
        expectReplay(Reading(measure: Measure(value: x, ratio: 1), id: 1), Reading(measure: Measure(value: y, ratio: 1), id: 1), label)
        expectReplay([Measure(value: x, ratio: 1)], [Measure(value: y, ratio: 1)], label)
        expectReplay(["k": Measure(value: x, ratio: 1)], ["k": Measure(value: y, ratio: 1)], label)
        expectReplay(Optional(Measure(value: x, ratio: 1)), Optional(Measure(value: y, ratio: 1)), label)
        expectReplay(Sample.value(x), Sample.value(y), label)
        expectReplay(Sample.pair(x, 1), Sample.pair(y, 1), label)
        expectReplay(IdentifiedArrayOf(uniqueElements: [Reading(measure: Measure(value: x, ratio: 1), id: 1)]),
          IdentifiedArrayOf(uniqueElements: [Reading(measure: Measure(value: y, ratio: 1), id: 1)]), label)
        expectReplay(Wrapper(samples: [.value(x)], tuple: (x, 1)), Wrapper(samples: [.value(y)], tuple: (y, 1)), label)
      }
    }
  }

  // MARK: Canonically equivalent strings (issue 33, item 6)

  @Test func canonicallyEquivalentKeysAndStringsReplay() {
    let composed = "\u{E9}", decomposed = "e\u{301}"
    expectReplay([composed: 1], [decomposed: 1])
    expectReplay([composed: "x"], [decomposed: "x"])
    expectReplay([composed: Measure(value: 1, ratio: 1)], [decomposed: Measure(value: 1, ratio: 1)])
    expectReplay(Names(byName: [composed: 1], title: composed), Names(byName: [decomposed: 1], title: decomposed))
    expectReplay(LooseNames(byName: [composed: 1]), LooseNames(byName: [decomposed: 1]))
    expectReplay(Set([composed]), Set([decomposed]))
    expectReplay([composed], [decomposed])
    expectReplay(Character(composed), Character(decomposed))
  }

  // MARK: Enums with an empty custom mirror (issue 33, item 8)

  @Test func enumsWithAnEmptyCustomMirrorReplayTheirCase() {
    expectReplay(Quiet.idle, Quiet.busy)
    expectReplay(Quiet.idle, Quiet.loading(1))
    expectReplay(Quiet.loading(1), Quiet.loading(2))
    expectReplay(QuietStyled.idle, QuietStyled.loading(1))
    expectReplay(QuietStyled.loading(1), QuietStyled.busy)
    expectReplay(Muted.on, Muted.off)
    expectReplay(Holder(mode: .idle), Holder(mode: .busy))
    expectReplay([Quiet.idle], [Quiet.busy])
    #expect(!StateDiff.diff(Quiet.idle, Quiet.busy).isEmpty)
    #expect(!StateDiff.diff(Holder(mode: .idle), Holder(mode: .loading(3))).isEmpty)
  }

  // MARK: Actors (issue 33, item 7)

  /// An actor's state is never read, but which instance a state holds shows: one replaced by
  /// another is a change, the same one is none.
  @Test func replacingAnActorIsAChange() {
    let first = Tally(), second = Tally()
    #expect(ValueRenderer.render(first).jsonText == #""<actor Tally#1>""#)
    #expect(ValueRenderer.render(second).jsonText == #""<actor Tally#2>""#)
    #expect(ValueRenderer.render(first).jsonText == #""<actor Tally#1>""#)
    #expect(StateDiff.diff(Room(tally: first), Room(tally: second)).map(\.json.jsonText) == [
      #"{"path":"tally","op":"replace","old":"<actor Tally#1>","new":"<actor Tally#2>"}"#
    ])
    #expect(StateDiff.diff(Room(tally: first), Room(tally: first)).isEmpty)
    expectReplay(Room(tally: first), Room(tally: second))
    expectReplay([first, second], [second, first])
    expectReplay(Optional(first), Optional(second))
    expectReplay(first as Any, second as Any)
  }
}

/// Only this suite renders it: its instances' numbers are this test's.
private actor Tally {
  var count = 0
}

private struct Room {
  var tally: Tally
}

private struct Measure: Equatable {
  var value: Double
  var ratio: Float
}

private struct LooseMeasure {
  var value: Double
}

private struct Reading: Equatable, Identifiable {
  var measure: Measure
  var id: Int
}

private enum Sample: Equatable {
  case value(Double)
  case pair(Double, Int)
}

private struct Wrapper: Equatable {
  var samples: [Sample]
  var tuple: (Double, Int)
  static func == (a: Wrapper, b: Wrapper) -> Bool { a.samples == b.samples && a.tuple == b.tuple }
}

private struct Names: Equatable {
  var byName: [String: Int]
  var title: String
}

private struct LooseNames {
  var byName: [String: Int]
}

/// Shows nothing of itself through its mirror.
private enum Quiet: Equatable, CustomReflectable {
  case idle, busy, loading(Int)
  var customMirror: Mirror { Mirror(self, children: [:]) }
}

private enum QuietStyled: Equatable, CustomReflectable {
  case idle, busy, loading(Int)
  var customMirror: Mirror { Mirror(self, children: [:], displayStyle: .enum) }
}

private enum Muted: CustomReflectable {
  case on, off
  var customMirror: Mirror { Mirror(self, children: [:]) }
}

private struct Holder: Equatable {
  var mode: Quiet
}
