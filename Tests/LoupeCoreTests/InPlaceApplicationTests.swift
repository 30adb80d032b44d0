import Testing
import TestSupport
@testable import LoupeCore

/// Changes applied in place (``Change/apply(to:)-(inout)``, issue 33 item 18) do what an
/// applier that builds every value anew does, fail where it fails leaving the value as it was,
/// and never reach into a copy that shares the value's storage.
@Suite struct InPlaceApplicationTests {
  @Test(arguments: [1, 2, 3, 4] as [UInt64]) func agreesWithACopyingApplierAndLeavesCopiesAlone(seed: UInt64) {
    var random = SplitMix64(seed: seed)
    var applied = 0
    var failed = 0
    for _ in 0..<150 {
      var state = Self.tree(&random, depth: 0)
      var expected = state
      // The same changes through a directory of the arrays' ids (``IDDirectory``): the same
      // outcome every time.
      var hinted = state
      let directory = IDDirectory()
      for _ in 0..<25 {
        let change = Self.change(in: state, &random)
        let kept = state  // shares every buffer with `state`
        let keptText = kept.jsonText
        let reference = Result { () throws(ChangeApplicationError) in try ReferenceApplier.apply(change, to: expected) }
        let before = state
        let components = (try? StatePath(parsing: change.path))?.components ?? []
        let hintedOutcome = (try? change.apply(to: &hinted, at: components[...], directory: directory)) != nil
        do {
          try change.apply(to: &state)
          applied += 1
          #expect(state == (try? reference.get()), "\(change) on \(before.jsonText)")
          #expect(hintedOutcome && hinted == state, "with a directory: \(change) on \(before.jsonText)")
        } catch {
          failed += 1
          #expect(state == before, "a failed \(change) changed the value")
          #expect(!hintedOutcome && hinted == state, "with a directory: \(change) on \(before.jsonText)")
          guard case .failure(let expectedError) = reference else {
            Issue.record("\(change) failed (\(error)) where the reference applied it")
            continue
          }
          #expect(error.path == expectedError.path)
        }
        #expect(kept.jsonText == keptText, "a copy changed with \(change)")
        if case .success(let value) = reference { expected = value }
        if state != expected { break }
      }
    }
    // Both outcomes were exercised.
    #expect(applied > 1_000 && failed > 100, "\(applied) applied, \(failed) failed")
  }

  @Test func aDeepEditCopiesNothingAndAFailedOneRestoresEveryContainer() throws {
    var state: JSON = ["todos": [["id": 1, "tags": ["a"]], ["id": 2, "tags": []]], "n": 0]
    try Change(path: "todos[id: 2].tags[0]", op: .insert, new: "b").apply(to: &state)
    #expect(state == ["todos": [["id": 1, "tags": ["a"]], ["id": 2, "tags": ["b"]]], "n": 0])
    let before = state
    #expect(throws: ChangeApplicationError.self) {
      try Change(path: "todos[id: 2].tags[5]", op: .remove).apply(to: &state)
    }
    #expect(state == before)
    #expect(throws: ChangeApplicationError.self) {
      try Change(path: "todos[id: 3].tags", op: .replace, new: []).apply(to: &state)
    }
    #expect(state == before)
  }

  // MARK: - Random trees and changes

  static func tree(_ r: inout SplitMix64, depth: Int) -> JSON {
    switch depth > 3 ? r.next() % 4 : r.next() % 7 {
    case 0: return .null
    case 1: return .int(Int(r.next() % 5))
    case 2: return .string(["a", "b", "é", "e\u{301}"][Int(r.next() % 4)])
    case 3: return .bool(r.next() % 2 == 0)
    case 4: return .array((0..<Int(r.next() % 4)).map { _ in tree(&r, depth: depth + 1) })
    case 5:
      // An identified array: objects with distinct ids.
      let ids = (1...6).shuffled(using: &r).prefix(Int(r.next() % 4))
      return .array(ids.map { id in .object(JSONObject([.init("id", .int(id)), .init("v", tree(&r, depth: depth + 2))])) })
    default:
      var object = JSONObject()
      for key in ["a", "b", "k", "é"] where r.next() % 2 == 0 { object.append(key, tree(&r, depth: depth + 1)) }
      return .object(object)
    }
  }

  /// A change at a path that mostly exists in `state`, sometimes one that does not.
  static func change(in state: JSON, _ r: inout SplitMix64) -> Change {
    var components: [StatePath.Component] = []
    var value: JSON? = state
    while r.next() % 4 != 0 {
      switch value {
      case .object(let object)?:
        let keys = object.keys + ["zz"]
        let key = keys[Int(r.next() % UInt64(keys.count))]
        components.append(r.next() % 2 == 0 ? .field(key) : .key(key))
        value = object[key]
      case .array(let array)?:
        if r.next() % 2 == 0, let element = array.randomElement(using: &r), let id = element["id"] {
          components.append(.id(r.next() % 5 == 0 ? .int(9) : id))
          value = r.next() % 5 == 0 ? nil : element
        } else {
          let position = Int(r.next() % UInt64(array.count + 2))
          components.append(.index(position))
          value = position < array.count ? array[position] : nil
        }
      default:
        components.append(r.next() % 2 == 0 ? .field("x") : .index(0))
        value = nil
      }
    }
    let op = [Change.Op.replace, .insert, .remove][Int(r.next() % 3)]
    var change = Change(path: StatePath(components).description, op: op)
    if op != .remove, r.next() % 20 != 0 {
      change.new = r.next() % 3 == 0 ? ["id": .int(Int(r.next() % 8)), "v": 1] : tree(&r, depth: 3)
    }
    if r.next() % 3 == 0 { change.index = Int(r.next() % 4) }
    return change
  }
}

/// The documented rule (``Change``'s table) written the plain way: every container on the
/// path is taken out, edited and put back as a new value.
enum ReferenceApplier {
  static func apply(_ change: Change, to value: JSON) throws(ChangeApplicationError) -> JSON {
    let components: [StatePath.Component]
    do {
      components = try StatePath(parsing: change.path).components
    } catch {
      throw fail(change, "unparsable")
    }
    return try apply(change, components[...], to: value)
  }

  private static func fail(_ change: Change, _ message: String) -> ChangeApplicationError {
    ChangeApplicationError(path: change.path, message: message)
  }

  private static func new(_ change: Change) throws(ChangeApplicationError) -> JSON {
    guard let new = change.new else { throw fail(change, "no new") }
    return new
  }

  private static func find(_ key: String, in object: JSONObject) -> Int? {
    object.members.firstIndex { $0.key.utf8.elementsEqual(key.utf8) }
  }

  private static func find(id: JSON, in array: [JSON]) -> Int? {
    array.firstIndex { $0["id"] == id }
  }

  private static func apply(_ change: Change, _ path: ArraySlice<StatePath.Component>, to value: JSON) throws(ChangeApplicationError) -> JSON {
    guard let first = path.first else {
      return change.op == .remove ? .null : try new(change)
    }
    let last = path.count == 1
    switch (first, value) {
    case (.field(let key), .object(var object)) where last:
      switch change.op {
      case .replace, .insert: object[key] = try new(change)
      case .remove:
        guard object[key] != nil else { throw fail(change, "no member") }
        object[key] = .null
      }
      return .object(object)
    case (.key(let key), .object(var object)) where last:
      let existing = find(key, in: object)
      switch change.op {
      case .replace:
        if let existing { object.members[existing].value = try new(change) } else { object.append(key, try new(change)) }
      case .insert:
        if let existing {
          object.members[existing].value = try new(change)
        } else if let index = change.index, index >= 0, index <= object.count {
          object.members.insert(.init(key, try new(change)), at: index)
        } else {
          object.append(key, try new(change))
        }
      case .remove:
        guard let existing else { throw fail(change, "no member") }
        object.members.remove(at: existing)
      }
      return .object(object)
    case (.index(let position), .array(var array)) where last:
      switch change.op {
      case .replace:
        guard position < array.count else { throw fail(change, "out of range") }
        array[position] = try new(change)
      case .insert:
        guard position <= array.count else { throw fail(change, "out of range") }
        array.insert(try new(change), at: position)
      case .remove:
        guard position < array.count else { throw fail(change, "out of range") }
        array.remove(at: position)
      }
      return .array(array)
    case (.id(let id), .array(var array)) where last:
      let existing = find(id: id, in: array)
      switch change.op {
      case .replace:
        guard let existing else { throw fail(change, "no element") }
        array[existing] = try new(change)
      case .insert:
        guard existing == nil else { throw fail(change, "present") }
        if let index = change.index, index >= 0, index <= array.count {
          array.insert(try new(change), at: index)
        } else {
          array.append(try new(change))
        }
      case .remove:
        guard let existing else { throw fail(change, "no element") }
        array.remove(at: existing)
      }
      return .array(array)
    case (.field(let key), .object(var object)), (.key(let key), .object(var object)):
      guard let at = find(key, in: object) else { throw fail(change, "no member on the way") }
      object.members[at].value = try apply(change, path.dropFirst(), to: object.members[at].value)
      return .object(object)
    case (.index(let position), .array(var array)):
      guard position < array.count else { throw fail(change, "out of range on the way") }
      array[position] = try apply(change, path.dropFirst(), to: array[position])
      return .array(array)
    case (.id(let id), .array(var array)):
      guard let at = find(id: id, in: array) else { throw fail(change, "no element on the way") }
      array[at] = try apply(change, path.dropFirst(), to: array[at])
      return .array(array)
    default:
      throw fail(change, "does not fit")
    }
  }
}
