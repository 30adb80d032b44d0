/// The elements of an ``IdentifiedArray`` in order, in a tree of two levels: pages of chunks
/// of elements. Every page and chunk is a reference shared between copies of the array until
/// one of them writes to it, and then only that one is copied.
///
/// So a copy kept while an action runs (as Loupe keeps the state before an action to diff
/// it) costs an element change one chunk (≤ ``chunkLimit`` elements), one page (≤
/// ``pageLimit`` references) and the list of pages (one reference per ~4,096 elements), never
/// the other elements; an insert or a removal changes one chunk and shifts no element. The
/// diff and `==` compare chunks and pages by reference and look only inside those that
/// differ (``differingRanges(from:)``, ``sharedEnds(with:)``): what an action wrote, not the
/// array's length.
///
/// Chunks fill to ``chunkFill`` elements when appended to and split past ``chunkLimit``;
/// pages likewise with ``pageFill`` and ``pageLimit`` chunks. A chunk that shrinks below a
/// quarter of ``chunkFill`` merges with a neighbour when both fit in one.
struct IdentifiedArrayStorage<Element> {
  // Pages and chunks are not generic (a chunk holds its elements' array as a plain
  // reference): code that runs generic, as the diff does, looks up no type metadata for them.
  typealias Chunk = IdentifiedArrayChunk
  typealias Page = IdentifiedArrayPage

  /// Elements a chunk gets by appending; past ``chunkLimit`` a chunk splits in two. Small,
  /// because a change copies its chunk and the diff and `==` look at every element of it:
  /// with 64, a recorded send on a 1,000-row array cost 55,000 instructions, with 16 50,000
  /// (10 rows: 33,000; `send.rows.recorded.*` in BENCHMARKS.md).
  static var chunkFill: Int { 1 << chunkFillShift }
  static var chunkFillShift: Int { 4 }
  static var chunkLimit: Int { 2 * chunkFill }
  /// Chunks a page gets by appending; past ``pageLimit`` a page splits in two.
  static var pageFill: Int { 1 << pageFillShift }
  static var pageFillShift: Int { 6 }
  static var pageLimit: Int { 2 * pageFill }

  var pages: [Page] = []
  /// `ends[i]` is the number of elements in `pages[0...i]`.
  var ends: [Int] = []

  init() {}

  /// Chunks of ``chunkFill`` elements in pages of ``pageFill`` chunks.
  init(_ elements: some Collection<Element>) {
    var chunks: ContiguousArray<Chunk> = []
    var chunkEnds: ContiguousArray<Int> = []
    var index = elements.startIndex
    var total = 0
    while index != elements.endIndex {
      let end = elements.index(index, offsetBy: Self.chunkFill, limitedBy: elements.endIndex) ?? elements.endIndex
      let run = ContiguousArray(elements[index..<end])
      total += run.count
      chunks.append(Chunk(run))
      chunkEnds.append((chunkEnds.last ?? 0) + run.count)
      if chunks.count == Self.pageFill {
        appendPage(chunks, chunkEnds, total: total)
        chunks = []
        chunkEnds = []
      }
      index = end
    }
    if !chunks.isEmpty { appendPage(chunks, chunkEnds, total: total) }
  }

  private mutating func appendPage(_ chunks: ContiguousArray<Chunk>, _ chunkEnds: ContiguousArray<Int>, total: Int) {
    pages.append(Page(chunks, chunkEnds))
    ends.append(total)
  }

  var count: Int { ends.last ?? 0 }

  // MARK: Finding a position

  /// The page holding `position` (`0 ..< count`), and where that page starts.
  @inline(__always) func page(of position: Int) -> (index: Int, start: Int) {
    let index = Self.slot(of: position, in: ends, guess: position >> (Self.chunkFillShift + Self.pageFillShift))
    return (index, index == 0 ? 0 : ends[index - 1])
  }

  /// The first index of `ends` whose value is past `position`, trying `guess` first (right
  /// for pages and chunks filled by appending).
  @inline(__always) static func slot<C: RandomAccessCollection<Int>>(of position: Int, in ends: C, guess: Int) -> Int
  where C.Index == Int {
    if guess < ends.count, ends[guess] > position, guess == 0 || ends[guess - 1] <= position { return guess }
    var low = 0
    var high = ends.count - 1
    while low < high {
      let middle = (low + high) / 2
      if ends[middle] > position { high = middle } else { low = middle + 1 }
    }
    return low
  }

  /// The page, chunk and offset in the chunk of `position` (`0 ..< count`).
  @inline(__always) func locate(_ position: Int) -> (page: Int, chunk: Int, offset: Int) {
    let (pageIndex, pageStart) = page(of: position)
    let page = pages[pageIndex]
    let local = position - pageStart
    let chunk = Self.slot(of: local, in: page.ends, guess: local >> Self.chunkFillShift)
    return (pageIndex, chunk, local - (chunk == 0 ? 0 : page.ends[chunk - 1]))
  }

  func element(at position: Int) -> Element {
    let (page, chunk, offset) = locate(position)
    return pages[page].chunks[chunk].elements(Element.self)[offset]
  }

  // MARK: Writing

  mutating func set(_ element: Element, at position: Int) {
    let (page, chunk, offset) = locate(position)
    uniqueChunk(page, chunk).modify(Element.self) { $0[offset] = element }
  }

  /// Page `index`, copied first if another array shares it.
  private mutating func uniquePage(_ index: Int) -> Page {
    if !isKnownUniquelyReferenced(&pages[index]) { pages[index] = pages[index].copy() }
    return pages[index]
  }

  /// Chunk `chunk` of page `page`, copied first (with its page) if another array shares it.
  private mutating func uniqueChunk(_ page: Int, _ chunk: Int) -> Chunk {
    let page = uniquePage(page)
    if !isKnownUniquelyReferenced(&page.chunks[chunk]) { page.chunks[chunk] = page.chunks[chunk].copy() }
    return page.chunks[chunk]
  }

  mutating func append(_ element: Element) {
    if let last = pages.indices.last {
      let lastChunk = pages[last].chunks.count - 1
      if pages[last].chunks[lastChunk].count(Element.self) < Self.chunkFill {
        uniqueChunk(last, lastChunk).modify(Element.self) { $0.append(element) }
        pages[last].ends[lastChunk] += 1
        ends[last] += 1
        return
      }
      if pages[last].chunks.count < Self.pageFill {
        let page = uniquePage(last)
        page.chunks.append(Chunk(ContiguousArray([element])))
        page.ends.append(page.ends[lastChunk] + 1)
        ends[last] += 1
        return
      }
    }
    appendPage([Chunk(ContiguousArray([element]))], [1], total: count + 1)
  }

  /// Inserts `element` at `position` (`0 ... count`): one chunk changes.
  mutating func insert(_ element: Element, at position: Int) {
    if position == count { return append(element) }
    let (pageIndex, chunkIndex, offset) = locate(position)
    let chunk = uniqueChunk(pageIndex, chunkIndex)
    let size = chunk.modify(Element.self) { elements in
      elements.insert(element, at: offset)
      return elements.count
    }
    let page = pages[pageIndex]
    for index in chunkIndex..<page.ends.count { page.ends[index] += 1 }
    for index in pageIndex..<ends.count { ends[index] += 1 }
    if size > Self.chunkLimit {
      let half = size / 2
      let second = chunk.modify(Element.self) { elements in
        defer { elements.removeSubrange(half...) }
        return ContiguousArray(elements[half...])
      }
      page.chunks.insert(Chunk(second), at: chunkIndex + 1)
      page.ends.insert(page.ends[chunkIndex], at: chunkIndex + 1)
      page.ends[chunkIndex] -= second.count
    }
    if page.chunks.count > Self.pageLimit {
      let half = page.chunks.count / 2
      let before = page.ends[half - 1]
      let second = Page(ContiguousArray(page.chunks[half...]), ContiguousArray(page.ends[half...].map { $0 - before }))
      page.chunks.removeSubrange(half...)
      page.ends.removeSubrange(half...)
      pages.insert(second, at: pageIndex + 1)
      ends.insert(ends[pageIndex], at: pageIndex + 1)
      ends[pageIndex] -= second.ends.last!
    }
  }

  /// Removes and returns the element at `position`: one chunk changes (two when it merges).
  @discardableResult
  mutating func remove(at position: Int) -> Element {
    let (pageIndex, chunkIndex, offset) = locate(position)
    let chunk = uniqueChunk(pageIndex, chunkIndex)
    let (removed, size) = chunk.modify(Element.self) { elements in (elements.remove(at: offset), elements.count) }
    let page = pages[pageIndex]
    for index in chunkIndex..<page.ends.count { page.ends[index] -= 1 }
    for index in pageIndex..<ends.count { ends[index] -= 1 }
    if size == 0 {
      page.chunks.remove(at: chunkIndex)
      page.ends.remove(at: chunkIndex)
      if page.chunks.isEmpty {
        pages.remove(at: pageIndex)
        ends.remove(at: pageIndex)
      }
    } else if size < Self.chunkFill / 4 {
      // Merge with a neighbour in the same page when both fit in one chunk.
      for neighbour in [chunkIndex + 1, chunkIndex - 1] where page.chunks.indices.contains(neighbour) {
        let first = min(chunkIndex, neighbour)
        let (a, b) = (page.chunks[first].elements(Element.self), page.chunks[first + 1].elements(Element.self))
        guard a.count + b.count <= Self.chunkFill else { continue }
        page.chunks[first] = Chunk(a + b)
        page.chunks.remove(at: first + 1)
        page.ends.remove(at: first)
        break
      }
    }
    return removed
  }

  // MARK: Reading in order

  /// The chunks' elements, in order.
  var chunks: some Sequence<ContiguousArray<Element>> { pages.lazy.flatMap { $0.chunks.lazy.map { $0.elements(Element.self) } } }

  var elements: [Element] {
    var result: [Element] = []
    result.reserveCapacity(count)
    for page in pages { for chunk in page.chunks { result.append(contentsOf: chunk.elements(Element.self)) } }
    return result
  }

  /// The elements at `range`: the very buffer of a chunk when the range is one chunk (as
  /// ``differingRanges(from:)`` gives them), with no element copied.
  func run(_ range: Range<Int>) -> ContiguousArray<Element> {
    guard !range.isEmpty else { return [] }
    let (page, chunk, offset) = locate(range.lowerBound)
    let elements = pages[page].chunks[chunk].elements(Element.self)
    if offset == 0, elements.count == range.count { return elements }
    return ContiguousArray(self.elements(in: range))
  }

  /// The elements at `range`, in order.
  func elements(in range: Range<Int>) -> [Element] {
    guard !range.isEmpty else { return [] }
    var result: [Element] = []
    result.reserveCapacity(range.count)
    var (pageIndex, chunkIndex, offset) = locate(range.lowerBound)
    while result.count < range.count {
      let chunk = pages[pageIndex].chunks[chunkIndex].elements(Element.self)
      let take = min(chunk.count - offset, range.count - result.count)
      result.append(contentsOf: chunk[offset..<offset + take])
      offset = 0
      chunkIndex += 1
      if chunkIndex == pages[pageIndex].chunks.count {
        pageIndex += 1
        chunkIndex = 0
      }
    }
    return result
  }

  // MARK: Comparing two storages

  /// Whether both hold the very same pages.
  func isIdentical(to other: Self) -> Bool {
    ends.count == other.ends.count && Self.withAddresses(pages, other.pages) { $0.elementsEqual($1) }
  }

  /// When `other` has the same shape (pages and chunks of the same sizes, as after changes
  /// in place), the ranges of positions whose chunks are not the very same reference in
  /// both, in order; else `nil`. Costs one comparison per page, and one per chunk of the
  /// pages that differ.
  func differingRanges(from other: Self) -> [Range<Int>]? {
    guard ends == other.ends else { return nil }
    var ranges: [Range<Int>] = []
    Self.withAddresses(pages, other.pages) { pagesA, pagesB in
      for index in pagesA.indices where pagesA[index] != pagesB[index] {
        let start = index == 0 ? 0 : ends[index - 1]
        let (a, b) = (pages[index], other.pages[index])
        guard a.ends == b.ends else {
          ranges.append(start..<ends[index])
          continue
        }
        Self.withAddresses(a.chunks, b.chunks) { chunksA, chunksB in
          for chunk in chunksA.indices where chunksA[chunk] != chunksB[chunk] {
            ranges.append((start + (chunk == 0 ? 0 : a.ends[chunk - 1]))..<(start + a.ends[chunk]))
          }
        }
      }
    }
    return ranges
  }

  /// How many elements at the start, and at the end, both hold in the very same chunks (so
  /// they are the same elements): together at most the smaller count.
  func sharedEnds(with other: Self) -> (prefix: Int, suffix: Int) {
    var prefix = 0
    var suffix = 0
    Self.withAddresses(pages, other.pages) { pagesA, pagesB in
      var page = 0
      while page < pagesA.count, page < pagesB.count, pagesA[page] == pagesB[page] {
        prefix = ends[page]
        page += 1
      }
      if page < pagesA.count, page < pagesB.count {
        let (a, b) = (pages[page], other.pages[page])
        Self.withAddresses(a.chunks, b.chunks) { chunksA, chunksB in
          var chunk = 0
          while chunk < chunksA.count, chunk < chunksB.count, chunksA[chunk] == chunksB[chunk] { chunk += 1 }
          if chunk > 0 { prefix += a.ends[chunk - 1] }
        }
      }
      var (pa, pb) = (pagesA.count - 1, pagesB.count - 1)
      while pa >= 0, pb >= 0, pagesA[pa] == pagesB[pb] {
        suffix += ends[pa] - (pa == 0 ? 0 : ends[pa - 1])
        pa -= 1
        pb -= 1
      }
      if pa >= 0, pb >= 0 {
        let (a, b) = (pages[pa], other.pages[pb])
        Self.withAddresses(a.chunks, b.chunks) { chunksA, chunksB in
          var (ca, cb) = (chunksA.count - 1, chunksB.count - 1)
          while ca >= 0, cb >= 0, chunksA[ca] == chunksB[cb] {
            suffix += a.ends[ca] - (ca == 0 ? 0 : a.ends[ca - 1])
            ca -= 1
            cb -= 1
          }
        }
      }
    }
    let smaller = min(count, other.count)
    prefix = min(prefix, smaller)
    return (prefix, min(suffix, smaller - prefix))
  }

  /// `body` given the addresses of the objects two arrays of references hold, to compare
  /// them as words: read as references, each would be retained and released (a page holds up
  /// to ``pageLimit`` chunks, a large array thousands of pages), and compared through a
  /// generic `===` each would cost a call.
  @inline(__always)
  private static func withAddresses<C: Sequence, R>(
    _ a: C, _ b: C, _ body: (UnsafeBufferPointer<UInt>, UnsafeBufferPointer<UInt>) -> R
  ) -> R where C.Element: AnyObject {
    // Arrays always have contiguous storage.
    a.withContiguousStorageIfAvailable { a in
      b.withContiguousStorageIfAvailable { b in
        a.withMemoryRebound(to: UInt.self) { a in b.withMemoryRebound(to: UInt.self) { b in body(a, b) } }
      }!
    }!
  }
}

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
  nonisolated(unsafe) private static let empty: AnyObject = unsafeBitCast(ContiguousArray<Int>(), to: AnyObject.self)
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
