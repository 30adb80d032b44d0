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

// Foundation's reference types render as the values they stand for, never through their
// storage (on Linux their mirrors show runtime internals and raw pointers; on Apple platforms
// they are Objective-C objects with no Swift fields at all).

/// As the `Array` it holds; diffed element by element like one.
extension NSArray: BuiltinRenderable {
  func render(in renderer: inout Renderer) -> JSON { renderer.renderElements(self, count: count) }
  func diff(against new: Any, in differ: inout Differ) {
    guard let new = Reflection.opened(new) as? NSArray else { return differ.replaceIfDifferent(self, new) }
    differ.diffElements(Array(self), Array(new))
  }
}

/// As a `Dictionary`: an object sorted by its rendered keys.
extension NSDictionary: BuiltinRenderable {
  func render(in renderer: inout Renderer) -> JSON {
    var pairs: [(key: Any, value: Any)] = []
    pairs.reserveCapacity(count)
    for (key, value) in self { pairs.append((key, value)) }
    return renderer.renderDictionary(pairs)
  }
}

/// As a `Set`: its elements sorted by their renderings.
extension NSSet: BuiltinRenderable {
  func render(in renderer: inout Renderer) -> JSON { renderer.renderSet(allObjects) }
}

/// As a `Date`: `"2023-11-14T22:13:20.250Z"`.
extension NSDate: BuiltinRenderable {
  func render(in renderer: inout Renderer) -> JSON {
    Date(timeIntervalSinceReferenceDate: timeIntervalSinceReferenceDate).render(in: &renderer)
  }
}

/// As `Data`: Base64, capped.
extension NSData: BuiltinRenderable {
  func render(in renderer: inout Renderer) -> JSON { Data(referencing: self).render(in: &renderer) }
}

/// As a `URL`: its absolute string.
extension NSURL: BuiltinRenderable {
  func render(in renderer: inout Renderer) -> JSON {
    #if canImport(Darwin)
      renderer.string(absoluteString ?? "")
    #else
      renderer.string(absoluteString)
    #endif
  }
}

/// As a `UUID`: uppercase.
extension NSUUID: BuiltinRenderable {
  func render(in renderer: inout Renderer) -> JSON { .string(uuidString) }
}

/// As an `AttributedString`'s text: its characters.
extension NSAttributedString: BuiltinRenderable {
  func render(in renderer: inout Renderer) -> JSON { renderer.string(string) }
}

/// An error from Foundation or a bridged `Error`: `{"domain": "Net", "code": 7, "userInfo":
/// {…}}` (the user info only when it has entries), each value rendered by the usual rules.
extension NSError: BuiltinRenderable {
  func render(in renderer: inout Renderer) -> JSON {
    var object = JSONObject()
    object.append("domain", renderer.render(domain, at: .field("domain")))
    object.append("code", renderer.render(code, at: .field("code")))
    if !userInfo.isEmpty {
      object.append("userInfo", renderer.render(userInfo, at: .field("userInfo")))
    }
    return .object(object)
  }
}

/// A key path as Swift writes it: `"\Point.x"` (its mirror shows only its internals, the same
/// for `\Point.x` and `\Point.y`).
extension AnyKeyPath: BuiltinRenderable {
  func render(in renderer: inout Renderer) -> JSON { renderer.string(debugDescription) }
}

/// As an `IndexSet`: its integers in increasing order, capped like an array.
extension NSIndexSet: BuiltinRenderable {
  func render(in renderer: inout Renderer) -> JSON {
    var indexes: [Int] = []
    indexes.reserveCapacity(Swift.min(count, renderer.options.maxCollectionCount))
    enumerate { index, stop in
      indexes.append(index)
      if indexes.count >= renderer.options.maxCollectionCount { stop.pointee = true }
    }
    return renderer.renderElements(indexes, count: count)
  }
}
