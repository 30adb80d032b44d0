import Foundation
import Testing
@testable import LoupeCore

/// The caps bound the work, not only the output: a collection seen only through its custom
/// mirror is read no further than a rendering or a diff may go (issue 33, item 9).
@Suite struct BoundedWorkTests {
  private let size = 10_000_000

  @Test func renderingAVirtualCollectionReadsNoMoreThanItShows() {
    let visits = Visits()
    let options = RenderOptions(maxCollectionCount: 100)
    let json = ValueRenderer.render(Virtual(count: size, visits: visits, salt: 0), options: options)
    guard case .array(let elements) = json else {
      Issue.record("not an array: \(json.jsonText.prefix(100))")
      return
    }
    #expect(elements.count == 101)
    #expect(elements.last == .string(RenderMarker.moreElements(size - 100)))
    #expect(visits.count <= 101, "\(visits.count) elements read")
  }

  @Test func diffingVirtualCollectionsReadsNoMoreThanTheNodeBudget() {
    let visits = Visits()
    let options = RenderOptions(maxCollectionCount: 100, maxNodes: 5_000)
    let a = Virtual(count: size, visits: visits, salt: 0)
    let b = Virtual(count: size, visits: visits, salt: 1)
    let changes = StateDiff.diff(a, b, options: options)
    // The budget runs out: the whole state is one replace of its capped renderings.
    #expect(changes.map(\.path) == [""])
    #expect(visits.count <= 3 * options.maxNodes, "\(visits.count) elements read")
    visits.count = 0
    _ = StateDiff.diff(Box(items: a), Box(items: b), options: options)
    #expect(visits.count <= 3 * options.maxNodes, "\(visits.count) elements read")
  }

  @Test func virtualSetsAndDictionariesAreReadNoFurtherThanTheBudget() {
    let visits = Visits()
    let options = RenderOptions(maxCollectionCount: 100, maxNodes: 5_000)
    _ = ValueRenderer.render(Virtual(count: size, visits: visits, salt: 0, style: .set), options: options)
    #expect(visits.count <= 2 * options.maxNodes, "set: \(visits.count) elements read")
    visits.count = 0
    _ = ValueRenderer.render(Virtual(count: size, visits: visits, salt: 0, style: .dictionary), options: options)
    #expect(visits.count <= 2 * options.maxNodes, "dictionary: \(visits.count) elements read")
    visits.count = 0
    let a = Virtual(count: size, visits: visits, salt: 0, style: .dictionary)
    let b = Virtual(count: size, visits: visits, salt: 1, style: .dictionary)
    _ = StateDiff.diff(a, b, options: options)
    #expect(visits.count <= 6 * options.maxNodes, "dictionary diff: \(visits.count) elements read")
  }
}

/// Counts the elements a virtual collection hands out.
private final class Visits: @unchecked Sendable {
  var count = 0
}

/// `count` elements computed on demand, counting each one read.
private struct Elements: RandomAccessCollection {
  let count: Int
  let visits: Visits
  let salt: Int
  let pairs: Bool
  var startIndex: Int { 0 }
  var endIndex: Int { count }
  subscript(position: Int) -> Mirror.Child {
    visits.count += 1
    let value = position &* 31 &+ salt
    return pairs ? (nil, (key: "k\(position)", value: value) as Any) : (nil, value as Any)
  }
}

private struct Virtual: CustomReflectable {
  let count: Int
  let visits: Visits
  let salt: Int
  var style: Mirror.DisplayStyle = .collection
  var customMirror: Mirror {
    Mirror(self, children: Elements(count: count, visits: visits, salt: salt, pairs: style == .dictionary), displayStyle: style)
  }
}

private struct Box {
  var items: Virtual
}
