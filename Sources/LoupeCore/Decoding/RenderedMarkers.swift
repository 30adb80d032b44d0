import Foundation

/// The strings and objects a rendering puts where a value was left out (`protocol/values.md`,
/// "Caps and truncation markers", "Custom rendering and redaction", cycles), and why each
/// cannot be decoded.
enum RenderedMarkers {
  /// Why `json` cannot be decoded as it stands, or `nil`: a redacted value, a value or
  /// collection cut short by a cap, a cycle marker. Looks only at `json` itself (a string, an
  /// array's last element, an object's last member), not inside it.
  static func reason(_ json: JSON) -> String? {
    switch json {
    case .string(let text): return reason(text)
    case .array(let elements):
      guard case .string(let text)? = elements.last, isMoreElements(text) else { return nil }
      return "the array was cut short by a rendering cap (maxCollectionCount): \(JSON.string(text).jsonText)"
    case .object(let object):
      if object.count == 1, object[0].key == "$ref", case .string = object[0].value {
        return "the value is a cycle marker \(json.jsonText): a reference back to a value that holds it, which cannot be decoded"
      }
      guard let last = object.members.last, last.key == RenderMarker.truncatedKey else { return nil }
      return "the object was cut short by a rendering cap (maxCollectionCount): \(JSON.string(last.key).jsonText): \(last.value.jsonText)"
    case .null, .bool, .int, .double: return nil
    }
  }

  private static func reason(_ text: String) -> String? {
    guard let last = text.utf8.last, last == UInt8(ascii: ">") || last == UInt8(ascii: ")") else { return nil }
    if text == RenderMarker.redacted { return "the value is redacted (\"\(RenderMarker.redacted)\") and cannot be decoded" }
    if text == RenderMarker.maxDepth { return "the value was cut short by a rendering cap (maxDepth): \"\(text)\"" }
    if text == RenderMarker.maxSize { return "the value was cut short by a rendering cap (maxNodes): \"\(text)\"" }
    if let suffix = cutSuffix(text, unit: "characters") {
      return "the string was cut short by a rendering cap (maxStringLength): it ends with \"\(suffix)\""
    }
    if let suffix = cutSuffix(text, unit: "bytes") {
      return "the data was cut short by a rendering cap (maxStringLength): it ends with \"\(suffix)\""
    }
    return nil
  }

  /// `"… (3 more characters)"` at the end of `text`, for `unit` `characters`.
  private static func cutSuffix(_ text: String, unit: String) -> Substring? {
    let end = " more \(unit))"
    guard text.hasSuffix(end), let open = text.range(of: "… (", options: .backwards) else { return nil }
    let digits = text[open.upperBound..<text.index(text.endIndex, offsetBy: -end.count)]
    guard !digits.isEmpty, digits.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
    return text[open.lowerBound...]
  }

  /// `"… 3 more"`, an array's last element past `maxCollectionCount`.
  private static func isMoreElements(_ text: String) -> Bool {
    guard text.hasPrefix("… "), text.hasSuffix(" more") else { return false }
    let digits = text.dropFirst(2).dropLast(5)
    return !digits.isEmpty && digits.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
  }
}

/// Values as decoding errors show them.
enum RenderedText {
  /// `5`, `"abc"`, `null`, `an array of 3 elements`, `an object with members id, title`; a
  /// long string by its first 40 characters.
  static func describe(_ json: JSON) -> String {
    switch json {
    case .string(let text) where text.count > 48:
      return String(JSON.string(String(text.prefix(40))).jsonText.dropLast()) + "…\" (\(text.count) characters)"
    case .null, .bool, .int, .double, .string: return json.jsonText
    case .array(let elements):
      return elements.isEmpty ? "an empty array" : "an array of \(elements.count) element\(elements.count == 1 ? "" : "s")"
    case .object(let object):
      return members(object)
    }
  }

  /// `an object with members id, title` (the first eight), `an empty object`.
  static func members(_ object: JSONObject) -> String {
    guard !object.isEmpty else { return "an empty object" }
    let names = object.prefix(8).map(\.key).joined(separator: ", ")
    return "an object with member\(object.count == 1 ? "" : "s") \(names)\(object.count > 8 ? ", …" : "")"
  }
}
