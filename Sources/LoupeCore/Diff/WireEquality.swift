import Foundation

/// Types whose `==` calls values equal that render differently, so the diff must not take
/// `==`'s word for them: strings (`"é"` and `"e\u{301}"` are canonically equivalent, and
/// `==`, but their UTF-8 differs) and floating-point numbers (`0.0 == -0.0`, which render
/// `0.0` and `-0.0`), and the standard containers of them. ``wireEquals(_:)`` is what the
/// wire sees: the same UTF-8, the same number rendering.
///
/// Only these types are checked this way; any other `Equatable` type is trusted (see
/// `protocol/values.md`, "Equatable is trusted"), including a user's struct that holds a
/// string.
protocol WireEquatable {
  func wireEquals(_ other: Self) -> Bool
}

extension String: WireEquatable {
  func wireEquals(_ other: String) -> Bool {
    let a = utf8
    let b = other.utf8
    guard a.count == b.count else { return false }
    // Native strings (all but bridged ones) compare as two buffers, not through iterators.
    let fast = a.withContiguousStorageIfAvailable { x in b.withContiguousStorageIfAvailable { y in x.elementsEqual(y) } }
    if let fast, let equal = fast { return equal }
    return a.elementsEqual(b)
  }
}

extension Substring: WireEquatable {
  func wireEquals(_ other: Substring) -> Bool { utf8.elementsEqual(other.utf8) }
}

extension Character: WireEquatable {
  func wireEquals(_ other: Character) -> Bool { utf8.elementsEqual(other.utf8) }
}

/// Numbers render by value (`nan`, `inf` as strings): the same bits render the same, and so
/// do two NaNs, whatever their payloads.
extension Double: WireEquatable {
  func wireEquals(_ other: Double) -> Bool { bitPattern == other.bitPattern || (isNaN && other.isNaN) }
}

extension Float: WireEquatable {
  func wireEquals(_ other: Float) -> Bool { bitPattern == other.bitPattern || (isNaN && other.isNaN) }
}

extension Optional: WireEquatable where Wrapped: WireEquatable {
  func wireEquals(_ other: Wrapped?) -> Bool {
    switch (self, other) {
    case (nil, nil): true
    case (let a?, let b?): a.wireEquals(b)
    default: false
    }
  }
}

extension Array: WireEquatable where Element: WireEquatable {
  func wireEquals(_ other: [Element]) -> Bool {
    count == other.count && zip(self, other).allSatisfy { $0.wireEquals($1) }
  }
}

extension ContiguousArray: WireEquatable where Element: WireEquatable {
  func wireEquals(_ other: ContiguousArray<Element>) -> Bool {
    count == other.count && zip(self, other).allSatisfy { $0.wireEquals($1) }
  }
}

extension ArraySlice: WireEquatable where Element: WireEquatable {
  func wireEquals(_ other: ArraySlice<Element>) -> Bool {
    count == other.count && zip(self, other).allSatisfy { $0.wireEquals($1) }
  }
}

/// Keys are compared by `==` (two spellings of one key are one key to the dictionary).
extension Dictionary: WireEquatable where Value: WireEquatable {
  func wireEquals(_ other: [Key: Value]) -> Bool {
    guard count == other.count else { return false }
    for (key, value) in self {
      guard let otherValue = other[key], value.wireEquals(otherValue) else { return false }
    }
    return true
  }
}

extension Set: WireEquatable where Element: WireEquatable {
  func wireEquals(_ other: Set<Element>) -> Bool {
    guard self == other else { return false }
    for element in self {
      guard let index = other.firstIndex(of: element), other[index].wireEquals(element) else { return false }
    }
    return true
  }
}

extension Reflection {
  /// `wireEquals` for `T` when it is ``WireEquatable``, found once so a loop pays no casts.
  static func wireEquality<T>(_: T.Type) -> ((T, T) -> Bool)? {
    guard let wire = T.self as? any WireEquatable.Type else { return nil }
    func open<U: WireEquatable>(_: U.Type) -> (T, T) -> Bool {
      { unsafeBitCast($0, to: U.self).wireEquals(unsafeBitCast($1, to: U.self)) }
    }
    return open(wire)
  }

  /// `a.wireEquals(b)` when the dynamic type is ``WireEquatable``, else `nil`.
  static func wireEqual(_ a: Any, _ b: Any) -> Bool? {
    guard let a = a as? any WireEquatable else { return nil }
    return a.wireEquals(toAny: b)
  }
}

extension WireEquatable {
  fileprivate func wireEquals(toAny other: Any) -> Bool {
    guard let other = other as? Self else { return false }
    return wireEquals(other)
  }
}

extension JSON {
  /// Whether two JSON values are written alike: `==` on ``JSON`` compares strings by
  /// canonical equivalence and `0.0 == -0.0`, which the diff must tell apart.
  func isWireIdentical(to other: JSON) -> Bool {
    switch (self, other) {
    case (.string(let a), .string(let b)): a.wireEquals(b)
    case (.double(let a), .double(let b)): a.wireEquals(b)
    case (.array(let a), .array(let b)): a.count == b.count && zip(a, b).allSatisfy { $0.isWireIdentical(to: $1) }
    case (.object(let a), .object(let b)):
      a.members.count == b.members.count
        && zip(a.members, b.members).allSatisfy { $0.key.wireEquals($1.key) && $0.value.isWireIdentical(to: $1.value) }
    default: self == other
    }
  }
}

/// A member key as the wire spells it: equal and hashed by its UTF-8, so that `"é"` and
/// `"e\u{301}"` (one key to a Swift `Dictionary` or `Set`) are two keys, as they are two
/// members of a rendering.
struct Spelling: Hashable {
  let text: String
  init(_ text: String) { self.text = text }
  static func == (a: Spelling, b: Spelling) -> Bool { a.text.wireEquals(b.text) }
  func hash(into hasher: inout Hasher) {
    for byte in text.utf8 { hasher.combine(byte) }
  }
}

extension JSONObject {
  /// The position of the member whose key is spelled exactly `key` (UTF-8), unlike
  /// `subscript(key:)`, which compares keys as Swift strings (by canonical equivalence).
  func position(spelled key: String) -> Int? {
    members.firstIndex { $0.key.wireEquals(key) }
  }
}
