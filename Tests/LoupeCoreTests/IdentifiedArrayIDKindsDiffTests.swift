import Foundation
import Testing
import TestSupport
@testable import LoupeCore

/// The identified diff's walk over elements changed in place, for every kind of id it keys
/// without a renderer or with one (`Int`, `String`, a struct rendered as an object) and for
/// elements that do not show their id (diffed by position): random edits of arrays small and
/// paged, with and without a collection cap, give the changes the plain diff of the same
/// elements gives (an array of `Identifiable` elements, matched by id or by position).
@Suite struct IdentifiedArrayIDKindsDiffTests {
  private struct IntRow: Equatable, Identifiable { var id: Int; var title: String; var count = 0 }
  private struct StringRow: Equatable, Identifiable { var id: String; var count = 0; var isOn = false }
  private struct KeyRow: Equatable, Identifiable {
    struct Key: Hashable { var group: Int; var name: String }
    var id: Key
    var count = 0
  }
  /// No stored `id`: its rendering shows no `id` member, so neither diff can key it.
  private struct HiddenIDRow: Equatable, Identifiable {
    var key: Int
    var count = 0
    var id: Int { key }
  }

  @Test func intIDs() throws {
    try Self.check(seed: 1) { IntRow(id: $0, title: "row \($0)") } edit: { row, rng in
      if Bool.random(using: &rng) { row.count += 1 } else { row.title += "!" }
    }
  }

  @Test func stringIDs() throws {
    try Self.check(seed: 2) { StringRow(id: "row-\($0)") } edit: { row, rng in
      if Bool.random(using: &rng) { row.count += 1 } else { row.isOn.toggle() }
    }
  }

  @Test func structIDsRenderedAsObjects() throws {
    try Self.check(seed: 3) { KeyRow(id: .init(group: $0 % 3, name: "k\($0)")) } edit: { row, _ in row.count += 1 }
  }

  @Test func elementsThatDoNotShowTheirIDDiffByPosition() throws {
    try Self.check(seed: 4) { HiddenIDRow(key: $0) } edit: { row, _ in row.count -= 1 }
  }

  /// 400 rounds: arrays drifting between ~6 and ~50 elements (small up to 32, paged past it)
  /// edited in place at 1 to 4 elements, half the rounds also grown or shrunk (then the ids
  /// differ and the diff takes the path by id); each diff compared both ways with the plain
  /// diff, at no cap and at a cap of 8.
  private static func check<Row: Equatable & Identifiable>(
    seed: UInt64, make: (Int) -> Row, edit: (inout Row, inout SplitMix64) -> Void
  ) throws where Row.ID: Hashable {
    var rng = SplitMix64(seed: seed)
    var array = IdentifiedArray<Row.ID, Row>(uniqueElements: (0..<10).map(make))
    var next = 10
    var paged = 0
    for round in 0..<400 {
      let before = array
      let target = (round / 50) % 2 == 0 ? 50 : 6
      // Half the rounds grow or shrink the array toward the target (then the ids differ).
      if Bool.random(using: &rng) {
        for _ in 0..<Int.random(in: 1...3, using: &rng) {
          if array.count < target {
            array.insert(make(next), at: Int.random(in: 0...array.count, using: &rng))
            next += 1
          } else if !array.isEmpty {
            array.remove(at: Int.random(in: 0..<array.count, using: &rng))
          }
        }
      }
      if !array.isEmpty {
        for _ in 0..<Int.random(in: 1...4, using: &rng) {
          let id = array.ids[Int.random(in: 0..<array.count, using: &rng)]
          edit(&array[id: id]!, &rng)
        }
      }
      if array.count > IdentifiedArrayStorage<Row>.chunkLimit { paged += 1 }
      for options in [RenderOptions(maxCollectionCount: 10_000), RenderOptions(maxCollectionCount: 8)] {
        try expectSameDiff(before, array, options: options, round: round)
        try expectSameDiff(array, before, options: options, round: round)
      }
    }
    #expect(paged > 50, "the arrays were paged in \(paged) rounds")
  }

  private static func expectSameDiff<Row: Equatable & Identifiable>(
    _ old: IdentifiedArray<Row.ID, Row>, _ new: IdentifiedArray<Row.ID, Row>, options: RenderOptions, round: Int
  ) throws where Row.ID: Hashable {
    let changes = StateDiff.diff(old, new, options: options)
    #expect(
      changeLines(changes) == changeLines(StateDiff.diff(old.elements, new.elements, options: options)),
      "round \(round), cap \(options.maxCollectionCount)")
    if options.maxCollectionCount >= max(old.count, new.count) {
      #expect(
        try changes.apply(to: ValueRenderer.render(old, options: options)) == ValueRenderer.render(new, options: options),
        "round \(round)")
    }
  }
}
