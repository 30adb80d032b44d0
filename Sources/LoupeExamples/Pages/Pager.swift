import Loupe

/// Seed 000's paging controller: four pages, each with its own root store, the way a
/// `UIPageViewController` holds one `UIHostingController` (and one `Store`) per page.
///
/// Like `UIPageViewController`, it keeps the current page and its neighbours loaded. Swiping
/// to a page
/// 1. releases the pages that leave that window (they disappear: their timers stop),
/// 2. preloads the pages that enter it (they appear: their timers start),
/// 3. moves the selection, and the page swiped to appears again, which restarts its timer
///    (`cancelInFlight`, so never two timers on one page).
///
/// With isolated cancellation (the default) each of those steps touches only that page's own
/// timer, and every loaded page keeps ticking. With `.processWide` cancellation all pages
/// share the cancel id `PageFeature.CancelID.timer`: every appear and disappear stops the
/// other pages' timers too, and only the page appeared last ticks — the seed's bug.
@MainActor
final class Pager {
  typealias PageStore = Store<PageFeature.State, PageFeature.Action>

  /// The pages' stores, in order: `PageFeature#1` … `PageFeature#4`.
  private(set) var pages: [PageStore]
  /// The page the user sees.
  private(set) var current: Int?
  /// The pages loaded around the current one.
  private(set) var loaded: Set<Int> = []

  /// - Parameters:
  ///   - pageCount: How many pages.
  ///   - cancellation: The cancellation scope of every page's store.
  ///   - tick: How often each page's timer ticks.
  ///   - bus: Where the stores' events go.
  ///   - clock: The stores' clock.
  init(
    pageCount: Int = 4, cancellation: CancellationScope = .isolated, tick: Duration = .milliseconds(500),
    bus: EventBus = .shared, clock: AnyClock
  ) {
    pages = (0..<pageCount).map { id in
      Store(initialState: PageFeature.State(id: id), bus: bus, cancellation: cancellation, clock: clock) {
        PageFeature(tick: tick)
      }
    }
  }

  /// Swipes to page `index` (or shows it first).
  func show(_ index: Int) {
    precondition(pages.indices.contains(index), "No page \(index)")
    let window = Set(max(index - 1, 0)...min(index + 1, pages.count - 1))
    for page in loaded.subtracting(window).sorted() {
      pages[page].send(.onDisappear)
    }
    for page in window.subtracting(loaded).sorted() where page != index {
      pages[page].send(.onAppear)
    }
    loaded = window
    if let current, current != index {
      pages[current].send(.selected(false))
    }
    if current != index {
      pages[index].send(.selected(true))
    }
    current = index
    pages[index].send(.onAppear)
  }

  /// Releases every page (their timers stop) and ends their stores.
  func tearDown() {
    for page in loaded.sorted() {
      pages[page].send(.onDisappear)
    }
    loaded = []
    current = nil
    for page in pages { page.invalidate() }
  }

  /// One line: each page's count, `●` the current page, `◦` a loaded neighbour.
  var summary: String {
    pages.indices.map { index in
      let mark = index == current ? "●" : loaded.contains(index) ? "◦" : " "
      return "\(mark)\(index):\(pages[index].count)"
    }.joined(separator: "  ")
  }
}
