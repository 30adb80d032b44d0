/// Booleans, strings and numbers, as the renderer writes them: integers are numbers, or strings
/// of digits past `Int`'s range (`"18446744073709551615"`); floating-point numbers are numbers,
/// or `"nan"`, `"inf"`, `"-inf"`.
extension RenderedValueDecoder: SingleValueDecodingContainer {
  func decodeNil() -> Bool {
    if case .missingPayload = role { return false }
    return structured.isNull
  }

  func decode<T: Decodable>(_ type: T.Type) throws -> T { try decodeValue(T.self) }

  func decode(_ type: Bool.Type) throws -> Bool {
    let json = try checkedScalar()
    guard case .bool(let value) = json else { throw mismatch("a boolean") }
    return value
  }

  func decode(_ type: String.Type) throws -> String {
    // A dictionary key's member name is the key's own string when it rendered as one.
    let json = try checkedScalar(raw: true)
    guard case .string(let value) = json else { throw mismatch("a string") }
    return value
  }

  func decode(_ type: Double.Type) throws -> Double { try decodeFloat(Double.self) }
  func decode(_ type: Float.Type) throws -> Float { try decodeFloat(Float.self) }
  func decode(_ type: Int.Type) throws -> Int { try decodeInteger(Int.self) }
  func decode(_ type: Int8.Type) throws -> Int8 { try decodeInteger(Int8.self) }
  func decode(_ type: Int16.Type) throws -> Int16 { try decodeInteger(Int16.self) }
  func decode(_ type: Int32.Type) throws -> Int32 { try decodeInteger(Int32.self) }
  func decode(_ type: Int64.Type) throws -> Int64 { try decodeInteger(Int64.self) }
  func decode(_ type: UInt.Type) throws -> UInt { try decodeInteger(UInt.self) }
  func decode(_ type: UInt8.Type) throws -> UInt8 { try decodeInteger(UInt8.self) }
  func decode(_ type: UInt16.Type) throws -> UInt16 { try decodeInteger(UInt16.self) }
  func decode(_ type: UInt32.Type) throws -> UInt32 { try decodeInteger(UInt32.self) }
  func decode(_ type: UInt64.Type) throws -> UInt64 { try decodeInteger(UInt64.self) }
  @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
  func decode(_ type: Int128.Type) throws -> Int128 { try decodeInteger(Int128.self) }
  @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
  func decode(_ type: UInt128.Type) throws -> UInt128 { try decodeInteger(UInt128.self) }

  /// The value to read a scalar from, after refusing markers (a redacted or cut-short value).
  /// `raw`: a dictionary key's member name as written, not parsed.
  func checkedScalar(raw: Bool = false) throws(RenderedDecodingFailure) -> JSON {
    let value = raw ? json : structured
    if let reason = RenderedMarkers.reason(value) { throw failure(reason) }
    if case .missingPayload(let caseName) = role {
      throw failure("case '\(caseName)' has a payload: expected {\(JSON.string(caseName).jsonText): …}, found only its name")
    }
    return value
  }

  /// An integer: a number with no fraction, or (past `Int`'s range, as the renderer writes
  /// them) a string of decimal digits.
  func decodeInteger<I: FixedWidthInteger>(_ type: I.Type) throws(RenderedDecodingFailure) -> I {
    let json = try checkedScalar()
    let name = "\(I.self)"
    switch json {
    case .int(let value):
      guard let exact = I(exactly: value) else { throw mismatch("an integer that fits in \(name)") }
      return exact
    case .double(let value):
      guard value.isFinite, value.rounded(.towardZero) == value else { throw mismatch("an integer") }
      guard let exact = I(exactly: value) else { throw mismatch("an integer that fits in \(name)") }
      return exact
    case .string(let text) where Int(text) == nil && !text.isEmpty && text.utf8.allSatisfy(Self.isDigitOrSign):
      guard let exact = I(text) else { throw mismatch("an integer that fits in \(name)") }
      return exact
    default:
      throw mismatch("an integer")
    }
  }

  private static func isDigitOrSign(_ byte: UInt8) -> Bool {
    (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+")
  }

  /// A floating-point number: a number, or `"nan"`, `"inf"`, `"-inf"`. A `Float` is the
  /// nearest to the number written (the renderer writes the shortest text that reads back as
  /// the same `Float`).
  func decodeFloat<F: BinaryFloatingPoint>(_ type: F.Type) throws(RenderedDecodingFailure) -> F {
    let json = try checkedScalar()
    switch json {
    case .int(let value):
      return F(value)
    case .double(let value):
      let converted = F(value)
      guard converted.isFinite else { throw mismatch("a number that fits in \(F.self)") }
      return converted
    case .string("nan"): return .nan
    case .string("inf"): return .infinity
    case .string("-inf"): return -.infinity
    default: throw mismatch("a number")
    }
  }
}
