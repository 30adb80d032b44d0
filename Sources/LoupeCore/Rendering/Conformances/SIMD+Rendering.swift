/// SIMD vectors render as arrays of their scalars: `SIMD2<Float>(1, 2)` is `[1.0,2.0]` (their
/// own storage is an opaque builtin vector that shows nothing).
extension SIMD where Self: BuiltinRenderable {
  func render(in renderer: inout Renderer) -> JSON {
    renderer.renderElements(indices.lazy.map { self[$0] }, count: scalarCount)
  }
}

extension SIMD2: BuiltinRenderable {}
extension SIMD3: BuiltinRenderable {}
extension SIMD4: BuiltinRenderable {}
extension SIMD8: BuiltinRenderable {}
extension SIMD16: BuiltinRenderable {}
extension SIMD32: BuiltinRenderable {}
extension SIMD64: BuiltinRenderable {}
