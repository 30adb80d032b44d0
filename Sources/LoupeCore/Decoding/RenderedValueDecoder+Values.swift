/// Decoding one value of a given type: the types the renderer writes in a form of their own
/// first (Foundation values, cases of `CaseIterable` enums by name), then the type's own
/// `init(from:)`, whose errors become failures naming this value's path.
extension RenderedValueDecoder {
  func decodeValue<T: Decodable>(_ type: T.Type) throws(RenderedDecodingFailure) -> T {
    if let reason = RenderedMarkers.reason(structured) { throw failure(reason) }
    if let value = try decodeFoundationValue(T.self) { return value }
    // An object reads as `[key, value, …]` for dictionaries (and dictionary-like types) with
    // keys other than strings and integers; never for an array or a set.
    if case .object = structured, T.self is any RenderedArrayLike.Type { throw mismatch("an array") }
    if case .string(let name) = structured, let value = RenderedEnumCases.caseNamed(name, in: T.self) {
      return value
    }
    do {
      return try T(from: self)
    } catch let failure as RenderedDecodingFailure {
      throw failure
    } catch {
      throw translate(error, decoding: T.self)
    }
  }

  /// A failure for an error thrown by `type`'s own `init(from:)`: for an enum given a case it
  /// does not have, which case and which it has; else what the error says, at its path.
  private func translate<T>(_ error: any Error, decoding type: T.Type) -> RenderedDecodingFailure {
    // The synthesized `init(from:)` of an enum, given no key it knows.
    let unknownKey: Bool
    if case .typeMismatch(_, let context) = error as? DecodingError {
      unknownKey = context.debugDescription.hasPrefix("Invalid number of keys")
    } else {
      unknownKey = false
    }
    if let reason = RenderedEnumCases.reason(decoding: structured, as: T.self, unknownKey: unknownKey) { return failure(reason) }
    guard let decodingError = error as? DecodingError else { return failure("\(T.self) threw: \(error)") }
    let context: DecodingError.Context
    var reason: String
    switch decodingError {
    case .keyNotFound(let key, let found):
      context = found
      reason = "missing member '\(key.stringValue)'"
    case .typeMismatch(_, let found), .valueNotFound(_, let found), .dataCorrupted(let found):
      context = found
      reason = found.debugDescription
    @unknown default:
      return failure("\(decodingError)")
    }
    if let underlying = context.underlyingError { reason += " (\(underlying))" }
    // The keys the type's own code went down below this value.
    var path = self.path
    for key in context.codingPath.dropFirst(codingPath.count) {
      if RenderedValueDecoder.isDictionaryKey(Swift.type(of: key)) {
        path = path.appending(.key(key.stringValue))
      } else {
        path = path.appending(key.intValue.map { .index($0) } ?? .field(key.stringValue))
      }
    }
    return RenderedDecodingFailure(path: path, reason: reason)
  }
}

/// The collections that code as an unkeyed container and render as arrays.
protocol RenderedArrayLike {}
extension Array: RenderedArrayLike {}
extension ContiguousArray: RenderedArrayLike {}
extension Set: RenderedArrayLike {}
