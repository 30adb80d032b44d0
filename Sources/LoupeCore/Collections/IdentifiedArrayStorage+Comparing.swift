/// Comparing two storages by reference: what the diff and `==` skip.
extension IdentifiedArrayStorage {
  // MARK: Comparing two storages

  // Small and paged storages share no chunk: compared with each other, they share nothing
  // (after a change across the two forms, the diff and `==` look at every element).

  /// Whether both hold the very same pages, or the very same small buffer.
  func isIdentical(to other: Self) -> Bool {
    if isSmall || other.isSmall { return isSmall && other.isSmall && small === other.small }
    return ends.count == other.ends.count && Self.withAddresses(pages, other.pages) { $0.elementsEqual($1) }
  }

  /// When `other` has the same shape (pages and chunks of the same sizes, as after changes
  /// in place), the ranges of positions whose chunks are not the very same reference in
  /// both, in order; else `nil`. Costs one comparison per page, and one per chunk of the
  /// pages that differ.
  func differingRanges(from other: Self) -> [Range<Int>]? {
    if isSmall || other.isSmall {
      guard isSmall, other.isSmall, count == other.count else { return nil }
      return small === other.small || count == 0 ? [] : [0..<count]
    }
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
    if isSmall || other.isSmall { return isSmall && other.isSmall && small === other.small ? (count, 0) : (0, 0) }
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
