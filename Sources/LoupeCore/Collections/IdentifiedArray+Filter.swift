extension IdentifiedArray {
  /// The elements that satisfy `isIncluded`, in order, as an identified array (as in
  /// swift-identified-collections, which TCA features filter with:
  /// `var filteredTodos: IdentifiedArrayOf<Todo.State> { todos.filter { !$0.isComplete } }`).
  public func filter(_ isIncluded: (Element) throws -> Bool) rethrows -> IdentifiedArray {
    IdentifiedArray(try elements.filter(isIncluded), id: _id)
  }
}
