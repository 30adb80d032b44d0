import Foundation

/// An index set renders as its sorted integers, so its diff is the positional diff of the two
/// renderings (like a set's).
extension IndexSet {
  func diff(against new: Any, in differ: inout Differ) {
    if self == (new as! IndexSet) { return }
    differ.diffRenderingsOfDifferentValues(self, new)
  }
}

/// A type-erased value diffs as the values inside (a change of their type is a `replace`).
extension AnyHashable {
  func diff(against new: Any, in differ: inout Differ) {
    differ.diff(base, (new as! AnyHashable).base)
  }
}
