/// Arrays render as JSON arrays, capped at ``RenderOptions/maxCollectionCount`` elements.
extension Array: BuiltinRenderable {
  func render(in renderer: inout Renderer) -> JSON { renderer.renderElements(self, count: count) }
}
extension ContiguousArray: BuiltinRenderable {
  func render(in renderer: inout Renderer) -> JSON { renderer.renderElements(self, count: count) }
}
extension ArraySlice: BuiltinRenderable {
  func render(in renderer: inout Renderer) -> JSON { renderer.renderElements(self, count: count) }
}

/// An identified array renders as a plain array of its elements, in order.
extension IdentifiedArray: BuiltinRenderable {
  func render(in renderer: inout Renderer) -> JSON {
    renderer.renderElements(self, count: _ids.count)
  }
}

/// Sets render as arrays sorted by the elements' renderings (see ``JSONOrder``).
extension Set: BuiltinRenderable {
  func render(in renderer: inout Renderer) -> JSON { renderer.renderSet(map { $0 as Any }) }
}

/// Dictionaries render as objects with their keys sorted; see `Renderer.renderKey`.
extension Dictionary: BuiltinRenderable {
  func render(in renderer: inout Renderer) -> JSON { renderer.renderDictionary(map { (key: $0.key as Any, value: $0.value as Any) }) }
}
