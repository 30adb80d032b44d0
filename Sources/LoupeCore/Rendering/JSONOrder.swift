/// The total order Loupe sorts rendered set elements and dictionary keys by, so the same set
/// or dictionary always renders the same way.
///
/// `null` < booleans (`false` < `true`) < numbers (by value) < strings (by UTF-8 bytes) <
/// arrays < objects; arrays and objects (and numbers of equal value, like `1` and `1.0`) by
/// their compact JSON text.
enum JSONOrder {
  static func areInIncreasingOrder(_ a: JSON, _ b: JSON) -> Bool {
    let ra = rank(a)
    let rb = rank(b)
    if ra != rb { return ra < rb }
    switch (a, b) {
    case (.bool(let x), .bool(let y)):
      return !x && y
    case (.int(let x), .int(let y)):
      return x < y
    case (.string(let x), .string(let y)):
      return x.utf8.lexicographicallyPrecedes(y.utf8)
    default:
      if let x = a.doubleValue, let y = b.doubleValue, x != y { return x < y }
      return a.jsonText.utf8.lexicographicallyPrecedes(b.jsonText.utf8)
    }
  }

  private static func rank(_ value: JSON) -> Int {
    switch value {
    case .null: 0
    case .bool: 1
    case .int, .double: 2
    case .string: 3
    case .array: 4
    case .object: 5
    }
  }
}

extension StatePath.Component {
  /// The component for an object member named `key` in a JSON tree whose Swift type is not
  /// known: `.field` when `key` reads as a Swift identifier (`settings.theme`), else `.key`
  /// (`headers["Content-Type"]`).
  public static func member(_ key: String) -> StatePath.Component {
    isIdentifier(key) ? .field(key) : .key(key)
  }

  static func isIdentifier(_ text: String) -> Bool {
    guard let first = text.unicodeScalars.first else { return false }
    func isHead(_ s: Unicode.Scalar) -> Bool {
      s == "_" || s == "$" || (s.isASCII ? (s >= "a" && s <= "z") || (s >= "A" && s <= "Z") : s.properties.isXIDStart)
    }
    guard isHead(first) else { return false }
    for scalar in text.unicodeScalars.dropFirst() {
      guard isHead(scalar) || (scalar >= "0" && scalar <= "9") || (!scalar.isASCII && scalar.properties.isXIDContinue) else {
        return false
      }
    }
    return true
  }
}
