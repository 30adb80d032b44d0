/// Why a ``Change`` could not be applied to a JSON value.
public struct ChangeApplicationError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The change's path.
  public var path: String
  public var message: String
  public var description: String { "Cannot apply change at '\(path)': \(message)" }
}

/// Replaying changes on a rendering: `apply(diff(a, b), to: render(a)) == render(b)`.
///
/// What each operation does, by the last component of the path (the members and elements on
/// the way must exist):
///
/// | last component | `replace` | `insert` | `remove` |
/// |---|---|---|---|
/// | none (root) | the value becomes `new` | becomes `new` | becomes `null` |
/// | `.name` | member set to `new` | member set to `new` | member set to `null` |
/// | `["key"]` | member set to `new` | member added at `index` (or appended) | member deleted |
/// | `[i]` | element `i` set to `new` | `new` inserted at `i` | element `i` deleted |
/// | `[id: X]` | the element whose `id` member is X set to `new` | `new` inserted at `index` (or appended) | that element deleted |
///
/// A `.name` member that does not exist is appended by `replace` and `insert`.
extension Change {
  /// The value after applying this change to `value`.
  public func apply(to value: JSON) throws(ChangeApplicationError) -> JSON {
    var copy = value
    try apply(to: &copy)
    return copy
  }

  /// Applies this change to `value` in place.
  public func apply(to value: inout JSON) throws(ChangeApplicationError) {
    let parsed: StatePath
    do {
      parsed = try StatePath(parsing: path)
    } catch {
      throw fail(error.message)
    }
    guard let last = parsed.components.last else {
      switch op {
      case .replace, .insert: value = try required(new, "new")
      case .remove: value = .null
      }
      return
    }
    try JSONEditing.modify(&value, parsed.components.dropLast(), change: self) { (parent: inout JSON) throws(ChangeApplicationError) in
      try edit(&parent, at: last)
    }
  }

  func fail(_ message: String) -> ChangeApplicationError {
    ChangeApplicationError(path: path, message: message)
  }

  private func required(_ value: JSON?, _ name: String) throws(ChangeApplicationError) -> JSON {
    guard let value else { throw fail("a \(op.rawValue) needs '\(name)'") }
    return value
  }

  private func edit(_ parent: inout JSON, at component: StatePath.Component) throws(ChangeApplicationError) {
    switch (component, parent) {
    case (.field(let name), .object(var object)):
      parent = .null
      defer { parent = .object(object) }
      switch op {
      case .replace, .insert: object[name] = try required(new, "new")
      case .remove:
        guard object[name] != nil else { throw fail("no member '\(name)'") }
        object[name] = .null
      }
    case (.key(let key), .object(var object)):
      parent = .null
      defer { parent = .object(object) }
      // Keys are matched as spelled (UTF-8), as the diff tells them apart.
      let existing = object.position(spelled: key)
      switch op {
      case .replace:
        let value = try required(new, "new")
        if let existing { object.members[existing].value = value } else { object.append(key, value) }
      case .insert:
        let value = try required(new, "new")
        if let existing {
          object.members[existing].value = value
        } else if let index, index >= 0, index <= object.count {
          object.members.insert(JSONObject.Member(key, value), at: index)
        } else {
          object.append(key, value)
        }
      case .remove:
        guard let existing else { throw fail("no member \(JSON.string(key).jsonText)") }
        object.members.remove(at: existing)
      }
    case (.index(let position), .array(var array)):
      parent = .null
      defer { parent = .array(array) }
      switch op {
      case .replace:
        guard position < array.count else { throw fail("index \(position) out of range (count \(array.count))") }
        array[position] = try required(new, "new")
      case .insert:
        guard position <= array.count else { throw fail("index \(position) out of range (count \(array.count))") }
        array.insert(try required(new, "new"), at: position)
      case .remove:
        guard position < array.count else { throw fail("index \(position) out of range (count \(array.count))") }
        array.remove(at: position)
      }
    case (.id(let id), .array(var array)):
      parent = .null
      defer { parent = .array(array) }
      let existing = JSONEditing.position(of: id, in: array)
      switch op {
      case .replace:
        guard let existing else { throw fail("no element with id \(id.jsonText)") }
        array[existing] = try required(new, "new")
      case .insert:
        guard existing == nil else { throw fail("an element with id \(id.jsonText) is already present") }
        let value = try required(new, "new")
        if let index, index >= 0, index <= array.count {
          array.insert(value, at: index)
        } else {
          array.append(value)
        }
      case .remove:
        guard let existing else { throw fail("no element with id \(id.jsonText)") }
        array.remove(at: existing)
      }
    default:
      throw fail("\(StatePath([component]).description.isEmpty ? "component" : StatePath([component]).description) does not fit a \(parent.typeName)")
    }
  }
}

extension Sequence where Element == Change {
  /// The value after applying these changes, in order, to `value`.
  public func apply(to value: JSON) throws(ChangeApplicationError) -> JSON {
    var copy = value
    for change in self { try change.apply(to: &copy) }
    return copy
  }
}

/// In-place navigation of a JSON tree that keeps every container uniquely referenced, so an
/// edit deep inside a large rendering copies nothing.
enum JSONEditing {
  static func modify(
    _ value: inout JSON, _ components: ArraySlice<StatePath.Component>, change: Change,
    _ body: (inout JSON) throws(ChangeApplicationError) -> Void
  ) throws(ChangeApplicationError) {
    guard let first = components.first else {
      try body(&value)
      return
    }
    let rest = components.dropFirst()
    switch (first, value) {
    case (.field(let key), .object(var object)), (.key(let key), .object(var object)):
      guard let index = object.position(spelled: key) else {
        throw change.fail("no member \(JSON.string(key).jsonText) on the way")
      }
      value = .null
      defer { value = .object(object) }
      try modify(&object.members[index].value, rest, change: change, body)
    case (.index(let position), .array(var array)):
      guard position < array.count else { throw change.fail("index \(position) out of range (count \(array.count)) on the way") }
      value = .null
      defer { value = .array(array) }
      try modify(&array[position], rest, change: change, body)
    case (.id(let id), .array(var array)):
      guard let position = position(of: id, in: array) else { throw change.fail("no element with id \(id.jsonText) on the way") }
      value = .null
      defer { value = .array(array) }
      try modify(&array[position], rest, change: change, body)
    default:
      throw change.fail("\(StatePath([first]).description) does not fit a \(value.typeName) on the way")
    }
  }

  /// The position of the element of `array` that is an object whose `id` member is `id`.
  static func position(of id: JSON, in array: [JSON]) -> Int? {
    array.firstIndex { element in
      if case .object(let object) = element, object["id"] == id { return true }
      return false
    }
  }
}
