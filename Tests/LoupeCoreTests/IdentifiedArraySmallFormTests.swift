import Foundation
import Testing
import TestSupport
@testable import LoupeCore

/// The small form of `IdentifiedArray`'s storage (one buffer, no pages, up to `chunkLimit`
/// elements) and its switches to and from pages, against a plain array; and the diff and `==`
/// of arrays of either form, or one of each, against the plain diff by id of their elements.
@Suite struct IdentifiedArraySmallFormTests {
  private struct Todo: Equatable, Hashable, Identifiable { var id: Int; var title: String; var isDone = false }
  private typealias Storage = IdentifiedArrayStorage<Int>

  @Test func aSmallArrayIsOneBufferAndAWriteCopiesOnlyIt() {
    let old = Storage(0..<10)
    #expect(old.isSmall && old.pages.isEmpty && Storage().isSmall)
    var new = old
    new.set(-1, at: 3)
    #expect(new.isSmall && old.elements == Array(0..<10) && new.elements == [0, 1, 2, -1, 4, 5, 6, 7, 8, 9])
    #expect(old.differingRanges(from: new) == [0..<10] && old.differingRanges(from: old) == [])
    #expect(old.isIdentical(to: old) && !old.isIdentical(to: new))
    #expect(old.sharedEnds(with: new) == (0, 0) && old.sharedEnds(with: old) == (10, 0))
    #expect(Storage(0..<Storage.chunkLimit).isSmall && !Storage(0...Storage.chunkLimit).isSmall)
  }

  @Test func theFormsSwitchAtTheirBounds() {
    var storage = Storage(0..<Storage.chunkLimit)
    storage.append(Storage.chunkLimit)
    #expect(!storage.isSmall && storage.elements == Array(0...Storage.chunkLimit))
    // Removals keep the pages down to `chunkFill` elements (no switching back and forth at one bound).
    while storage.count > Storage.chunkFill + 1 { storage.remove(at: 0) }
    #expect(!storage.isSmall)
    storage.remove(at: 0)
    #expect(storage.isSmall && storage.elements == Array((Storage.chunkLimit + 1 - Storage.chunkFill)...Storage.chunkLimit))
    var inserted = Storage(0..<Storage.chunkLimit)
    inserted.insert(-1, at: 5)
    #expect(!inserted.isSmall && inserted.elements == Array(0..<5) + [-1] + Array(5..<Storage.chunkLimit))
  }

  /// Random edits around the bounds of the two forms: the elements are the model's, a copy
  /// kept before each edit keeps its own, the form is small exactly where it may be, and what
  /// the comparisons report shared is the same in both.
  @Test func randomEditsAcrossTheFormsMatchAnArray() {
    var rng = SplitMix64(seed: 33)
    var storage = Storage()
    var model: [Int] = []
    var switches = (toPages: 0, toSmall: 0)
    for step in 0..<20_000 {
      let before = storage
      let beforeModel = model
      // Drift up and down across both bounds.
      let grow = model.count < ((step / 100) % 2 == 0 ? 48 : 4) ? 7 : 2
      let choice = Int.random(in: 0..<10, using: &rng)
      if choice < grow || model.isEmpty {
        let position = Int.random(in: 0...model.count, using: &rng)
        if choice == 0 { storage.append(step) } else { storage.insert(step, at: position) }
        if choice == 0 { model.append(step) } else { model.insert(step, at: position) }
      } else if choice < 9 {
        let position = Int.random(in: 0..<model.count, using: &rng)
        #expect(storage.remove(at: position) == model.remove(at: position), "step \(step)")
      } else {
        let position = Int.random(in: 0..<model.count, using: &rng)
        storage.set(-step, at: position)
        model[position] = -step
      }
      if before.isSmall && !storage.isSmall { switches.toPages += 1 }
      if !before.isSmall && storage.isSmall { switches.toSmall += 1 }
      #expect(storage.count == model.count && storage.elements == model, "step \(step)")
      #expect(before.elements == beforeModel, "step \(step): the copy changed")
      #expect(storage.count <= Storage.chunkLimit || !storage.isSmall, "step \(step)")
      #expect(storage.count > Storage.chunkFill || storage.isSmall, "step \(step)")
      if !model.isEmpty {
        let position = Int.random(in: 0..<model.count, using: &rng)
        #expect(storage.element(at: position) == model[position])
        let range = Int.random(in: 0...position, using: &rng)..<Int.random(in: position...model.count, using: &rng)
        #expect(storage.elements(in: range) == Array(model[range]) && Array(storage.run(range)) == Array(model[range]))
      }
      expectComparisonsHold(before, beforeModel, storage, model, step: step)
      expectComparisonsHold(storage, model, before, beforeModel, step: step)
      expectComparisonsHold(storage, model, Storage(model), model, step: step)
    }
    #expect(switches.toPages > 10 && switches.toSmall > 10, "\(switches)")
  }

  /// Random edits of small arrays and of arrays crossing into and out of pages: the identified
  /// diff equals the plain diff by id of the same elements and replays exactly, `==` agrees
  /// with the elements', and the iteration walks the elements in order.
  @Test func diffsAcrossTheFormsMatchThePlainDiffByID() throws {
    var rng = SplitMix64(seed: 19)
    var array = IdentifiedArrayOf<Todo>()
    var next = 0
    for round in 0..<600 {
      let before = array
      var moved = false
      let grow = (round / 60) % 2 == 0 ? 5 : 2
      for _ in 0..<Int.random(in: 1...3, using: &rng) {
        let choice = Int.random(in: 0..<12, using: &rng)
        if choice < grow || array.isEmpty {
          array.insert(Todo(id: next, title: "n\(next)"), at: Int.random(in: 0...array.count, using: &rng))
          next += 1
        } else if choice < 7 {
          array.remove(at: Int.random(in: 0..<array.count, using: &rng))
        } else if choice < 9 {
          array[Int.random(in: 0..<array.count, using: &rng)].isDone.toggle()
        } else if choice == 9 {
          array.move(fromOffsets: [Int.random(in: 0..<array.count, using: &rng)], toOffset: Int.random(in: 0...array.count, using: &rng))
          moved = true
        } else if choice == 10 {
          let id = array.ids[Int.random(in: 0..<array.count, using: &rng)]
          array[id: id]?.title += "!"
        } else {
          array.remove(atOffsets: [Int.random(in: 0..<array.count, using: &rng)])
        }
      }
      try Self.checkDiff(before, array, moved: moved, round: round)
      try Self.checkDiff(array, before, moved: moved, round: round)
      // The same elements in the other form (or rebuilt in the same one): nothing changed.
      let rebuilt = IdentifiedArrayOf(uniqueElements: array.elements)
      #expect(rebuilt == array && array == rebuilt, "round \(round)")
      #expect(StateDiff.diff(array, rebuilt).isEmpty && StateDiff.diff(rebuilt, array).isEmpty, "round \(round)")
      try Self.checkDiff(before, rebuilt, moved: moved, round: round)
      #expect(Array(array) == array.elements && array.elements.map(\.id) == array.ids, "round \(round)")
    }
  }

  private static func checkDiff(_ before: IdentifiedArrayOf<Todo>, _ after: IdentifiedArrayOf<Todo>, moved: Bool, round: Int) throws {
    let options = RenderOptions(maxCollectionCount: 10_000)
    let changes = StateDiff.diff(before, after, options: options)
    #expect((before == after) == (before.elements == after.elements), "round \(round)")
    #expect(
      try changes.apply(to: ValueRenderer.render(before, options: options)) == ValueRenderer.render(after, options: options),
      "round \(round)")
    // A move can be told as either of two equally short stories; everything else is one.
    if !moved { #expect(changeLines(changes) == changeLines(StateDiff.diff(before.elements, after.elements, options: options)), "round \(round)") }
  }
}
