/// A JSON value, as Loupe puts it on the wire and in trace files.
///
/// Objects keep their members in order: a struct renders its fields in declaration order and
/// a dictionary its keys sorted, so the same value always produces the same bytes. Equality is
/// structural and order-sensitive, which is what golden tests want.
///
/// Integers and floating-point numbers are distinct cases so that `1` and `1.0` survive a
/// round trip. Only finite doubles belong in `.double`; the value renderer turns `nan` and
/// `±infinity` into strings before they get here, and ``JSONWriter`` writes `null` for any
/// that slip through (JSON has no spelling for them).
public enum JSON: Sendable, Hashable {
  case null
  case bool(Bool)
  case int(Int)
  case double(Double)
  case string(String)
  case array([JSON])
  case object(JSONObject)
}

/// The members of a JSON object, in order.
public struct JSONObject: Sendable, Hashable, RandomAccessCollection, ExpressibleByDictionaryLiteral {
  public struct Member: Sendable, Hashable {
    public var key: String
    public var value: JSON
    public init(_ key: String, _ value: JSON) {
      self.key = key
      self.value = value
    }
  }

  public var members: [Member]

  public init() { members = [] }
  public init(_ members: [Member]) { self.members = members }
  public init(dictionaryLiteral elements: (String, JSON)...) {
    members = elements.map { Member($0.0, $0.1) }
  }

  public var startIndex: Int { members.startIndex }
  public var endIndex: Int { members.endIndex }
  public subscript(position: Int) -> Member { members[position] }

  /// The value for `key`, or `nil`. Setting `nil` removes the member; setting a new key appends.
  public subscript(key: String) -> JSON? {
    get {
      for member in members where member.key == key { return member.value }
      return nil
    }
    set {
      if let index = members.firstIndex(where: { $0.key == key }) {
        if let newValue { members[index].value = newValue } else { members.remove(at: index) }
      } else if let newValue {
        members.append(Member(key, newValue))
      }
    }
  }

  public var keys: [String] { members.map(\.key) }

  public mutating func append(_ key: String, _ value: JSON) {
    members.append(Member(key, value))
  }
}

extension JSON: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
  ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
  ExpressibleByDictionaryLiteral
{
  public init(nilLiteral: ()) { self = .null }
  public init(booleanLiteral value: Bool) { self = .bool(value) }
  public init(integerLiteral value: Int) { self = .int(value) }
  public init(floatLiteral value: Double) { self = .double(value) }
  public init(stringLiteral value: String) { self = .string(value) }
  public init(arrayLiteral elements: JSON...) { self = .array(elements) }
  public init(dictionaryLiteral elements: (String, JSON)...) {
    self = .object(JSONObject(elements.map { JSONObject.Member($0.0, $0.1) }))
  }
}

extension JSON {
  public var stringValue: String? { if case .string(let s) = self { s } else { nil } }
  public var intValue: Int? {
    switch self {
    case .int(let i): i
    case .double(let d) where d.rounded() == d && abs(d) < 9.0e15: Int(d)
    default: nil
    }
  }
  public var doubleValue: Double? {
    switch self {
    case .int(let i): Double(i)
    case .double(let d): d
    default: nil
    }
  }
  public var boolValue: Bool? { if case .bool(let b) = self { b } else { nil } }
  public var arrayValue: [JSON]? { if case .array(let a) = self { a } else { nil } }
  public var objectValue: JSONObject? { if case .object(let o) = self { o } else { nil } }
  public var isNull: Bool { if case .null = self { true } else { false } }

  /// Member lookup on an object; `nil` for other values.
  public subscript(key: String) -> JSON? { objectValue?[key] }

  /// The compact JSON text of this value.
  public var jsonText: String {
    var writer = JSONWriter()
    writer.value(self)
    return writer.string
  }

  /// The name of this value's JSON type, for error messages.
  public var typeName: String {
    switch self {
    case .null: "null"
    case .bool: "boolean"
    case .int, .double: "number"
    case .string: "string"
    case .array: "array"
    case .object: "object"
    }
  }
}

extension JSON: CustomStringConvertible {
  public var description: String { jsonText }
}
