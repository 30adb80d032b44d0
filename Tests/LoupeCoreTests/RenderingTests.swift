import Foundation
import Testing
@testable import LoupeCore

private func text(_ value: Any, _ options: RenderOptions = .default) -> String {
  ValueRenderer.render(value, options: options).jsonText
}

private struct Point { var x: Int; var y: Int }
private struct Settings { var theme = "dark"; var point = Point(x: 1, y: 2); var volume: Double = 0.5 }
private class Animal { var name = "Rex"; init() {} }
private final class Dog: Animal { var good = true }
private final class Node {
  var value: Int
  var next: Node?
  init(_ value: Int, next: Node? = nil) {
    self.value = value
    self.next = next
  }
}
private enum Mode: CustomStringConvertible {
  case idle
  case playing(Double)
  case seeking(to: Int)
  case pair(Int, String)
  case labelled(speed: Int, loop: Bool)
  case mixed(Int, loop: Bool)
  indirect case nested(Mode)
  var description: String { "not the case name" }
}
private enum Key: Hashable { case a, b }
private struct GridKey: Hashable { var row: Int; var column: Int }
private protocol Shape {}
private struct Circle: Shape { var radius: Int }
private struct Holder { var shape: any Shape; var anything: Any }

private struct Tagged: CustomLoupeRepresentable {
  var rawValue: Int
  var customLoupeValue: Any { rawValue }
}
private struct Color: CustomLoupeRepresentable {
  var customLoupeValue: Any { JSON.string("#FF8800") }
}
private struct Recursive: CustomLoupeRepresentable {
  var value = 1
  var customLoupeValue: Any { self }
}
private struct Password: LoupeRedacted { var text: String }
private struct Login { var user = "blob"; var password = Password(text: "hunter2"); var token: String? = "secret" }

private enum LoginAction {
  case passwordChanged(String)
  case userChanged(String)
  case form(user: String, password: String)
  case submit
}
private enum AppAction { case login(LoginAction) }

@Suite struct RenderingTests {
  @Test func structsRenderFieldsInDeclarationOrder() {
    #expect(text(Settings()) == #"{"theme":"dark","point":{"x":1,"y":2},"volume":0.5}"#)
    #expect(text(Point(x: -1, y: 0)) == #"{"x":-1,"y":0}"#)
  }

  @Test func classesRenderAsObjectsWithSuperclassFieldsFirst() {
    #expect(text(Dog()) == #"{"name":"Rex","good":true}"#)
  }

  @Test func sharedInstancesRenderInFullAndCyclesAsReferences() {
    let shared = Node(7)
    #expect(text([shared, shared]) == #"[{"value":7,"next":null},{"value":7,"next":null}]"#)
    let a = Node(1)
    let b = Node(2, next: a)
    a.next = b
    #expect(text(a) == #"{"value":1,"next":{"value":2,"next":{"$ref":""}}}"#)
    #expect(text(["list": a]) == #"{"list":{"value":1,"next":{"value":2,"next":{"$ref":"[\"list\"]"}}}}"#)
    let selfLoop = Node(3)
    selfLoop.next = selfLoop
    #expect(text(Settings?.none as Any) == "null")
    #expect(ValueRenderer.render(selfLoop, at: "pages[id: 2].head").jsonText == #"{"value":3,"next":{"$ref":"pages[id: 2].head"}}"#)
  }

  @Test func enumsRenderTheirCaseNameAndPayload() {
    #expect(text(Mode.idle) == #""idle""#)
    #expect(text(Mode.playing(1.5)) == #"{"playing":1.5}"#)
    #expect(text(Mode.seeking(to: 3)) == #"{"seeking":{"to":3}}"#)
    #expect(text(Mode.pair(1, "a")) == #"{"pair":[1,"a"]}"#)
    #expect(text(Mode.labelled(speed: 2, loop: true)) == #"{"labelled":{"speed":2,"loop":true}}"#)
    #expect(text(Mode.mixed(2, loop: false)) == #"{"mixed":{"0":2,"loop":false}}"#)
    #expect(text(Mode.nested(.nested(.idle))) == #"{"nested":{"nested":"idle"}}"#)
  }

  @Test func optionalsRenderAsNullOrTheirValue() {
    #expect(text(Int?.none as Any) == "null")
    #expect(text(Int?.some(3) as Any) == "3")
    // Nested optionals flatten: `.some(nil)` and `nil` both render as null.
    #expect(text(Int??.some(nil) as Any) == "null")
    #expect(text(Int??.some(4) as Any) == "4")
    #expect(text([1, nil, 3] as [Int?]) == "[1,null,3]")
  }

  @Test func collections() {
    #expect(text([1, 2, 3]) == "[1,2,3]")
    #expect(text([Int]()) == "[]")
    #expect(text(ContiguousArray([true])) == "[true]")
    #expect(text([1, 2, 3, 4][1...2]) == "[2,3]")
    struct Todo: Identifiable { var id: Int; var title: String }
    let todos: IdentifiedArrayOf<Todo> = [Todo(id: 2, title: "b"), Todo(id: 1, title: "a")]
    #expect(text(todos) == #"[{"id":2,"title":"b"},{"id":1,"title":"a"}]"#)
  }

  @Test func dictionariesRenderWithSortedKeys() {
    #expect(text(["b": 1, "a": 2, "B": 3, "é": 4]) == #"{"B":3,"a":2,"b":1,"é":4}"#)
    #expect(text([10: "x", 2: "y", -1: "z"]) == #"{"-1":"z","2":"y","10":"x"}"#)
    #expect(text([Key.b: 1, Key.a: 2]) == #"{"a":2,"b":1}"#)
    #expect(text([GridKey(row: 1, column: 2): "x"]) == #"{"{\"row\":1,\"column\":2}":"x"}"#)
    #expect(text([UUID(uuidString: "00000000-0000-0000-0000-000000000001")!: true]) == #"{"00000000-0000-0000-0000-000000000001":true}"#)
    #expect(text([String: Int]()) == "{}")
  }

  @Test func setsRenderSorted() {
    #expect(text(Set([10, 2, 33, -5])) == "[-5,2,10,33]")
    #expect(text(Set(["b", "a", "c"])) == #"["a","b","c"]"#)
    #expect(text(Set([Key.b, Key.a])) == #"["a","b"]"#)
  }

  @Test func tuples() {
    #expect(text((1, "a")) == #"[1,"a"]"#)
    #expect(text((x: 1, y: 2)) == #"{"x":1,"y":2}"#)
    #expect(text((1, label: true)) == #"{"0":1,"label":true}"#)
    #expect(text(()) == "[]")
  }

  @Test func foundationValues() {
    #expect(text(Date(timeIntervalSince1970: 1_700_000_000.25)) == #""2023-11-14T22:13:20.250Z""#)
    #expect(text(Date(timeIntervalSince1970: 0)) == #""1970-01-01T00:00:00.000Z""#)
    #expect(text(UUID(uuidString: "deadbeef-dead-beef-dead-beefdeadbeef")!) == #""DEADBEEF-DEAD-BEEF-DEAD-BEEFDEADBEEF""#)
    #expect(text(URL(string: "https://example.com/a b?q=1")!) == #""https://example.com/a%20b?q=1""#)
    #expect(text(URL(fileURLWithPath: "/tmp/x.loupe")) == #""file:///tmp/x.loupe""#)
    #expect(text(Data("Hello".utf8)) == #""SGVsbG8=""#)
    #expect(text(Data()) == #""""#)
    #expect(text(Data(repeating: 0, count: 10), RenderOptions(maxStringLength: 8)) == #""AAAAAAAA… (4 more bytes)""#)
    #expect(text(Decimal(string: "19.99")!) == "19.99")
    #expect(text(Locale(identifier: "fr_FR")) == #""fr_FR""#)
    #expect(text(TimeZone(identifier: "Europe/Paris")!) == #""Europe/Paris""#)
    #expect(text(Duration.milliseconds(1500)) == #""1.5 seconds""#)
  }

  @Test func integersOfEveryWidth() {
    #expect(text(Int8.min) == "-128")
    #expect(text(Int16.max) == "32767")
    #expect(text(Int32.min) == "-2147483648")
    #expect(text(Int64.min) == "-9223372036854775808")
    #expect(text(UInt8.max) == "255")
    #expect(text(UInt16.max) == "65535")
    #expect(text(UInt32.max) == "4294967295")
    #expect(text(UInt(42)) == "42")
    #expect(text(UInt64(Int.max)) == "9223372036854775807")
    // Past Int's range: the decimal digits as a string.
    #expect(text(UInt64.max) == #""18446744073709551615""#)
    #expect(text(Int128(Int.max) + 1) == #""9223372036854775808""#)
    #expect(text(UInt128(5)) == "5")
  }

  @Test func floatingPointNumbers() {
    #expect(text(1.5) == "1.5")
    #expect(text(2.0) == "2.0")
    #expect(text(-0.0) == "-0.0")
    #expect(text(Float(0.1)) == "0.1")
    #expect(text(CGFloat(0.25)) == "0.25")
    #expect(text(Double.nan) == #""nan""#)
    #expect(text(Double.infinity) == #""inf""#)
    #expect(text(-Double.infinity) == #""-inf""#)
    #expect(text(Float.nan) == #""nan""#)
    #expect(text(-Float.infinity) == #""-inf""#)
    #if !((os(macOS) || targetEnvironment(macCatalyst)) && arch(x86_64))
      #expect(text(Float16(0.5)) == "0.5")
    #endif
  }

  @Test func boolsCharactersAndStrings() {
    #expect(text(true) == "true")
    #expect(text(Character("é")) == #""é""#)
    #expect(text("abcdef".dropFirst(2)) == #""cdef""#)
    #expect(text(Unicode.Scalar(65)!) == #""A""#)
    #expect(text("static" as StaticString) == #""static""#)
    #expect(text("tab\tquote\"nul\u{0}bell\u{7}👍🏽") == #""tab\tquote\"nul\u0000bell\u0007👍🏽""#)
    #expect(text("") == #""""#)
  }

  @Test func longStringsAreCut() {
    let options = RenderOptions(maxStringLength: 5)
    #expect(text("abcdefgh", options) == #""abcde… (3 more characters)""#)
    #expect(text("abcde", options) == #""abcde""#)
    // Cut by characters, never inside one.
    #expect(text("👍🏽👍🏽👍🏽👍🏽👍🏽👍🏽👍🏽", options) == #""👍🏽👍🏽👍🏽👍🏽👍🏽… (2 more characters)""#)
  }

  @Test func collectionsAreCapped() {
    let options = RenderOptions(maxCollectionCount: 2)
    #expect(text(Array(1...5), options) == #"[1,2,"… 3 more"]"#)
    #expect(text(Set(1...5), options) == #"[1,2,"… 3 more"]"#)
    #expect(text(["a": 1, "b": 2, "c": 3], options) == #"{"a":1,"b":2,"…":"1 more"}"#)
    #expect(text([1, 2], options) == "[1,2]")
  }

  @Test func depthIsCapped() {
    let options = RenderOptions(maxDepth: 2)
    // `["a"]["b"]` is at depth 2, `["a"]["b"]["c"]` at depth 3.
    #expect(text(["a": ["b": ["c": 1]]], options) == #"{"a":{"b":{"c":"… (max depth)"}}}"#)
    #expect(text([[1]], options) == "[[1]]")
  }

  @Test func theNodeBudgetBoundsAHugeValue() {
    let options = RenderOptions(maxNodes: 5)
    // Five values rendered (the root, [0], [0][0], [0][1], [1]); then collections stop.
    #expect(text([[1, 2], [3, 4], [5, 6]], options) == #"[[1,2],["… 2 more"],"… 1 more"]"#)
    #expect(text(Point(x: 1, y: 2), RenderOptions(maxNodes: 2)) == #"{"x":1,"y":"… (max size)"}"#)
  }

  @Test func aTypeCanRenderItself() {
    #expect(text(Tagged(rawValue: 42)) == "42")
    #expect(text(["color": Color()]) == ##"{"color":"#FF8800"}"##)
    // A stand-in that returns itself is followed a bounded number of times, then reflected.
    #expect(text(Recursive()) == #"{"value":1}"#)
  }

  @Test func redactedTypesAndPaths() {
    #expect(text(Login()) == #"{"user":"blob","password":"<redacted>","token":"secret"}"#)
    let options = RenderOptions(redactedPaths: [Glob("token"), Glob("*[\"secret\"]")])
    #expect(text(Login(), options) == #"{"user":"blob","password":"<redacted>","token":"<redacted>"}"#)
    #expect(text(["a": ["secret": [1, 2]], "b": ["open": 1]], options) == #"{"a":{"secret":"<redacted>"},"b":{"open":1}}"#)
    // A redacted value is never rendered: no length, no truncation marker.
    let long = String(repeating: "x", count: 100)
    #expect(text(["token": long], RenderOptions(maxStringLength: 4, redactedPaths: [Glob("*token*")])) == #"{"token":"<redacted>"}"#)
    // Redacted even when it is nil: a path glob hides whatever is there.
    #expect(text(Login(token: nil), options) == #"{"user":"blob","password":"<redacted>","token":"<redacted>"}"#)
  }

  @Test func actionPayloadsRenderAtTheirCaseNamesSoPathGlobsRedactThem() {
    let options = RenderOptions(redactedPaths: [Glob("*password*")])
    #expect(text(LoginAction.passwordChanged("hunter2"), options) == #"{"passwordChanged":"<redacted>"}"#)
    #expect(text(LoginAction.userChanged("blob"), options) == #"{"userChanged":"blob"}"#)
    #expect(text(LoginAction.form(user: "blob", password: "hunter2"), options) == #"{"form":{"user":"blob","password":"<redacted>"}}"#)
    #expect(text(AppAction.login(.passwordChanged("hunter2")), options) == #"{"login":{"passwordChanged":"<redacted>"}}"#)
    #expect(text(LoginAction.submit, options) == #""submit""#)
  }

  @Test func renderingAtAPathMatchesGlobsAgainstFullPaths() {
    let options = RenderOptions(redactedPaths: [Glob("pages[id: 2].*")])
    #expect(ValueRenderer.render(Point(x: 1, y: 2), at: "pages[id: 2]", options: options).jsonText == #"{"x":"<redacted>","y":"<redacted>"}"#)
    #expect(ValueRenderer.render(Point(x: 1, y: 2), at: "pages[id: 3]", options: options).jsonText == #"{"x":1,"y":2}"#)
    // The depth cap counts from the root.
    #expect(ValueRenderer.render(["a": 1], at: "x.y", options: RenderOptions(maxDepth: 2)).jsonText == #"{"a":"… (max depth)"}"#)
  }

  @Test func existentialsFunctionsAndTypes() {
    #expect(text(Holder(shape: Circle(radius: 2), anything: [1])) == #"{"shape":{"radius":2},"anything":[1]}"#)
    #expect(text({ (x: Int) in x }) == #""<function>""#)
    #expect(text(Int.self) == #""Int""#)
    #expect(text([String: Int].self) == #""Dictionary<String, Int>""#)
  }

  @Test func jsonInsideAStateRendersAsItselfWithinTheCaps() {
    let json: JSON = ["b": [1, 2, 3], "a": .double(.nan), "s": "abcdef"]
    #expect(text(json) == #"{"b":[1,2,3],"a":"nan","s":"abcdef"}"#)
    #expect(text(json, RenderOptions(maxCollectionCount: 2, maxStringLength: 3)) == #"{"b":[1,2,"… 1 more"],"a":"nan","…":"1 more"}"#)
    #expect(text(["odd key": ["k": 1]] as JSON, RenderOptions(redactedPaths: [Glob("[\"odd key\"].k")])) == #"{"odd key":{"k":"<redacted>"}}"#)
  }
}
