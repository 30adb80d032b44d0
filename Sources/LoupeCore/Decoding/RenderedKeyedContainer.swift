/// The keyed container of a rendered value. Structs, classes, dictionaries and enums all read
/// their values through it, and it cannot tell which one asks, so it serves the rendered forms
/// of all of them by one set of rules (`protocol/values.md`, "Decoding the rendered form"):
///
/// | the value | key `k` finds |
/// |---|---|
/// | an object | the member `k`; for a payload key `_N` without a member `_N` (Swift's own form): the member `"N"` when the object is this case's payload with labels (`{"0":2,"loop":false}`: a member other than a position is a key of the container; nothing if it has no `"N"`), else, for `_0` when the keys have no `_1`, the whole object (one unlabelled payload that is itself an object: `{"added":{"id":1}}`) |
/// | an array | for `_0` when the keys have no `_1`: the whole array (one payload value that is an array: `{"many":[1,2]}`); else for `_N`: element `N` (several unlabelled payload values: `{"pair":[1,"a"]}`) |
/// | a string `"s"` | for `s`: a payload that is not there (a case without one: `"idle"`); for `_0`: the string (one payload value: `{"playButton":"tapped"}`) |
/// | a number, `true`/`false`, `null` | for `_0`: the value itself (`{"playing":1.5}`) |
///
/// A synthesized enum `init(from:)` asks for `allKeys` (one, the case), then a nested container
/// for that case and the payload keys `_0`, `_1` or the labels in it; a struct asks for its
/// property names; a dictionary for `allKeys` and each of them. The container of a string lists
/// the string as its only key; that of an array `_0`, `_1`, …; that of another scalar none.
struct RenderedKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
  enum Source {
    case object(JSONObject)
    case array([JSON])
    case scalar(JSON)
    /// The payload of a case written as its bare name: nothing to find.
    case noPayload(caseName: String)
  }

  let decoder: RenderedValueDecoder
  let source: Source

  init(decoder: RenderedValueDecoder) throws(RenderedDecodingFailure) {
    self.decoder = decoder
    if case .missingPayload(let caseName) = decoder.role {
      source = .noPayload(caseName: caseName)
      return
    }
    let json = decoder.structured
    if let reason = RenderedMarkers.reason(json) { throw decoder.failure(reason) }
    switch json {
    case .object(let object): source = .object(object)
    case _ where RenderedValueDecoder.isDictionaryKey(Key.self): throw decoder.mismatch("an object")
    case .array(let elements): source = .array(elements)
    default: source = .scalar(json)
    }
  }

  var codingPath: [any CodingKey] { decoder.codingPath }

  var allKeys: [Key] {
    switch source {
    case .object(let object): object.members.compactMap { Key(stringValue: $0.key) }
    case .array(let elements): elements.indices.compactMap { Key(stringValue: "_\($0)") }
    case .scalar(.string(let name)): Key(stringValue: name).map { [$0] } ?? []
    case .scalar, .noPayload: []
    }
  }

  func contains(_ key: Key) -> Bool { find(key) != nil }

  // MARK: - Finding a key

  /// What a key finds: the value, how it is reached, and whether it is a payload that is not
  /// there.
  private struct Found {
    var json: JSON
    var step: RenderedValueDecoder.Step
    var missingPayload: String? = nil
  }

  private func find(_ key: Key) -> Found? {
    let name = key.stringValue
    switch source {
    case .object(let object):
      if let value = object[name] { return Found(json: value, step: .member(name, keyType: Key.self)) }
      guard let position = Self.payloadPosition(name) else { return nil }
      if isLabelledPayload(object) {
        let positionName = String(position)
        return object[positionName].map { Found(json: $0, step: .member(positionName, keyType: Key.self)) }
      }
      return position == 0 && Self.hasOnePayloadValue ? Found(json: .object(object), step: .same) : nil
    case .array(let elements):
      guard let position = Self.payloadPosition(name) else { return nil }
      if position == 0 && Self.hasOnePayloadValue { return Found(json: .array(elements), step: .same) }
      guard position < elements.count else { return nil }
      return Found(json: elements[position], step: .index(position))
    case .scalar(let value):
      if case .string(let caseName) = value, caseName == name {
        return Found(json: .object(JSONObject()), step: .same, missingPayload: caseName)
      }
      return Self.payloadPosition(name) == 0 ? Found(json: value, step: .same) : nil
    case .noPayload:
      return nil
    }
  }

  /// Whether these keys are those of a payload of one unlabelled value (`_0` and no `_1`):
  /// the payload is then rendered as that value, even an object or an array.
  private static var hasOnePayloadValue: Bool { Key(stringValue: "_1") == nil }

  /// `N` for a payload key `_N`.
  private static func payloadPosition(_ name: String) -> Int? {
    guard name.utf8.first == UInt8(ascii: "_"), name.utf8.count > 1, name.utf8.dropFirst().allSatisfy({ $0 >= 48 && $0 <= 57 })
    else { return nil }
    return Int(name.dropFirst())
  }

  /// Whether `object` is the payload with labels (and positions: `{"0":2,"loop":false}`) of
  /// the case this container reads, not one value of it: it has a member, not a position,
  /// that is one of its keys. (Swift's own form leaves a `nil` position out: `{"loop":true}`.)
  private func isLabelledPayload(_ object: JSONObject) -> Bool {
    object.members.contains { member in
      !member.key.utf8.allSatisfy { $0 >= 48 && $0 <= 57 } && Key(stringValue: member.key) != nil
    }
  }

  /// The decoder of what `key` finds, or the failure saying it is not there.
  private func child(_ key: Key) throws(RenderedDecodingFailure) -> RenderedValueDecoder {
    guard let found = find(key) else { throw missing(key) }
    if let caseName = found.missingPayload {
      return try decoder.child(found.json, step: found.step, codingKey: key, role: .missingPayload(caseName: caseName))
    }
    return try decoder.child(found.json, step: found.step, codingKey: key)
  }

  private func missing(_ key: Key) -> RenderedDecodingFailure {
    let name = key.stringValue
    let wanted = Self.payloadPosition(name).map { "the payload's value at position \($0)" } ?? "member '\(name)'"
    switch source {
    case .object(let object):
      return decoder.failure("missing \(wanted) (found \(RenderedText.members(object)))")
    case .array(let elements):
      guard Self.payloadPosition(name) != nil else { return decoder.mismatch("an object") }
      return decoder.failure("missing \(wanted) (found \(elements.count) value\(elements.count == 1 ? "" : "s"))")
    case .scalar(let value):
      guard Self.payloadPosition(name) != nil else { return decoder.mismatch("an object") }
      return decoder.failure("missing \(wanted) (found \(RenderedText.describe(value)))")
    case .noPayload(let caseName):
      return decoder.failure("case '\(caseName)' has a payload: expected {\(JSON.string(caseName).jsonText): …}, found only its name")
    }
  }

  // MARK: - Decoding

  func decodeNil(forKey key: Key) throws -> Bool {
    let child = try child(key)
    if case .missingPayload = child.role { return false }
    return child.structured.isNull
  }

  func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
    try child(key).decodeValue(T.self)
  }

  func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try child(key).decode(Bool.self) }
  func decode(_ type: String.Type, forKey key: Key) throws -> String { try child(key).decode(String.self) }
  func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try child(key).decode(Double.self) }
  func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try child(key).decode(Float.self) }
  func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try child(key).decode(Int.self) }
  func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try child(key).decode(Int8.self) }
  func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try child(key).decode(Int16.self) }
  func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try child(key).decode(Int32.self) }
  func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try child(key).decode(Int64.self) }
  func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try child(key).decode(UInt.self) }
  func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try child(key).decode(UInt8.self) }
  func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try child(key).decode(UInt16.self) }
  func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try child(key).decode(UInt32.self) }
  func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try child(key).decode(UInt64.self) }
  @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
  func decode(_ type: Int128.Type, forKey key: Key) throws -> Int128 { try child(key).decode(Int128.self) }
  @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
  func decode(_ type: UInt128.Type, forKey key: Key) throws -> UInt128 { try child(key).decode(UInt128.self) }

  func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
    -> KeyedDecodingContainer<NestedKey>
  {
    KeyedDecodingContainer(try RenderedKeyedContainer<NestedKey>(decoder: try child(key)))
  }

  func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
    try RenderedUnkeyedContainer(decoder: try child(key))
  }

  /// The member `super` when there is one; else the value itself, since a rendering lists a
  /// superclass's properties beside the subclass's.
  func superDecoder() throws -> any Decoder {
    if case .object(let object) = source, let value = object["super"] {
      return try decoder.child(value, step: .member("super", keyType: Key.self), codingKey: Key(stringValue: "super"))
    }
    return decoder
  }

  func superDecoder(forKey key: Key) throws -> any Decoder { try child(key) }
}
