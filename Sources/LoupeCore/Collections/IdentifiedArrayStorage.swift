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
///
/// A small array (at most ``chunkLimit`` elements) has no pages: its elements are one buffer,
/// ``small``, so that an element change while a copy is kept copies that buffer alone — not
/// a list of pages, a page and a chunk besides (at 10 rows, a recorded send paid ~1,950
/// instructions for those copies and ~1,190 for freeing them). It takes pages when it grows
/// past ``chunkLimit``, and leaves them when removals bring it down to ``chunkFill``.
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

  /// Empty while the array is small.
  var pages: [Page] = []
  /// `ends[i]` is the number of elements in `pages[0...i]`.
  var ends: [Int] = []
  /// While ``pages`` is empty, the elements: a `ContiguousArray<Element>`'s buffer, held as
  /// the plain reference it is (as a chunk holds its own); else the empty array's.
  var small: AnyObject = Chunk.empty

  init() {}

  /// One buffer up to ``chunkLimit`` elements, else chunks of ``chunkFill`` elements in pages
  /// of ``pageFill`` chunks.
  init(_ elements: some Collection<Element>) {
    if elements.count <= Self.chunkLimit {
      small = unsafeBitCast(ContiguousArray(elements), to: AnyObject.self)
      return
    }
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

  var count: Int { ends.last ?? smallElements.count }

  // MARK: The small form

  /// Whether the elements are ``small``'s, with no pages.
  @inline(__always) var isSmall: Bool { pages.isEmpty }

  @inline(__always) var smallElements: ContiguousArray<Element> { unsafeBitCast(small, to: ContiguousArray<Element>.self) }

  /// Changes ``small``'s elements in place: the storage lets go of the buffer meanwhile, so
  /// that it is not copied when nothing else shares it.
  @inline(__always) private mutating func modifySmall<R>(_ body: (inout ContiguousArray<Element>) -> R) -> R {
    var elements = smallElements
    small = Chunk.empty
    defer { small = unsafeBitCast(elements, to: AnyObject.self) }
    return body(&elements)
  }

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
    if isSmall { return smallElements[position] }
    let (page, chunk, offset) = locate(position)
    return pages[page].chunks[chunk].elements(Element.self)[offset]
  }

  // MARK: Writing

  mutating func set(_ element: Element, at position: Int) {
    if isSmall { return modifySmall { $0[position] = element } }
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
    if isSmall { return insertSmall(element, at: count) }
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
    if isSmall { return insertSmall(element, at: position) }
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

  /// Inserts into the small form, which takes pages past ``chunkLimit``.
  private mutating func insertSmall(_ element: Element, at position: Int) {
    modifySmall { $0.insert(element, at: position) }
    if count > Self.chunkLimit { self = Self(smallElements) }
  }

  /// Removes and returns the element at `position`: one chunk changes (two when it merges);
  /// down to ``chunkFill`` elements, the pages give way to the small form.
  @discardableResult
  mutating func remove(at position: Int) -> Element {
    if isSmall { return modifySmall { $0.remove(at: position) } }
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
    if count <= Self.chunkFill { self = Self(elements) }
    return removed
  }

  // MARK: Reading in order

  var elements: [Element] {
    if isSmall { return Array(smallElements) }
    var result: [Element] = []
    result.reserveCapacity(count)
    for page in pages { for chunk in page.chunks { result.append(contentsOf: chunk.elements(Element.self)) } }
    return result
  }

  /// The elements at `range`: the very buffer of a chunk when the range is one chunk (as
  /// ``differingRanges(from:)`` gives them), with no element copied.
  func run(_ range: Range<Int>) -> ContiguousArray<Element> {
    guard !range.isEmpty else { return [] }
    if isSmall {
      let elements = smallElements
      return range.count == elements.count ? elements : ContiguousArray(elements[range])
    }
    let (page, chunk, offset) = locate(range.lowerBound)
    let elements = pages[page].chunks[chunk].elements(Element.self)
    if offset == 0, elements.count == range.count { return elements }
    return ContiguousArray(self.elements(in: range))
  }

  /// The elements at `range`, in order.
  func elements(in range: Range<Int>) -> [Element] {
    guard !range.isEmpty else { return [] }
    if isSmall { return Array(smallElements[range]) }
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
}
