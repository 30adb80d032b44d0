/// One value being decoded: the `Decoder` (and its `SingleValueDecodingContainer`) handed to a
/// type's `init(from:)`, linked to the value it sits in so that a failure can name its path.
///
/// A child is made for each member, element or payload a container decodes; paths and coding
/// paths are worked out from the links only when asked for (a failure, `codingPath`).
final class RenderedValueDecoder: Decoder {
  /// How the value came to be decoded.
  enum Role {
    /// An ordinary value.
    case value
    /// A dictionary key read from a member name (a dictionary whose keys are not strings or
    /// integers): the name is the key's JSON text when it parses, else the key's own string.
    case dictionaryKey
    /// The payload of a case written as its bare name (`"playing"`): it has none.
    case missingPayload(caseName: String)
  }

  /// How the value is reached from the one it sits in.
  enum Step {
    /// A member, by a coding key of the given type: a struct field, an enum case, a
    /// dictionary entry (told apart when the path is written).
    case member(String, keyType: any CodingKey.Type)
    /// An element of an array, or a value of an enum payload written as an array.
    case index(Int)
    /// A key or value of a dictionary read as `[key, value, …]`.
    case entry(String)
    /// The same place: a payload written as the value itself.
    case same
  }

  let json: JSON
  let role: Role
  let parent: RenderedValueDecoder?
  let step: Step
  let codingKey: (any CodingKey)?
  let depth: Int

  init(root json: JSON) {
    self.json = json
    role = .value
    parent = nil
    step = .same
    codingKey = nil
    depth = 0
  }

  private init(json: JSON, role: Role, parent: RenderedValueDecoder, step: Step, codingKey: (any CodingKey)?) {
    self.json = json
    self.role = role
    self.parent = parent
    self.step = step
    self.codingKey = codingKey
    depth = parent.depth + 1
  }

  /// The decoder of a value inside this one; fails past ``RenderedDecoder/maximumDepth``.
  func child(_ json: JSON, step: Step, codingKey: (any CodingKey)?, role: Role = .value) throws(RenderedDecodingFailure)
    -> RenderedValueDecoder
  {
    let child = RenderedValueDecoder(json: json, role: role, parent: self, step: step, codingKey: codingKey)
    guard child.depth <= RenderedDecoder.maximumDepth else {
      throw child.failure("the value is nested more than \(RenderedDecoder.maximumDepth) levels deep")
    }
    return child
  }

  /// The value as data: a dictionary key's member name parsed as JSON when it is JSON text
  /// (`1`, `{"row":1}`), the value itself otherwise.
  var structured: JSON {
    guard case .dictionaryKey = role, case .string(let text) = json, let parsed = try? JSONParser.parse(text) else { return json }
    return parsed
  }

  // MARK: - Where it is

  /// The state path of this value, from the value decoded.
  var path: StatePath {
    var components: [StatePath.Component] = []
    var node: RenderedValueDecoder? = self
    while let current = node {
      switch current.step {
      case .member(let name, let keyType):
        components.append(Self.isDictionaryKey(keyType) ? .key(name) : .field(name))
      case .index(let index): components.append(.index(index))
      case .entry(let name): components.append(.key(name))
      case .same: break
      }
      node = current.parent
    }
    return StatePath(components.reversed())
  }

  /// A failure here.
  func failure(_ reason: String) -> RenderedDecodingFailure {
    RenderedDecodingFailure(path: path, reason: reason)
  }

  /// A failure here: `expected a number, found "abc"`.
  func mismatch(_ expected: String) -> RenderedDecodingFailure {
    failure("expected \(expected), found \(RenderedText.describe(json))")
  }

  /// Whether coding keys of this type are a dictionary's (the standard library's
  /// `_DictionaryCodingKey`): its members are entries, `["key"]` in a path.
  static func isDictionaryKey(_ keyType: any CodingKey.Type) -> Bool {
    "\(keyType)".hasSuffix("DictionaryCodingKey")
  }

  // MARK: - Decoder

  var codingPath: [any CodingKey] {
    var keys: [any CodingKey] = []
    var node: RenderedValueDecoder? = self
    while let current = node {
      if let key = current.codingKey { keys.append(key) }
      node = current.parent
    }
    return keys.reversed()
  }

  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    KeyedDecodingContainer(try RenderedKeyedContainer<Key>(decoder: self))
  }

  func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
    try RenderedUnkeyedContainer(decoder: self)
  }

  func singleValueContainer() throws -> any SingleValueDecodingContainer {
    self
  }
}

/// A coding key for a position: an unkeyed container's element, in `codingPath`.
struct RenderedIndexKey: CodingKey {
  var intValue: Int?
  var stringValue: String { intValue.map { "Index \($0)" } ?? "" }
  init(_ index: Int) { intValue = index }
  init?(stringValue: String) { nil }
  init?(intValue: Int) { self.intValue = intValue }
}
