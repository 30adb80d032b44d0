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
///
/// The change is applied where it lies (``JSONEditing``): only the containers on its path are
/// visited, and none is copied unless another value shares it.
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
    try apply(to: &value, at: parsed.components[...])
  }

  /// Applies this change to `value` in place at `components`, its path already parsed (a
  /// scoped store's change put under its scope: errors still name `path`).
  /// `directory`: the ids of the value's identified arrays (``IDDirectory``), which every
  /// change to `value` goes through.
  package func apply(
    to value: inout JSON, at components: ArraySlice<StatePath.Component>, directory: IDDirectory? = nil
  ) throws(ChangeApplicationError) {
    directory?.willApply(self, at: components)
    defer { directory?.didApply(at: components) }
    guard let last = components.last else {
      switch op {
      case .replace, .insert: value = try required(new, "new")
      case .remove: value = .null
      }
      return
    }
    try JSONEditing.modify(&value, components.dropLast(), path: components, change: self, directory: directory) {
      (parent: inout JSON) throws(ChangeApplicationError) in
      try edit(&parent, at: last, path: components.dropLast(), directory: directory)
    }
  }

  func fail(_ message: String) -> ChangeApplicationError {
    ChangeApplicationError(path: path, message: message)
  }

  private func required(_ value: JSON?, _ name: String) throws(ChangeApplicationError) -> JSON {
    guard let value else { throw fail("a \(op.rawValue) needs '\(name)'") }
    return value
  }

  private func edit(
    _ parent: inout JSON, at component: StatePath.Component, path: ArraySlice<StatePath.Component>, directory: IDDirectory?
  ) throws(ChangeApplicationError) {
    let edited: Void?
    switch component {
    case .field(let name):
      edited = try parent.editObject { (object: inout JSONObject) throws(ChangeApplicationError) in try edit(&object, field: name) }
    case .key(let key):
      edited = try parent.editObject { (object: inout JSONObject) throws(ChangeApplicationError) in try edit(&object, key: key) }
    case .index(let position):
      edited = try parent.editArray { (array: inout [JSON]) throws(ChangeApplicationError) in try edit(&array, at: position) }
    case .id(let id):
      edited = try parent.editArray { (array: inout [JSON]) throws(ChangeApplicationError) in
        try edit(&array, id: id, ids: directory?.ids(ofArrayAt: path, in: array))
      }
    }
    guard edited == nil else { return }
    let name = StatePath([component]).description
    throw fail("\(name.isEmpty ? "component" : name) does not fit a \(parent.typeName)")
  }

  private func edit(_ object: inout JSONObject, field name: String) throws(ChangeApplicationError) {
    switch op {
    case .replace, .insert: object[name] = try required(new, "new")
    case .remove:
      guard object[name] != nil else { throw fail("no member '\(name)'") }
      object[name] = .null
    }
  }

  private func edit(_ object: inout JSONObject, key: String) throws(ChangeApplicationError) {
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
  }

  private func edit(_ array: inout [JSON], at position: Int) throws(ChangeApplicationError) {
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
  }

  private func edit(_ array: inout [JSON], id: JSON, ids: ArrayIDs?) throws(ChangeApplicationError) {
    let existing: Int?
    if let ids, case .int(let wanted) = id {
      existing = ids.position(of: wanted, in: array)
    } else {
      existing = JSONEditing.position(of: id, in: array)
    }
    switch op {
    case .replace:
      guard let existing else { throw fail("no element with id \(id.jsonText)") }
      let value = try required(new, "new")
      ids?.replaced(at: existing, with: value)
      array[existing] = value
    case .insert:
      guard existing == nil else { throw fail("an element with id \(id.jsonText) is already present") }
      let value = try required(new, "new")
      let position = if let index, index >= 0, index <= array.count { index } else { array.count }
      ids?.inserted(value, at: position)
      array.insert(value, at: position)
    case .remove:
      guard let existing else { throw fail("no element with id \(id.jsonText)") }
      ids?.removed(at: existing)
      array.remove(at: existing)
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

/// In-place navigation of a JSON tree that keeps every container uniquely referenced
/// (``JSON/editArray(_:)``, ``JSON/editObject(_:)``), so an edit deep inside a large rendering
/// copies nothing.
enum JSONEditing {
  /// Runs `body` on the value at `components` inside `value`. `path`: the whole path
  /// `components` is the end of (a slice of it), for `directory` to tell arrays apart.
  static func modify(
    _ value: inout JSON, _ components: ArraySlice<StatePath.Component>, path: ArraySlice<StatePath.Component>? = nil,
    change: Change, directory: IDDirectory? = nil,
    _ body: (inout JSON) throws(ChangeApplicationError) -> Void
  ) throws(ChangeApplicationError) {
    guard let first = components.first else {
      try body(&value)
      return
    }
    let rest = components.dropFirst()
    let visited: Void?
    switch first {
    case .field(let key), .key(let key):
      visited = try value.editObject { (object: inout JSONObject) throws(ChangeApplicationError) in
        guard let index = object.position(spelled: key) else {
          throw change.fail("no member \(JSON.string(key).jsonText) on the way")
        }
        try modify(&object.members[index].value, rest, path: path, change: change, directory: directory, body)
      }
    case .index(let position):
      visited = try value.editArray { (array: inout [JSON]) throws(ChangeApplicationError) in
        guard position < array.count else { throw change.fail("index \(position) out of range (count \(array.count)) on the way") }
        try modify(&array[position], rest, path: path, change: change, directory: directory, body)
      }
    case .id(let id):
      visited = try value.editArray { (array: inout [JSON]) throws(ChangeApplicationError) in
        let found: Int?
        // The path from the value's root to this array: the parts of one path before `components`.
        if case .int(let wanted) = id, let path,
          let ids = directory?.ids(ofArrayAt: path[path.startIndex..<components.startIndex], in: array)
        {
          found = ids.position(of: wanted, in: array)
        } else {
          found = position(of: id, in: array)
        }
        guard let position = found else { throw change.fail("no element with id \(id.jsonText) on the way") }
        try modify(&array[position], rest, path: path, change: change, directory: directory, body)
      }
    }
    guard visited == nil else { return }
    throw change.fail("\(StatePath([first]).description) does not fit a \(value.typeName) on the way")
  }

  /// Whether `element` is an object whose `id` member is the integer `id`.
  static func element(_ element: JSON, hasID id: Int) -> Bool {
    guard case .object(let object) = element else { return false }
    if let first = object.members.first, first.key.utf8.count == 2, first.key == "id" {
      if case .int(let value) = first.value { return value == id }
    }
    return object["id"] == .int(id)
  }

  /// The position of the element of `array` that is an object whose `id` member is `id`.
  ///
  /// Renderings put `id` first, and ids are mostly integers: those are compared without
  /// looking the member up by name (an identified array of a thousand elements is searched
  /// at every change to one of them).
  static func position(of id: JSON, in array: [JSON]) -> Int? {
    if case .int(let wanted) = id {
      return array.firstIndex { JSONEditing.element($0, hasID: wanted) }
    }
    return array.firstIndex { element in
      if case .object(let object) = element, object["id"] == id { return true }
      return false
    }
  }
}
