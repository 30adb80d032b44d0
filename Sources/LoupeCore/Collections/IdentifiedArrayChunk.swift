/// A run of an ``IdentifiedArray``'s elements: a `ContiguousArray` of the array's element
/// type, held as the plain reference to its buffer that it is, so that neither chunks nor
/// pages are generic types.
// @unchecked: written only through `IdentifiedArrayStorage`, which copies a chunk before
// writing when it is not the chunk's only owner.
final class IdentifiedArrayChunk: @unchecked Sendable {
  @exclusivity(unchecked) private var buffer: AnyObject

  init<Element>(_ elements: ContiguousArray<Element>) { buffer = unsafeBitCast(elements, to: AnyObject.self) }

  /// The elements, of the type they were stored with.
  @inline(__always) func elements<Element>(_: Element.Type) -> ContiguousArray<Element> {
    unsafeBitCast(buffer, to: ContiguousArray<Element>.self)
  }

  @inline(__always) func count<Element>(_: Element.Type) -> Int { elements(Element.self).count }

  /// Changes the elements in place: the chunk lets go of its buffer meanwhile, so that the
  /// buffer is not copied when nothing else shares it.
  @inline(__always) func modify<Element, R>(_: Element.Type, _ body: (inout ContiguousArray<Element>) -> R) -> R {
    var elements = unsafeBitCast(buffer, to: ContiguousArray<Element>.self)
    buffer = Self.empty
    defer { buffer = unsafeBitCast(elements, to: AnyObject.self) }
    return body(&elements)
  }

  /// A chunk of its own sharing this one's buffer (copied when either writes to it).
  func copy() -> IdentifiedArrayChunk {
    let chunk = IdentifiedArrayChunk(ContiguousArray<Int>())
    chunk.buffer = buffer
    return chunk
  }

  /// The empty array's storage, which arrays of every element type share. `unsafe`: it is the
  /// runtime's immutable empty-array singleton, never written through.
  nonisolated(unsafe) static let empty: AnyObject = unsafeBitCast(ContiguousArray<Int>(), to: AnyObject.self)
}

/// A run of an ``IdentifiedArray``'s chunks, with each chunk's end (elements in the chunks
/// up to it).
// @unchecked: as for chunks.
final class IdentifiedArrayPage: @unchecked Sendable {
  @exclusivity(unchecked) var chunks: ContiguousArray<IdentifiedArrayChunk>
  @exclusivity(unchecked) var ends: ContiguousArray<Int>

  init(_ chunks: ContiguousArray<IdentifiedArrayChunk>, _ ends: ContiguousArray<Int>) {
    self.chunks = chunks
    self.ends = ends
  }

  func copy() -> IdentifiedArrayPage { IdentifiedArrayPage(chunks, ends) }
}
