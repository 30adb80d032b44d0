import Foundation

/// A boxed number renders as the number it holds: `true`, `3`, `2.5`, by the rules of the
/// Swift type its `objCType` names (on Linux an `NSNumber` shows only its runtime internals).
extension NSNumber: BuiltinRenderable {
  func render(in renderer: inout Renderer) -> JSON {
    switch UInt8(bitPattern: objCType.pointee) {
    case UInt8(ascii: "c") where self === NSNumber(value: true) || self === NSNumber(value: false):
      return .bool(boolValue)
    case UInt8(ascii: "f"): return floatValue.render(in: &renderer)
    case UInt8(ascii: "d"): return doubleValue.render(in: &renderer)
    case UInt8(ascii: "Q"), UInt8(ascii: "L"), UInt8(ascii: "I"), UInt8(ascii: "S"), UInt8(ascii: "C"):
      return uint64Value.render(in: &renderer)
    default: return int64Value.render(in: &renderer)
    }
  }
}

/// A Foundation string renders as the Swift string it holds.
extension NSString: BuiltinRenderable {
  func render(in renderer: inout Renderer) -> JSON { renderer.string(self as String) }
}

/// `NSNull` renders as `null`.
extension NSNull: BuiltinRenderable {
  func render(in renderer: inout Renderer) -> JSON { .null }
}
