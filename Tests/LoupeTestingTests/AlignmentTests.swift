@testable import LoupeTesting
import Testing

/// How expected items are lined up with actual ones for the −/+ view.
@Suite struct AlignmentTests {
  func steps(_ expected: String, _ actual: String, tableLimit: Int = Alignment.tableLimit) -> [Alignment.Step] {
    let e = Array(expected)
    let a = Array(actual)
    return Alignment(expected: e.count, actual: a.count, tableLimit: tableLimit) { e[$0] == a[$1] }.steps
  }

  @Test func aMissingItemComesBeforeTheUnexpectedOneInItsPlace() {
    #expect(steps("axc", "ayc") == [
      .matched(expected: 0, actual: 0), .missing(expected: 1), .unexpected(actual: 1), .matched(expected: 2, actual: 2),
    ])
  }

  @Test func asManyItemsAsPossibleMatch() {
    // Greedy matching would take the first "b" and lose "c", "b" after it.
    let aligned = steps("acb", "abcb")
    #expect(aligned.filter { if case .matched = $0 { true } else { false } }.count == 3)
  }

  @Test func pastTheTableLimitItemsMatchGreedilyInOrder() {
    #expect(steps("ab", "xaybz", tableLimit: 1) == [
      .unexpected(actual: 0), .matched(expected: 0, actual: 1), .unexpected(actual: 2), .matched(expected: 1, actual: 3),
      .unexpected(actual: 4),
    ])
    #expect(steps("aq", "ab", tableLimit: 1) == [.matched(expected: 0, actual: 0), .missing(expected: 1), .unexpected(actual: 1)])
  }

  @Test func emptySides() {
    #expect(steps("", "") == [])
    #expect(steps("ab", "") == [.missing(expected: 0), .missing(expected: 1)])
    #expect(steps("", "ab") == [.unexpected(actual: 0), .unexpected(actual: 1)])
  }
}
