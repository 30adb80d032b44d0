import Foundation
import Testing
import TestSupport
@testable import LoupeCore

/// The two-level storage of `IdentifiedArray` (pages of chunks) against a plain array, through
/// page and chunk splits and merges; and the identified-array diff — which skips what both
/// arrays share — against the plain diff by id of the same elements, on large arrays.
@Suite struct IdentifiedArrayTreeTests {
  private struct Todo: Equatable, Hashable, Identifiable { var id: Int; var title: String; var isDone = false }

  private func todos(_ count: Int) -> IdentifiedArrayOf<Todo> {
    IdentifiedArrayOf(uniqueElements: (0..<count).map { Todo(id: $0, title: "t\($0)") })
  }

  @Test func storageMatchesAnArrayThroughSplitsAndMerges() {
    var rng = SplitMix64(seed: 7)
    var storage = IdentifiedArrayStorage(0..<5_000)
    var model = Array(0..<5_000)
    var next = 5_000
    // Inserts crowd into the first page until its chunks and then the page split; removals
    // then empty chunks and pages and merge small chunks.
    for step in 0..<30_000 {
      let before = storage
      let choice = Int.random(in: 0..<10, using: &rng)
      if step < 15_000 ? choice < 7 : choice < 2 {
        let position = Int.random(in: 0...min(model.count, 3_000), using: &rng)
        storage.insert(next, at: position)
        model.insert(next, at: position)
        next += 1
      } else if choice < 9, !model.isEmpty {
        let position = Int.random(in: 0..<model.count, using: &rng)
        #expect(storage.remove(at: position) == model.remove(at: position))
      } else if !model.isEmpty {
        let position = Int.random(in: 0..<model.count, using: &rng)
        storage.set(-step, at: position)
        model[position] = -step
      }
      #expect(storage.count == model.count)
      if step % 500 == 0 || step > 29_900 {
        #expect(storage.elements == model, "step \(step)")
        for position in stride(from: 0, to: model.count, by: 97) { #expect(storage.element(at: position) == model[position]) }
        expectComparisonsHold(before, before.elements, storage, storage.elements, step: step)
      }
      #expect(before.count == storage.count + (before.count - storage.count))  // the copy is still whole
    }
    #expect(storage.pages.count > 1)
    for page in storage.pages {
      #expect(page.chunks.count <= IdentifiedArrayStorage<Int>.pageLimit)
      #expect(page.chunks.allSatisfy { $0.count(Int.self) > 0 && $0.count(Int.self) <= IdentifiedArrayStorage<Int>.chunkLimit })
      #expect(page.ends == ContiguousArray(page.chunks.map { $0.count(Int.self) }.reduce(into: []) { $0.append(($0.last ?? 0) + $1) }))
    }
    // Emptied to nothing and refilled.
    while !model.isEmpty {
      storage.remove(at: model.count / 2)
      model.remove(at: model.count / 2)
    }
    #expect(storage.pages.isEmpty && storage.count == 0)
    storage.append(1)
    #expect(storage.elements == [1])
  }

  @Test func aCopyKeepsItsElementsWhateverTheOtherDoes() {
    let old = IdentifiedArrayStorage(0..<10_000)
    var new = old
    for position in stride(from: 0, to: 9_000, by: 300) { new.insert(-position, at: position) }
    new.set(42, at: 9_999)
    new.remove(at: 5)
    #expect(old.elements == Array(0..<10_000))
    #expect(old.differingRanges(from: new) == nil)
    var changed = old
    changed.set(-1, at: 4_100)
    changed.set(-2, at: 9_999)
    // Built by appending: chunks of `fill` elements from the start, so the changed chunks are
    // those holding 4,100 and 9,999 (with 16: 4,096..<4,112 and 9,984..<10,000).
    let fill = IdentifiedArrayStorage<Int>.chunkFill
    let changedChunk = (4_100 / fill * fill)..<(4_100 / fill * fill + fill)
    #expect(old.differingRanges(from: changed) == [changedChunk, (9_999 / fill * fill)..<10_000])
    #expect(old.sharedEnds(with: changed) == (changedChunk.lowerBound, 0))
  }

  /// The identified diff of exactly one insert, removal or change in 10,000 elements.
  @Test func oneEditInALargeArrayIsOneChange() throws {
    let old = todos(10_000)
    var inserted = old
    inserted.insert(Todo(id: -1, title: "new"), at: 5_000)
    var removed = old
    removed.remove(id: 5_000)
    var changed = old
    changed[id: 5_000]?.isDone = true
    var appended = old
    appended.append(Todo(id: -2, title: "last"))
    let options = RenderOptions(maxCollectionCount: 20_000)
    #expect(changeLines(StateDiff.diff(old, inserted, options: options)) == [#"insert [id: -1] new={"id":-1,"title":"new","isDone":false} index=5000"#])
    #expect(changeLines(StateDiff.diff(old, removed, options: options)) == [#"remove [id: 5000] old={"id":5000,"title":"t5000","isDone":false}"#])
    #expect(changeLines(StateDiff.diff(old, changed, options: options)) == ["replace [id: 5000].isDone old=false new=true"])
    #expect(changeLines(StateDiff.diff(old, appended, options: options)) == [#"insert [id: -2] new={"id":-2,"title":"last","isDone":false} index=10000"#])
    // Past the default cap the positions are cut: the same changes, marked truncated.
    #expect(changeLines(StateDiff.diff(old, inserted)) == [#"insert [id: -1] new={"id":-1,"title":"new","isDone":false} index=5000 truncated"#])
  }

  /// Random edits of large arrays: the identified diff equals the plain diff by id of the
  /// same elements (which compares every id and element), and replays exactly.
  @Test func diffMatchesThePlainDiffByID() throws {
    var rng = SplitMix64(seed: 99)
    var array = todos(5_000)
    var next = 100_000
    let options = RenderOptions(maxCollectionCount: 100_000)
    for round in 0..<30 {
      let before = array
      var moved = false
      for _ in 0..<Int.random(in: 1...4, using: &rng) {
        switch Int.random(in: 0..<6, using: &rng) {
        case 0:
          array.insert(Todo(id: next, title: "n\(next)"), at: Int.random(in: 0...array.count, using: &rng))
          next += 1
        case 1: array.remove(at: Int.random(in: 0..<array.count, using: &rng))
        case 2:
          let position = Int.random(in: 0..<array.count, using: &rng)
          array[position].isDone.toggle()
        case 3: array.append(Todo(id: next, title: "a\(next)")); next += 1
        case 4:
          array.move(fromOffsets: [Int.random(in: 0..<array.count, using: &rng)], toOffset: Int.random(in: 0...array.count, using: &rng))
          moved = true
        default:
          let position = Int.random(in: 0..<array.count, using: &rng)
          array[position].title += "!"
        }
      }
      let changes = StateDiff.diff(before, array, options: options)
      let reference = StateDiff.diff(before.elements, array.elements, options: options)
      // `==` compares shared chunks by reference and element bytes before elements.
      #expect((before == array) == (before.elements == array.elements), "round \(round)")
      #expect(before == before.elements.reduce(into: IdentifiedArrayOf<Todo>()) { $0.append($1) }, "round \(round)")
      #expect(
        try changes.apply(to: ValueRenderer.render(before, options: options)) == ValueRenderer.render(array, options: options),
        "round \(round)")
      // A move can be told as either of two equally short stories; everything else is one.
      if !moved { #expect(changeLines(changes) == changeLines(reference), "round \(round)") }
    }
  }
}
