import Foundation
import Testing

@testable import LoupeCore

/// Values reflection shows badly, rendered in this process (the crashing ones — an `NSError`
/// or a class error in an `(any Error)?` — run in child processes: see the rendering zoo in
/// `Tests/ReliabilityTests/RenderingZooTests.swift`).
@Suite struct DefensiveRenderingTests {
  struct Point {
    var x = 1.0
    var y = 2.0
  }

  actor Counter {
    var count = 0
  }

  final class Trap: CustomStringConvertible {
    var description: String { fatalError("description must not be called") }
  }

  struct Opaque: CustomStringConvertible, CustomReflectable {
    var description: String { fatalError("description must not be called") }
    var customMirror: Mirror { Mirror(self, children: [:]) }
  }

  final class Playlist: CustomReflectable {
    var songs: [String]
    init(_ songs: [String]) { self.songs = songs }
    var customMirror: Mirror { Mirror(self, unlabeledChildren: songs, displayStyle: .collection) }
  }

  final class Tags: CustomReflectable {
    var tags: Set<String>
    init(_ tags: Set<String>) { self.tags = tags }
    var customMirror: Mirror { Mirror(self, unlabeledChildren: Array(tags), displayStyle: .set) }
  }

  struct Holder {
    var error: (any Error)?
    var any: Any = 0
  }

  final class ClassError: Error {
    let message: String
    init(_ message: String) { self.message = message }
  }

  func text(_ value: Any) -> String { ValueRenderer.render(value).jsonText }

  @Test func keyPathsRenderAsSwiftWritesThem() {
    #expect(text(\Point.x as PartialKeyPath<Point>) == #""\\Point.x""#)
    #expect(text(\Point.x as PartialKeyPath<Point>) != text(\Point.y as PartialKeyPath<Point>))
    #expect(StateDiff.diff(\Point.x as PartialKeyPath<Point>, \Point.y).map(\.json.jsonText) == [
      #"{"path":"","op":"replace","old":"\\Point.x","new":"\\Point.y"}"#
    ])
  }

  @Test func actorsShowWhatTheyAreNotTheirIsolatedState() {
    let counter = Counter()
    #expect(text(counter) == text(counter))
    #expect(text(counter).hasPrefix(#""<actor DefensiveRenderingTests.Counter#"#))
    #expect(StateDiff.diff(counter, counter).isEmpty)
  }

  @Test func descriptionsAreNeverAskedOfUnknownValues() {
    #expect(text(Trap()) == "{}")
    #expect(text(Opaque()) == "{}")
    #expect(text([Trap()]) == "[{}]")
  }

  @Test func foundationReferenceTypesRenderAsTheirValues() {
    #expect(text(NSDate(timeIntervalSince1970: 1_700_000_000.25)) == #""2023-11-14T22:13:20.250Z""#)
    #expect(text(NSData(data: Data("Hello".utf8))) == #""SGVsbG8=""#)
    #expect(text(NSError(domain: "Net", code: 7)) == #"{"domain":"Net","code":7}"#)
    #expect(text(NSError(domain: "Net", code: 7, userInfo: ["reason": "gone"])) == #"{"domain":"Net","code":7,"userInfo":{"reason":"gone"}}"#)
    #expect(text(NSDictionary(dictionary: ["b": 1, "a": 2])) == #"{"a":2,"b":1}"#)
    #expect(text(NSSet(array: [3, 1])) == "[1,3]")
    #expect(text(NSURL(string: "https://example.com/a")!) == #""https://example.com/a""#)
    #expect(text(NSIndexSet(indexesIn: NSRange(location: 2, length: 3))) == "[2,3,4]")
  }

  @Test func errorsInAnOptionalErrorRenderAndDiff() {
    #expect(text(Holder(error: ClassError("a"))) == #"{"error":{"message":"a"},"any":0}"#)
    #expect(text(Holder(error: NSError(domain: "Net", code: 7))) == #"{"error":{"domain":"Net","code":7},"any":0}"#)
    let changes = StateDiff.diff(Holder(error: ClassError("a")), Holder(error: ClassError("b")))
    #expect(changes.map(\.json.jsonText) == [#"{"path":"error.message","op":"replace","old":"a","new":"b"}"#])
    #expect(text(Holder(any: ClassError("x") as any Error)) == #"{"error":null,"any":{"message":"x"}}"#)
  }

  @Test func anNSArrayDiffsElementByElement() {
    #expect(StateDiff.diff(NSArray(array: [1]), NSArray(array: [2])).map(\.json.jsonText) == [
      #"{"path":"[0]","op":"replace","old":1,"new":2}"#
    ])
  }

  @Test func collectionMirrorsOfClassesRenderAndDiffAsCollections() {
    #expect(text(Playlist(["a"])) == #"["a"]"#)
    #expect(StateDiff.diff(Playlist(["a"]), Playlist(["a", "b"])).map(\.json.jsonText) == [
      #"{"path":"[1]","op":"insert","new":"b"}"#
    ])
    // A set mirror diffs by its renderings: never a `$ref` to the instance itself.
    #expect(StateDiff.diff(Tags(["a"]), Tags(["b"])).map(\.json.jsonText) == [
      #"{"path":"[0]","op":"replace","old":"a","new":"b"}"#
    ])
  }

  @Test func aChangedRowKeepsWhatIdentifiesIt() {
    let old: JSON = ["rows": [["id": 1, "title": "Milk", "count": 1, "done": false], ["id": 2, "title": "Eggs", "count": 2, "done": false]]]
    let new: JSON = ["rows": [["id": 1, "title": "Milk", "count": 1, "done": false], ["id": 2, "title": "Eggs", "count": 2, "done": true]]]
    #expect(DiffText.diff(old, new) == """
        {
          rows: [
            [0]: {…}
            [1]: {
              id: 2
              title: "Eggs"
              count: 2
      −       done: false
      +       done: true
            }
          ]
        }
      """)
  }
}
