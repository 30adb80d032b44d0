/// The unkeyed container of a rendered value: the elements of an array, or — for a dictionary
/// whose keys are neither strings nor integers, which Swift decodes as `[key, value, key,
/// value, …]` — the members of an object, each key read from its member name (the key's JSON
/// text, or the key's own string when it rendered as one: `{"a":2}` for `[Mode.a: 2]`,
/// `{"{\"row\":1}":"x"}` for a struct key).
struct RenderedUnkeyedContainer: UnkeyedDecodingContainer {
  enum Source {
    case array([JSON])
    case members(JSONObject)
    /// The payload of a case written as its bare name: no elements.
    case noPayload
  }

  let decoder: RenderedValueDecoder
  let source: Source
  private(set) var currentIndex = 0

  init(decoder: RenderedValueDecoder) throws(RenderedDecodingFailure) {
    self.decoder = decoder
    if case .missingPayload = decoder.role {
      source = .noPayload
      return
    }
    let json = decoder.structured
    if let reason = RenderedMarkers.reason(json) { throw decoder.failure(reason) }
    switch json {
    case .array(let elements): source = .array(elements)
    case .object(let object): source = .members(object)
    default: throw decoder.mismatch("an array")
    }
  }

  var codingPath: [any CodingKey] { decoder.codingPath }

  var count: Int? {
    switch source {
    case .array(let elements): elements.count
    case .members(let object): object.count * 2
    case .noPayload: 0
    }
  }

  var isAtEnd: Bool { currentIndex >= count ?? 0 }

  /// The decoder of the next element (without moving past it).
  private func next() throws(RenderedDecodingFailure) -> RenderedValueDecoder {
    let key = RenderedIndexKey(currentIndex)
    switch source {
    case .array(let elements) where currentIndex < elements.count:
      return try decoder.child(elements[currentIndex], step: .index(currentIndex), codingKey: key)
    case .members(let object) where currentIndex < object.count * 2:
      let member = object[currentIndex / 2]
      if currentIndex % 2 == 0 {
        return try decoder.child(.string(member.key), step: .entry(member.key), codingKey: key, role: .dictionaryKey)
      }
      return try decoder.child(member.value, step: .entry(member.key), codingKey: key)
    default:
      let found = count ?? 0
      throw decoder.failure("expected more than \(found) element\(found == 1 ? "" : "s")")
    }
  }

  mutating func decodeNil() throws -> Bool {
    let element = try next()
    guard element.structured.isNull else { return false }
    currentIndex += 1
    return true
  }

  mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
    let value = try next().decodeValue(T.self)
    currentIndex += 1
    return value
  }

  mutating func decode(_ type: Bool.Type) throws -> Bool { try decodeScalar { try $0.decode(Bool.self) } }
  mutating func decode(_ type: String.Type) throws -> String { try decodeScalar { try $0.decode(String.self) } }
  mutating func decode(_ type: Double.Type) throws -> Double { try decodeScalar { try $0.decode(Double.self) } }
  mutating func decode(_ type: Float.Type) throws -> Float { try decodeScalar { try $0.decode(Float.self) } }
  mutating func decode(_ type: Int.Type) throws -> Int { try decodeScalar { try $0.decode(Int.self) } }
  mutating func decode(_ type: Int8.Type) throws -> Int8 { try decodeScalar { try $0.decode(Int8.self) } }
  mutating func decode(_ type: Int16.Type) throws -> Int16 { try decodeScalar { try $0.decode(Int16.self) } }
  mutating func decode(_ type: Int32.Type) throws -> Int32 { try decodeScalar { try $0.decode(Int32.self) } }
  mutating func decode(_ type: Int64.Type) throws -> Int64 { try decodeScalar { try $0.decode(Int64.self) } }
  mutating func decode(_ type: UInt.Type) throws -> UInt { try decodeScalar { try $0.decode(UInt.self) } }
  mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try decodeScalar { try $0.decode(UInt8.self) } }
  mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try decodeScalar { try $0.decode(UInt16.self) } }
  mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try decodeScalar { try $0.decode(UInt32.self) } }
  mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try decodeScalar { try $0.decode(UInt64.self) } }
  @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
  mutating func decode(_ type: Int128.Type) throws -> Int128 { try decodeScalar { try $0.decode(Int128.self) } }
  @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
  mutating func decode(_ type: UInt128.Type) throws -> UInt128 { try decodeScalar { try $0.decode(UInt128.self) } }

  private mutating func decodeScalar<T>(_ body: (RenderedValueDecoder) throws -> T) throws -> T {
    let value = try body(try next())
    currentIndex += 1
    return value
  }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
    let container = try RenderedKeyedContainer<NestedKey>(decoder: try next())
    currentIndex += 1
    return KeyedDecodingContainer(container)
  }

  mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
    let container = try RenderedUnkeyedContainer(decoder: try next())
    currentIndex += 1
    return container
  }

  mutating func superDecoder() throws -> any Decoder {
    let element = try next()
    currentIndex += 1
    return element
  }
}
