import Foundation
import Testing
@testable import LoupeCore

// Foundation and standard library types whose stored properties are their implementation
// (`IndexSet`'s ranges, `Decimal`'s mantissa words, `NSNumber`'s CF header): each renders
// as what it means.

private func text(_ value: Any, _ options: RenderOptions = .default) -> String {
  ValueRenderer.render(value, options: options).jsonText
}

private func diff<T>(_ old: T, _ new: T, sourceLocation: SourceLocation = #_sourceLocation) -> [String] {
  let changes = StateDiff.diff(old, new)
  let replayed = try? changes.apply(to: ValueRenderer.render(old))
  #expect(replayed == ValueRenderer.render(new), "replay", sourceLocation: sourceLocation)
  return changes.map(describe)
}

@Suite struct StandardTypesRenderingTests {
  @Test func indexSetsAreSortedArraysOfTheirIntegers() {
    #expect(text(IndexSet([7, 1, 2, 0])) == "[0,1,2,7]")
    #expect(text(IndexSet()) == "[]")
    #expect(text(IndexSet(integersIn: 0..<1_000_000), RenderOptions(maxCollectionCount: 3)) == #"[0,1,2,"… 999997 more"]"#)
    struct Selection { var rows = IndexSet([1, 3]) }
    #expect(text(Selection()) == #"{"rows":[1,3]}"#)
  }

  @Test func indexSetsDiffAsArrays() {
    #expect(diff(IndexSet([1, 3]), IndexSet([1, 2, 3])) == ["insert [1]: ∅ → 2"])
    #expect(diff(IndexSet([1, 3]), IndexSet([3])) == ["remove [0]: 1 → ∅"])
    #expect(diff(IndexSet([1, 3]), IndexSet([1, 3])) == [])
  }

  @Test func rangesAreTheirSwiftText() {
    #expect(text(0..<3) == #""0..<3""#)
    #expect(text(0...3) == #""0...3""#)
    #expect(text(-2..<(-1)) == #""-2..<-1""#)
    #expect(text(0.0...1.5) == #""0.0...1.5""#)
    #expect(text(5...) == #""5...""#)
    #expect(text(..<3) == #""..<3""#)
    #expect(text(...3) == #""...3""#)
    #expect(text("a"..<"c") == #""a..<c""#)
    let start = Date(timeIntervalSince1970: 1_700_000_000.25)
    #expect(text(start...start.addingTimeInterval(60)) == #""2023-11-14T22:13:20.250Z...2023-11-14T22:14:20.250Z""#)
    #expect(text(Double.infinity...Double.infinity) == #""inf...inf""#)
    struct Page { var visible: Range<Int>? = 10..<20 }
    #expect(text(Page()) == #"{"visible":"10..<20"}"#)
    #expect(diff(Page(), Page(visible: 10..<30)) == [#"replace visible: "10..<20" → "10..<30""#])
  }

  @Test func stringIndicesShowTheirOffset() {
    let word = "héllo"
    #expect(text(word.index(after: word.startIndex)) == #""1[utf8]""#)
  }

  @Test func decimalsAreNumbersUnlessADoubleWouldRoundThem() {
    #expect(text(Decimal(string: "19.99")!) == "19.99")
    #expect(text(Decimal(string: "-0.5")!) == "-0.5")
    #expect(text(Decimal(1)) == "1.0")
    #expect(text(Decimal(string: "1e30")!) == "1e+30")
    #expect(text(Decimal(string: "12345678901234567890.123")!) == #""12345678901234567890.123""#)
    #expect(text(Decimal(string: "3.14159265358979323846264338327950288")!) == #""3.14159265358979323846264338327950288""#)
    #expect(text(Decimal.nan) == #""nan""#)
  }

  @Test func durationsAreSecondsInWords() {
    #expect(text(Duration.milliseconds(1500)) == #""1.5 seconds""#)
    #expect(text(Duration.seconds(3)) == #""3.0 seconds""#)
    #expect(text(Duration.seconds(-1.25)) == #""-1.25 seconds""#)
    #expect(text(Duration.nanoseconds(1)) == #""1e-09 seconds""#)
  }

  @Test func measurementsCalendarsLocalesAndTimeZones() {
    #expect(text(Measurement(value: 3.5, unit: UnitLength.kilometers)) == #"{"value":3.5,"unit":"km"}"#)
    #expect(text(Measurement(value: -4, unit: UnitTemperature.celsius)) == #"{"value":-4.0,"unit":"°C"}"#)
    #expect(text(Calendar(identifier: .gregorian)) == #""gregorian""#)
    #expect(text(Calendar(identifier: .iso8601)) == #""iso8601""#)
    #expect(text(Locale(identifier: "fr_FR")) == #""fr_FR""#)
    #expect(text(TimeZone(identifier: "Europe/Paris")!) == #""Europe/Paris""#)
  }

  @Test func sequencesAndCharacters() {
    #expect(text(ContiguousArray([1, 2])) == "[1,2]")
    #expect(text([1, 2, 3, 4][1...2]) == "[2,3]")
    #expect(text(Character("👍🏽")) == #""👍🏽""#)
    #expect(text(SIMD2<Float>(1, 2.5)) == "[1.0,2.5]")
    #expect(text(SIMD4<Int32>(1, 2, 3, 4)) == "[1,2,3,4]")
    #expect(text(AnyHashable(3)) == "3")
    #expect(text([AnyHashable(2): "int", AnyHashable("a"): "string"]) == #"{"2":"int","a":"string"}"#)
    #expect(text(Set([AnyHashable(2), AnyHashable("a")])) == #"[2,"a"]"#)
    #expect(diff(AnyHashable(2), AnyHashable(3)) == ["replace : 2 → 3"])
    #expect(diff(AnyHashable(2), AnyHashable("2")) == [#"replace : 2 → "2""#])
  }

  @Test func attributedStringsAreTheirTextAndTheirRuns() {
    #expect(text(AttributedString("plain")) == #""plain""#)
    var linked = AttributedString("hi there")
    linked[linked.range(of: "hi")!].link = URL(string: "https://example.com")
    #expect(text(linked) == #"[{"text":"hi","attributes":{"NSLink":"https://example.com"}},{"text":" there"}]"#)
    #expect(diff(AttributedString("plain"), linked) == [#"replace : "plain" → [{"text":"hi","attributes":{"NSLink":"https://example.com"}},{"text":" there"}]"#])
  }

  @Test func foundationObjectsAreTheirSwiftValues() {
    #expect(text(NSNumber(value: true)) == "true")
    #expect(text(NSNumber(value: false)) == "false")
    #expect(text(NSNumber(value: 3)) == "3")
    #expect(text(NSNumber(value: Int8(-3))) == "-3")
    #expect(text(NSNumber(value: 2.5)) == "2.5")
    #expect(text(NSNumber(value: Float(0.1))) == "0.1")
    #expect(text(NSNumber(value: UInt64.max)) == #""18446744073709551615""#)
    #expect(text(NSString(string: "hé")) == #""hé""#)
    #expect(text(NSMutableString(string: "m")) == #""m""#)
    #expect(text(NSNull()) == "null")
    #expect(text(NSArray(array: [1, "a"])) == #"[1,"a"]"#)
    #expect(text(NSDictionary(dictionary: ["b": 1, "a": true])) == #"{"a":true,"b":1}"#)
    #expect(diff(NSNumber(value: 1), NSNumber(value: 2)) == ["replace : 1 → 2"])
  }
}
