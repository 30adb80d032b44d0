import Foundation

/// ISO 8601 in UTC with milliseconds: `2026-11-22T10:04:05.123Z`.
extension Date: BuiltinRenderable {
  private static let style = Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: .gmt)
  func render(in renderer: inout Renderer) -> JSON { .string(formatted(Self.style)) }
}

/// Uppercase, as Swift prints it: `DEADBEEF-DEAD-BEEF-DEAD-BEEFDEADBEEF`.
extension UUID: BuiltinRenderable {
  func render(in renderer: inout Renderer) -> JSON { .string(uuidString) }
}

/// Its `absoluteString`, capped like any string.
extension URL: BuiltinRenderable {
  func render(in renderer: inout Renderer) -> JSON { renderer.string(absoluteString) }
}

/// Base64 (standard alphabet, padded); past ``RenderOptions/maxStringLength`` characters, the
/// first bytes' Base64 then `… (N more bytes)`.
extension Data: BuiltinRenderable {
  func render(in renderer: inout Renderer) -> JSON {
    let limit = renderer.options.maxStringLength
    let fitting = Swift.max(0, limit / 4 * 3)
    if count <= fitting { return .string(base64EncodedString()) }
    return .string(prefix(fitting).base64EncodedString() + RenderMarker.moreBytes(count - fitting))
  }
}

/// A JSON number when a double holds it exactly (its shortest text reads back as the same
/// decimal: `19.99`, `1e+30`); otherwise a string of its digits, like integers beyond `Int`
/// (`"12345678901234567890.123"`) — money must not be rounded on the way. `NaN` as `"nan"`.
extension Decimal: BuiltinRenderable {
  func render(in renderer: inout Renderer) -> JSON {
    if isNaN { return .string("nan") }
    let digits = description
    if let double = Double(digits), double.isFinite, Decimal(string: "\(double)") == self { return .double(double) }
    return .string(digits)
  }
}

/// Its identifier: `"en_US"`.
extension Locale: BuiltinRenderable {
  func render(in renderer: inout Renderer) -> JSON { .string(identifier) }
}

/// Its identifier: `"Europe/Paris"`.
extension TimeZone: BuiltinRenderable {
  func render(in renderer: inout Renderer) -> JSON { .string(identifier) }
}

/// Its identifier: `"gregorian"`, `"iso8601"` (its own storage is a reference to the
/// calendar's implementation).
extension Calendar: BuiltinRenderable {
  func render(in renderer: inout Renderer) -> JSON { .string("\(identifier)") }
}

/// `{"value": 3.5, "unit": "km"}`: the value, and the unit's symbol (a `Unit` is a class
/// that shows no properties of its own).
extension Measurement: BuiltinRenderable {
  func render(in renderer: inout Renderer) -> JSON {
    .object(["value": renderer.render(value, at: .field("value")), "unit": renderer.render(unit.symbol, at: .field("unit"))])
  }
}

#if !canImport(Darwin)
  // On Apple platforms CGFloat is a Double-sized struct that reflects as one; on Linux it
  // comes from Foundation.
  extension CGFloat: BuiltinRenderable {
    func render(in renderer: inout Renderer) -> JSON { Double(self).render(in: &renderer) }
  }
#endif
