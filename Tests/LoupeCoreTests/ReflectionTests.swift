import Foundation
import Observation
import Testing
@testable import LoupeCore

private final class Parent {
  var name = "p"
  var child: Child?
  init() {}
}
private final class Child {
  weak var parent: Parent?
  unowned let owner: Parent
  var label = "c"
  init(owner: Parent) { self.owner = owner }
}
private struct Delegating {
  weak var delegate: Parent?
  var count = 1
}
@Observable private final class Counter {
  var count = 0
  var title = "t"
}
private struct Lazy {
  lazy var computed: Int = 42
  var plain = 1
}
private struct Box<T> { var value: T; var tag: String }
private struct Hidden: CustomReflectable {
  var secret = 1
  var shown = 2
  var customMirror: Mirror { Mirror(self, children: ["shown": shown]) }
}
/// Bool then String: padding bytes between them.
private struct Padded { var flag: Bool; var text: String; var small: Int8; var number: Int }
/// Values behind existentials inside the `Any`s the diff passes around: a tuple's elements of
/// type `any …` and an optional's payload of type `any Error` are existentials themselves.
private struct Circle: Equatable { var radius: Double; var label = "a label too long to fit inline in a container" }
private struct Failure: Error, Equatable { var code: Int; var detail = "a detail too long to fit inline in a container" }
private struct Canvas {
  var items: (any Equatable, Int)
  var failure: (any Error)?
  var tag = 1
}
private final class Node {
  var value: Int
  var next: Node?
  init(_ value: Int) { self.value = value }
}

@Suite struct ReflectionTests {
  @Test func weakAndUnownedPropertiesAreReadSafely() {
    let parent = Parent()
    let child = Child(owner: parent)
    child.parent = parent
    parent.child = child
    #expect(ValueRenderer.render(parent).jsonText == #"{"name":"p","child":{"parent":{"$ref":""},"owner":{"$ref":""},"label":"c"}}"#)
    #expect(ValueRenderer.render(Delegating(delegate: nil)).jsonText == #"{"delegate":null,"count":1}"#)
    #expect(ValueRenderer.render(Delegating(delegate: parent)).jsonText.hasPrefix(#"{"delegate":{"name":"p","child":{"parent":{"$ref":"delegate"}"#))
  }

  @Test func observableClassesShowTheirPropertiesByName() {
    #expect(ValueRenderer.render(Counter()).jsonText == #"{"count":0,"title":"t"}"#)
    let a = Counter()
    let b = Counter()
    b.count = 3
    #expect(StateDiff.diff(a, b).map(describe) == ["replace count: 0 → 3"])
  }

  @Test func lazyGenericAndCustomMirrors() {
    var lazy = Lazy()
    #expect(ValueRenderer.render(lazy).jsonText == #"{"computed":null,"plain":1}"#)
    _ = lazy.computed
    #expect(ValueRenderer.render(lazy).jsonText == #"{"computed":42,"plain":1}"#)
    #expect(ValueRenderer.render(Box(value: [1], tag: "x")).jsonText == #"{"value":[1],"tag":"x"}"#)
    #expect(ValueRenderer.render(Hidden()).jsonText == #"{"shown":2}"#)
    #expect(StateDiff.diff(Hidden(secret: 1), Hidden(secret: 2)).isEmpty)
  }

  /// The masked words `TypeInfo.sameBytes` compares are the meaningful bytes exactly: every
  /// byte of every field, no padding, nothing past the value's size (its last bytes, when the
  /// size is not a multiple of 8, compared one by one).
  @Test func meaningfulWordsAreTheMeaningfulBytes() {
    struct Short { var number: Int; var flag: Bool }  // size 9: one word, then one byte
    for (type, size) in [(Padded.self as any Any.Type, MemoryLayout<Padded>.size), (Short.self, MemoryLayout<Short>.size)] {
      let info = TypeInfo.of(type)
      #expect(size % 8 != 0 || type == Padded.self)
      // Flip each byte of a zeroed value in turn: `sameBytes` must see it exactly when a
      // meaningful range holds it.
      let a = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 8)
      let b = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 8)
      defer { a.deallocate(); b.deallocate() }
      a.initializeMemory(as: UInt8.self, repeating: 0, count: size)
      for byte in 0..<size {
        b.initializeMemory(as: UInt8.self, repeating: 0, count: size)
        b.storeBytes(of: 0x5A, toByteOffset: byte, as: UInt8.self)
        let meaningful = info.meaningfulBytes.contains { $0.contains(byte) }
        #expect(info.sameBytes(a, b) == !meaningful, "\(type) byte \(byte)")
      }
    }
    #expect(TypeInfo.of(Padded.self).meaningfulBytes == [0..<1, 8..<25, 32..<40])
    #expect(TypeInfo.of(Short.self).meaningfulBytes == [0..<9])
  }

  @Test func paddingDoesNotHideEqualityOrChanges() {
    let values = (0..<50).map { Padded(flag: $0 % 2 == 0, text: "text \($0) that is long enough to be on the heap", small: 1, number: $0) }
    var copy = values.map { $0 }  // element-wise copies: padding bytes are not copied
    copy.reserveCapacity(100)
    #expect(StateDiff.diff(values, copy).isEmpty)
    copy[7].small = 2
    #expect(StateDiff.diff(values, copy).map(describe) == ["replace [7].small: 1 → 2"])
  }

  /// `==` asked of values where they lie (`Reflection.equal`): the type's own `==`, with
  /// both values left as they were (nothing copied out, nothing released).
  @Test func equalityInPlaceIsTheTypesOwnAndLeavesBothValuesWhole() {
    struct Loose: Equatable, Identifiable {
      var id: Int
      var name: String
      var cache: [Int]  // not part of equality
      static func == (a: Loose, b: Loose) -> Bool { a.id == b.id && a.name == b.name }
    }
    let name = String(repeating: "long enough for the heap ", count: 2)
    var a = Loose(id: 1, name: name, cache: [1])
    var b = Loose(id: 1, name: name, cache: [2, 3])
    #expect(withUnsafeBytes(of: &a) { pa in withUnsafeBytes(of: &b) { pb in Reflection.equal(pa.baseAddress!, pb.baseAddress!, as: Loose.self) } })
    b.name += "!"
    #expect(!withUnsafeBytes(of: &a) { pa in withUnsafeBytes(of: &b) { pb in Reflection.equal(pa.baseAddress!, pb.baseAddress!, as: Loose.self) } })
    #expect(withUnsafeBytes(of: &a) { pa in Reflection.equal(pa.baseAddress!, pa.baseAddress!, as: Loose.self) })  // the same memory
    #expect(a.name == name && a.cache == [1] && b.name == name + "!" && b.cache == [2, 3])
    // An identified array's `==` asks it of each element whose bytes differ, in place.
    let rows = IdentifiedArrayOf<Loose>(uniqueElements: (0..<100).map { Loose(id: $0, name: "\(name)\($0)", cache: []) })
    var recached = rows
    recached[id: 40]?.cache = [40]
    #expect(rows == recached)
    recached[id: 41]?.name = "renamed"
    #expect(rows != recached)
    // A type holding a string is compared by its rendering, not its `==` (which calls
    // canonically equivalent spellings equal): the cache `==` ignores shows as changed too.
    #expect(StateDiff.diff(rows, recached).map(describe) == [
      "insert [id: 40].cache[0]: ∅ → 40", "replace [id: 41].name: \"\(name)41\" → \"renamed\"",
    ])
  }

  @Test func classCyclesDiffWithoutLooping() throws {
    let a = Node(1)
    a.next = a
    let b = Node(2)
    b.next = b
    #expect(StateDiff.diff(a, b).map(describe) == ["replace value: 1 → 2"])
    #expect(try StateDiff.diff(a, b).apply(to: ValueRenderer.render(a)) == ValueRenderer.render(b))
    let c = Node(1)
    c.next = Node(5)
    #expect(StateDiff.diff(a, c).map(describe) == [#"replace next: {"$ref":""} → {"value":5,"next":null}"#])
  }

  @Test func valuesInsideNestedExistentialsDiffByTheirContent() throws {
    let a = Canvas(items: (Circle(radius: 1), 1), failure: Failure(code: 1))
    var b = a
    #expect(StateDiff.diff(a, b).isEmpty)
    b.items = (Circle(radius: 2), 1)
    b.failure = Failure(code: 2)
    #expect(StateDiff.diff(a, b).map(describe) == ["replace items[0].radius: 1.0 → 2.0", "replace failure.code: 1 → 2"])
    #expect(try StateDiff.diff(a, b).apply(to: ValueRenderer.render(a)) == ValueRenderer.render(b))
    // Equal content in different containers: nothing changed.
    let c = Canvas(items: (Circle(radius: 1), 1), failure: Failure(code: 1))
    #expect(StateDiff.diff(a, c).isEmpty)
    #expect(Reflection.unwrap(a.failure as Any).map { "\(type(of: $0))" } == "Failure")
  }

  @Test func typeNamesLoseTheirModules() {
    #expect(TypeName.clean("MyApp.PageFeature.Action") == "PageFeature.Action")
    #expect(TypeName.clean("MyApp.Box<Swift.Int>.Action") == "Box<Int>.Action")
    #expect(TypeName.clean("Swift.Dictionary<Swift.String, Swift.Array<MyApp.Todo>>") == "Dictionary<String, Array<Todo>>")
    #expect(TypeName.clean("MyApp.(unknown context at $10a4c3a50).(unknown context at $10a4c3a58).Local") == "Local")
    #expect(TypeName.clean("MyApp.(Hidden in _A1B2C3).Action") == "Hidden.Action")
    #expect(TypeName.clean("(Swift.Int, label: Swift.String)") == "(Int, label: String)")
    #expect(TypeName.clean("(Swift.Int) -> Swift.String") == "(Int) -> String")
    #expect(TypeName.clean("any MyApp.Shape") == "any Shape")
    #expect(TypeName.clean("Any") == "Any")
  }
}

private enum Outer {
  enum Action { case tapped, moved(x: Int) }
}
private struct Generic<T> {
  enum Action { case loaded(T) }
}
private struct StructAction { var name = "x" }

@Suite struct ActionLabelTests {
  @Test func typeNameThenCase() {
    #expect(ValueRenderer.actionLabel(Outer.Action.tapped) == "Outer.Action.tapped")
    #expect(ValueRenderer.actionLabel(Outer.Action.moved(x: 1)) == "Outer.Action.moved")
    #expect(ValueRenderer.actionLabel(Generic<Int>.Action.loaded(3)) == "Generic<Int>.Action.loaded")
    #expect(ValueRenderer.actionLabel(StructAction()) == "StructAction")
    #expect(ValueRenderer.actionLabel(Outer.Action?.some(.tapped) as Any) == "Outer.Action.tapped")
    #expect(ValueRenderer.actionLabel(Outer.Action?.none as Any) == "Optional.none")
    #expect(ValueRenderer.typeName(Outer.Action.self) == "Outer.Action")
  }
}

/// Each node refers to the next one twice: 2^40 paths through 41 instances.
private final class Diamond {
  var value: Int
  var left: Diamond?
  var right: Diamond?
  init(_ value: Int, next: Diamond?) {
    self.value = value
    left = next
    right = next
  }
  static func chain(_ length: Int, bottom: Int) -> Diamond {
    var node = Diamond(bottom, next: nil)
    for index in 0..<length { node = Diamond(index, next: node) }
    return node
  }
}

@Suite struct BudgetTests {
  @Test func aDAGOfSharedInstancesRendersWithinTheNodeBudget() {
    let options = RenderOptions(maxNodes: 2_000)
    let text = ValueRenderer.render(Diamond.chain(40, bottom: 0), options: options).jsonText
    #expect(text.contains(RenderMarker.maxSize))
  }

  @Test func aDiffThatWouldOutgrowTheBudgetReplacesTheWhole() throws {
    let options = RenderOptions(maxNodes: 2_000)
    let a = Diamond.chain(20, bottom: 0)
    let b = Diamond.chain(20, bottom: 1)
    let changes = StateDiff.diff(a, b, options: options)
    #expect(changes.count == 1 && changes[0].path == "" && changes[0].op == .replace)
    #expect(try changes.apply(to: ValueRenderer.render(a, options: options)) == ValueRenderer.render(b, options: options))
    // Small enough: the detailed diff.
    let small = StateDiff.diff(Diamond.chain(2, bottom: 0), Diamond.chain(2, bottom: 1))
    #expect(small.map(describe) == ["replace left.left.value: 0 → 1", "replace left.right.value: 0 → 1", "replace right.left.value: 0 → 1", "replace right.right.value: 0 → 1"])
  }
}
