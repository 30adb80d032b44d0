import Foundation
import Testing
@testable import LoupeCore

/// `IDOccurrences.eachOnce` against counting by hand, on ids read as bytes (`Int`, `UUID`)
/// and as themselves (`String`), with duplicates placed anywhere.
@Suite struct IDOccurrencesTests {
  struct Row<ID: Hashable>: Identifiable { var id: ID; var title: String; var isDone = false }
  /// An element whose `id` is computed: its ids are never read as bytes.
  struct Computed: Identifiable { var key: Int; var id: Int { key } }

  static func model<T: Identifiable>(_ ids: [T.ID], _ elements: [T]) -> Bool {
    ids.allSatisfy { id in elements.filter { $0.id == id }.count == 1 } && Set(ids).count == ids.count
  }

  @Test func agreesWithCountingOnRandomArrays() {
    var random = SystemRandomNumberGenerator()
    let uuids = (0..<64).map { _ in UUID() }
    for round in 0..<300 {
      let count = Int.random(in: 1...200, using: &random)
      let range = Int.random(in: 1...max(1, count * 2), using: &random)  // small ranges repeat ids
      let ints = (0..<count).map { _ in Int.random(in: -range...range, using: &random) }
      let edited = (0..<Int.random(in: 1...min(count, 70), using: &random)).map { _ in ints.randomElement(using: &random)! }
      let intRows = ints.map { Row(id: $0, title: "t\($0)") }
      #expect(IDOccurrences.eachOnce(edited, in: intRows) == Self.model(edited, intRows), "round \(round) Int")
      #expect(IDOccurrences.eachOnceByBits(edited, in: intRows) != nil)
      let stringRows = ints.map { Row(id: "id \($0)", title: "") }
      let editedStrings = edited.map { "id \($0)" }
      #expect(IDOccurrences.eachOnce(editedStrings, in: stringRows) == Self.model(editedStrings, stringRows), "round \(round) String")
      #expect(IDOccurrences.eachOnceByBits(editedStrings, in: stringRows) == nil)
      let uuidRows = ints.map { Row(id: uuids[abs($0) % uuids.count], title: "") }
      let editedUUIDs = edited.map { uuids[abs($0) % uuids.count] }
      #expect(IDOccurrences.eachOnce(editedUUIDs, in: uuidRows) == Self.model(editedUUIDs, uuidRows), "round \(round) UUID")
      let computed = ints.map { Computed(key: $0) }
      #expect(IDOccurrences.eachOnce(edited, in: computed) == Self.model(edited, computed), "round \(round) computed")
      #expect(IDOccurrences.eachOnceByBits(edited, in: computed) == nil)
    }
  }

  @Test func anIDEditedTwiceOrPresentTwiceIsNotOnce() {
    let rows = (0..<1_000).map { Row(id: $0, title: "") }
    #expect(IDOccurrences.eachOnce([3, 500, 999], in: rows))
    #expect(!IDOccurrences.eachOnce([3, 3], in: rows))
    #expect(!IDOccurrences.eachOnce([1_000], in: rows))  // absent
    var twice = rows
    twice[700].id = 500
    #expect(!IDOccurrences.eachOnce([3, 500], in: twice))
    #expect(IDOccurrences.eachOnce([3, 501], in: twice))
  }
}
