import Foundation
import Testing
import TestSupport
@testable import LoupeCore

/// The path texts a store's runtime keeps across actions (`PathTexts`): always the text
/// `StatePath` writes for the components asked, whatever was asked before — the same names
/// stored apart, paths that share a slot, paths too long to keep — and the very text made
/// before when the same path comes again.
@Suite struct PathTextsTests {
  /// Field names: literals (one storage each), and the same texts built at run time (other
  /// storages: equal components, other bits).
  private static let names: [String] = {
    let literals = ["rows", "isDone", "title", "a", "settings", "selectionIsAVeryLongFieldName", "é"]
    return literals + literals.map { String(decoding: Array($0.utf8), as: UTF8.self) }
  }()

  private static func component(_ rng: inout SplitMix64) -> StatePath.Component {
    switch Int.random(in: 0..<8, using: &rng) {
    case 0, 1, 2: .field(names[Int.random(in: 0..<names.count, using: &rng)])
    case 3: .index(Int.random(in: -2..<40, using: &rng))
    case 4: .id(.int(Int.random(in: -3..<40, using: &rng)))
    case 5: .id(.string(names[Int.random(in: 0..<names.count, using: &rng)]))
    case 6: .id(.object(JSONObject([JSONObject.Member("group", .int(Int.random(in: 0..<3, using: &rng)))])))
    default: .key(names[Int.random(in: 0..<names.count, using: &rng)])
    }
  }

  /// 50,000 paths drawn from a pool of 300 (so most come again, and many share slots), of 0
  /// to 10 components (longer than the kept ones too).
  @Test func aTextIsAlwaysThePathsOwn() {
    var rng = SplitMix64(seed: 61)
    let pool: [[StatePath.Component]] = (0..<300).map { _ in
      (0..<Int.random(in: 0...10, using: &rng)).map { _ in Self.component(&rng) }
    }
    let texts = PathTexts()
    for draw in 0..<50_000 {
      let components = pool[Int.random(in: 0..<pool.count, using: &rng)]
      #expect(texts.text(of: components) == StatePath(components).description, "draw \(draw): \(components)")
    }
  }

  @Test func theSamePathAgainIsTheSameText() {
    let texts = PathTexts()
    let components: [StatePath.Component] = [.field("rows"), .id(.int(3)), .field("isDone")]
    let first = texts.text(of: components)
    #expect(first == "rows[id: 3].isDone")
    // Asked again (from another array holding the same components): the string made then.
    let again = texts.text(of: Array(components.prefix(2)) + [.field("isDone")])
    #expect(unsafeBitCast(again, to: (UInt64, UInt64).self) == unsafeBitCast(first, to: (UInt64, UInt64).self))
    #expect(texts.text(of: []) == "" && texts.text(of: [.index(2), .field("a")]) == "[2].a")
  }
}
