extension Array {
  func diff(against new: Any, in differ: inout Differ) {
    differ.diffArrays(self, new as! [Element])
  }

  static func diff(at old: UnsafeRawPointer, _ new: UnsafeRawPointer, in differ: inout Differ) {
    differ.diffArrays(old.assumingMemoryBound(to: Self.self).pointee, new.assumingMemoryBound(to: Self.self).pointee)
  }
}

extension ContiguousArray {
  func diff(against new: Any, in differ: inout Differ) {
    let new = new as! ContiguousArray<Element>
    if Reflection.bitwiseEqual(self, new) { return }
    differ.diffArrays(Array(self), Array(new))
  }
}

extension ArraySlice {
  func diff(against new: Any, in differ: inout Differ) {
    differ.diffArrays(Array(self), Array(new as! ArraySlice<Element>))
  }
}

extension IdentifiedArray {
  func diff(against new: Any, in differ: inout Differ) {
    differ.diffIdentifiedArrays(self, new as! IdentifiedArray<ID, Element>)
  }

  static func diff(at old: UnsafeRawPointer, _ new: UnsafeRawPointer, in differ: inout Differ) {
    differ.diffIdentifiedArrays(at: old.assumingMemoryBound(to: Self.self), new.assumingMemoryBound(to: Self.self))
  }
}

extension Dictionary {
  func diff(against new: Any, in differ: inout Differ) {
    differ.diffDictionaries(self, new as! [Key: Value])
  }

  static func diff(at old: UnsafeRawPointer, _ new: UnsafeRawPointer, in differ: inout Differ) {
    differ.diffDictionaries(old.assumingMemoryBound(to: Self.self).pointee, new.assumingMemoryBound(to: Self.self).pointee)
  }
}

/// A set's rendering is sorted by content, so its diff is the positional diff of the two
/// renderings.
extension Set {
  func diff(against new: Any, in differ: inout Differ) {
    let new = new as! Set<Element>
    if Reflection.sameness(Set<Element>.self)(self, new) { return }
    // `==` but not the same: elements whose `==` is not trusted (see `TrustedEquality`); the
    // renderings say whether anything changed.
    if self == new { return differ.diffRenderings(self, new) }
    differ.diffRenderingsOfDifferentValues(self, new)
  }
}

extension JSON {
  func diff(against new: Any, in differ: inout Differ) {
    if isWireIdentical(to: new as! JSON) { return }
    differ.diffRenderingsOfDifferentValues(self, new)
  }
}

extension JSONObject {
  func diff(against new: Any, in differ: inout Differ) {
    if JSON.object(self).isWireIdentical(to: .object(new as! JSONObject)) { return }
    differ.diffRenderingsOfDifferentValues(self, new)
  }
}

/// Strings compare by their UTF-8 bytes (what the rendering shows), not by `==`, which
/// calls canonically equivalent spellings of "é" equal.
extension String {
  func diff(against new: Any, in differ: inout Differ) {
    let new = new as! String
    if utf8.elementsEqual(new.utf8) { return }
    if differ.isProbe { return differ.record(.replace) }
    let limit = differ.options.maxStringLength
    differ.replaceDifferent(rendered: Renderer.string(self, maxLength: limit), Renderer.string(new, maxLength: limit))
  }
}
