/// A type Loupe renders by a fixed rule, without reflection: scalars, strings, Foundation
/// value types, the standard collections and ``JSON`` itself.
///
/// One conformance lookup (`value as? any BuiltinRenderable`) replaces a chain of casts, and
/// the collections render and diff their elements with the element type known.
protocol BuiltinRenderable {
  func render(in renderer: inout Renderer) -> JSON
  /// Records the changes from `self` to `new` (a value of the same type) at the differ's
  /// current path. Scalars compare their renderings; collections diff their elements
  /// (see `Diff/Conformances`).
  func diff(against new: Any, in differ: inout Differ)
  /// ``diff(against:in:)`` of two values of this type read at their addresses. A requirement
  /// (with the default below) so that each type's witness is specialized: the diff calls it
  /// from code that is generic at run time, with nothing boxed.
  static func diff(at old: UnsafeRawPointer, _ new: UnsafeRawPointer, in differ: inout Differ)
}

extension BuiltinRenderable {
  func diff(against new: Any, in differ: inout Differ) {
    differ.replaceIfDifferentOrHidden(self, new)
  }

  static func diff(at old: UnsafeRawPointer, _ new: UnsafeRawPointer, in differ: inout Differ) {
    old.assumingMemoryBound(to: Self.self).pointee.diff(against: new.assumingMemoryBound(to: Self.self).pointee, in: &differ)
  }
}

/// A built-in scalar whose rendering is its value alone: not its path, not the options, and
/// nothing nested to count. The diff compares two of them without setting up a renderer
/// (`TypeInfo`'s diff thunk).
protocol ScalarRenderable: BuiltinRenderable {
  var scalarJSON: JSON { get }
  /// The rendering of the value of this type at `address`. A requirement (with the default
  /// below) so that each type's witness is specialized: the diff calls it from code that is
  /// generic at run time.
  static func scalarJSON(at address: UnsafeRawPointer) -> JSON
}

extension ScalarRenderable {
  func render(in renderer: inout Renderer) -> JSON { scalarJSON }

  static func scalarJSON(at address: UnsafeRawPointer) -> JSON {
    address.assumingMemoryBound(to: Self.self).pointee.scalarJSON
  }

  static func diff(at old: UnsafeRawPointer, _ new: UnsafeRawPointer, in differ: inout Differ) {
    differ.replaceIfDifferent(rendered: scalarJSON(at: old), scalarJSON(at: new))
  }
}

extension Bool: ScalarRenderable {
  var scalarJSON: JSON { .bool(self) }
}

extension Int: ScalarRenderable {
  var scalarJSON: JSON { .int(self) }
}
extension Int8: ScalarRenderable {
  var scalarJSON: JSON { .int(Int(self)) }
}
extension Int16: ScalarRenderable {
  var scalarJSON: JSON { .int(Int(self)) }
}
extension Int32: ScalarRenderable {
  var scalarJSON: JSON { .int(Int(self)) }
}
extension Int64: ScalarRenderable {
  var scalarJSON: JSON { .int(Int(self)) }
}
extension UInt8: ScalarRenderable {
  var scalarJSON: JSON { .int(Int(self)) }
}
extension UInt16: ScalarRenderable {
  var scalarJSON: JSON { .int(Int(self)) }
}
extension UInt32: ScalarRenderable {
  var scalarJSON: JSON { .int(Int(self)) }
}

/// Integers beyond `Int`'s range render as strings of their decimal digits (JSON numbers that
/// large lose precision in most readers).
extension BinaryInteger {
  fileprivate var loupeJSON: JSON {
    if let small = Int(exactly: self) { return .int(small) }
    return .string(String(self))
  }
}
extension UInt: ScalarRenderable {
  var scalarJSON: JSON { loupeJSON }
}
extension UInt64: ScalarRenderable {
  var scalarJSON: JSON { loupeJSON }
}
// Int128/UInt128 exist from macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2 (the standard
// library's availability); earlier systems have no such values to render.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
extension Int128: BuiltinRenderable {
  func render(in renderer: inout Renderer) -> JSON { loupeJSON }
}
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
extension UInt128: BuiltinRenderable {
  func render(in renderer: inout Renderer) -> JSON { loupeJSON }
}

/// Finite numbers render as JSON numbers; `nan`, `inf` and `-inf` as those strings.
extension BinaryFloatingPoint {
  fileprivate var loupeJSON: JSON {
    if isNaN { return .string("nan") }
    if isInfinite { return .string(self < 0 ? "-inf" : "inf") }
    if let double = self as? Double { return .double(double) }
    // The shortest decimal that round-trips in the value's own width: Float(0.1) is 0.1,
    // not 0.10000000149011612.
    return .double(Double("\(self)") ?? Double(self))
  }
}
extension Double: ScalarRenderable {
  var scalarJSON: JSON { loupeJSON }
}
extension Float: ScalarRenderable {
  var scalarJSON: JSON { loupeJSON }
}
#if !((os(macOS) || targetEnvironment(macCatalyst)) && arch(x86_64))
  extension Float16: BuiltinRenderable {
    func render(in renderer: inout Renderer) -> JSON { loupeJSON }
  }
#endif
#if (arch(i386) || arch(x86_64)) && !(os(Windows) || os(Android))
  extension Float80: BuiltinRenderable {
    func render(in renderer: inout Renderer) -> JSON { loupeJSON }
  }
#endif

extension String: BuiltinRenderable {
  func render(in renderer: inout Renderer) -> JSON { renderer.string(self) }
}
extension Substring: BuiltinRenderable {
  func render(in renderer: inout Renderer) -> JSON { renderer.string(self) }
}
extension Character: BuiltinRenderable {
  func render(in renderer: inout Renderer) -> JSON { .string(String(self)) }
}
extension Unicode.Scalar: BuiltinRenderable {
  func render(in renderer: inout Renderer) -> JSON { .string(String(self)) }
}
extension StaticString: BuiltinRenderable {
  func render(in renderer: inout Renderer) -> JSON { renderer.string(description) }
}
extension Duration: BuiltinRenderable {
  func render(in renderer: inout Renderer) -> JSON { .string(description) }
}
/// A type-erased value renders as the value inside (its mirror would show `{"value": …}`).
extension AnyHashable: BuiltinRenderable {
  func render(in renderer: inout Renderer) -> JSON { renderer.renderContent(base) }
}
extension ObjectIdentifier: BuiltinRenderable {
  func render(in renderer: inout Renderer) -> JSON { .string(debugDescription) }
}

/// ``JSON`` inside a state renders as itself, with the caps and redaction applied.
extension JSON: BuiltinRenderable {
  func render(in renderer: inout Renderer) -> JSON {
    switch self {
    case .null, .bool, .int: return self
    case .double(let value): return value.loupeJSON
    case .string(let text): return renderer.string(text)
    case .array(let elements): return renderer.renderElements(elements, count: elements.count)
    case .object(let object): return object.render(in: &renderer)
    }
  }
}

extension JSONObject: BuiltinRenderable {
  func render(in renderer: inout Renderer) -> JSON {
    let shown = Swift.min(count, renderer.options.maxCollectionCount)
    var result = JSONObject()
    result.members.reserveCapacity(shown + 1)
    var index = 0
    while index < shown, !renderer.isOverBudget {
      let member = members[index]
      result.append(member.key, renderer.render(member.value, at: .member(member.key)))
      index += 1
    }
    if index < count { result.append(RenderMarker.truncatedKey, .string(RenderMarker.moreMembers(count - index))) }
    return .object(result)
  }
}
