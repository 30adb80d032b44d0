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

/// A JSON number (the nearest double); `NaN` as `"nan"`.
extension Decimal: BuiltinRenderable {
  func render(in renderer: inout Renderer) -> JSON {
    if isNaN { return .string("nan") }
    return .double(Double(description) ?? 0)
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

#if !canImport(Darwin)
  // On Apple platforms CGFloat is a Double-sized struct that reflects as one; on Linux it
  // comes from Foundation.
  extension CGFloat: BuiltinRenderable {
    func render(in renderer: inout Renderer) -> JSON { Double(self).render(in: &renderer) }
  }
#endif
