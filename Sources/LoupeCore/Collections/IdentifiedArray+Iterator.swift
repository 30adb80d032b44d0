/// The walk of an identified array's elements in order.
extension IdentifiedArray {
  /// Walks the chunks (or a small array's one buffer): no lookup of each position.
  public struct Iterator: IteratorProtocol {
    let pages: [IdentifiedArrayPage]
    var page = 0
    var chunk = 0
    var elements: ContiguousArray<Element>
    var offset = 0

    /// A small storage's elements are the first run, with no pages after it.
    init(_ storage: IdentifiedArrayStorage<Element>) {
      pages = storage.pages
      elements = storage.isSmall ? storage.smallElements : []
    }

    public mutating func next() -> Element? {
      while offset == elements.count {
        guard page < pages.count else { return nil }
        elements = pages[page].chunks[chunk].elements(Element.self)
        offset = 0
        chunk += 1
        if chunk == pages[page].chunks.count {
          page += 1
          chunk = 0
        }
      }
      defer { offset += 1 }
      return elements[offset]
    }
  }
}
