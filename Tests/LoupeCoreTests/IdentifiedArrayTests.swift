import Foundation
import Testing
import TestSupport
@testable import LoupeCore

/// `IdentifiedArray` behaves as an array with unique ids, whatever the chunking underneath,
/// and an element change in a copy shares every other chunk (what makes the diff's cost
/// follow the change).
@Suite struct IdentifiedArrayStorageTests {
  private struct Todo: Equatable, Hashable, Identifiable { var id: Int; var title: String }

  private func todos(_ count: Int) -> IdentifiedArrayOf<Todo> {
    IdentifiedArrayOf(uniqueElements: (0..<count).map { Todo(id: $0, title: "t\($0)") })
  }

  @Test func randomOperationsMatchAnArrayModel() throws {
    var rng = SplitMix64(seed: 42)
    var array = IdentifiedArrayOf<Todo>()
    var model: [Todo] = []
    var nextID = 0
    for step in 0..<3_000 {
      let before = array
      switch Int.random(in: 0..<9, using: &rng) {
      case 0, 1:
        let todo = Todo(id: nextID, title: "n\(nextID)")
        nextID += 1
        let appended = array.append(todo)
        #expect(appended)
        model.append(todo)
      case 2 where !model.isEmpty:
        let index = Int.random(in: 0...model.count, using: &rng)
        let todo = Todo(id: nextID, title: "i\(nextID)")
        nextID += 1
        let inserted = array.insert(todo, at: index)
        #expect(inserted)
        model.insert(todo, at: index)
      case 3 where !model.isEmpty:
        let index = Int.random(in: 0..<model.count, using: &rng)
        let removed = array.remove(id: model[index].id)
        #expect(removed == model[index])
        model.remove(at: index)
      case 4 where !model.isEmpty:
        let index = Int.random(in: 0..<model.count, using: &rng)
        array[id: model[index].id]?.title += "!"
        model[index].title += "!"
      case 5 where !model.isEmpty:
        let index = Int.random(in: 0..<model.count, using: &rng)
        array[index].title += "?"
        model[index].title += "?"
      case 6 where model.count > 2:
        let source = [Int.random(in: 0..<model.count, using: &rng)]
        let destination = Int.random(in: 0...model.count, using: &rng)
        array.move(fromOffsets: source, toOffset: destination)
        let moved = model.remove(at: source[0])
        model.insert(moved, at: destination > source[0] ? destination - 1 : destination)
      case 7 where step % 50 == 0:
        array.removeAll { $0.id % 3 == 0 }
        model.removeAll { $0.id % 3 == 0 }
      case 8 where !model.isEmpty:
        let removed = array.remove(at: model.count - 1)
        #expect(removed == model.removeLast())
      default:
        let appended = array.append(model.first ?? Todo(id: -1, title: ""))
        #expect(appended == model.isEmpty)
        if model.isEmpty { model.append(Todo(id: -1, title: "")) }
      }
      #expect(array.elements == model, "step \(step)")
      #expect(array.ids == model.map(\.id), "step \(step)")
      for (position, todo) in model.enumerated() where position % 17 == 0 {
        #expect(array.index(id: todo.id) == position)
        #expect(array[id: todo.id] == todo)
      }
      // The diff replays exactly on the rendering, whatever changed.
      let changes = StateDiff.diff(before, array)
      #expect(try changes.apply(to: ValueRenderer.render(before)) == ValueRenderer.render(array), "step \(step)")
      if array.elements != model { return }
    }
  }

  @Test func anElementChangeInACopySharesEveryOtherChunk() {
    let old = todos(1_000)
    var new = old
    new[id: 500]?.title = "x"
    let capacity = IdentifiedArrayOf<Todo>.chunkCapacity
    let oldChunks = old._storage.pages.flatMap(\.chunks)
    let newChunks = new._storage.pages.flatMap(\.chunks)
    let shared = zip(oldChunks, newChunks).filter { $0 === $1 }.count
    #expect(shared == oldChunks.count - 1)
    #expect(oldChunks[500 / capacity] !== newChunks[500 / capacity])
    #expect(old._storage.differingRanges(from: new._storage) == [(500 / capacity * capacity)..<(500 / capacity * capacity + capacity)])
    #expect(Reflection.identicalBits(old._ids, new._ids))
    #expect(old[id: 500]?.title == "t500")
    #expect(StateDiff.diff(old, new).map(\.path) == ["[id: 500].title"])
  }

  @Test func equalityHashingAndSortingAreThoseOfTheElements() {
    var a = todos(200)
    var b = todos(200)
    #expect(a == b)
    #expect(a.hashValue == b.hashValue)
    b[id: 150]?.title = "x"
    #expect(a != b)
    a.sort { $0.id > $1.id }
    #expect(a.ids == (0..<200).reversed().map { $0 })
    #expect(a.index(id: 0) == 199)
    a.remove(atOffsets: [0, 1, 199])
    #expect(a.count == 197)
    #expect(a.first?.id == 197)
    #expect(a.index(id: 1) == 196)
  }
}
