import Loupe

/// A session of its own (a private bus and its recorder) holding seed 000's page stores, each
/// a root store, on one test clock: what one test, or one program, would have.
@MainActor
final class PageSession {
  typealias PageStore = Store<PageFeature.State, PageFeature.Action>

  let clock = TestClock()
  let bus: EventBus
  let recorder: EventRecorder
  let pages: [PageStore]

  /// Creates `count` pages (`PageFeature#1` … in this session) and drops their creation events.
  init(pages count: Int, cancellation: CancellationScope) {
    let (bus, recorder) = makeSession()
    let clock = clock
    self.bus = bus
    self.recorder = recorder
    pages = (0..<count).map { id in
      Store(initialState: PageFeature.State(id: id), bus: bus, cancellation: cancellation, clock: clock) { PageFeature() }
    }
    _ = recorder.take()
  }

  /// Swipes from page `old` to page `new`: the old one is deselected, the new one selected
  /// and appears, which restarts its timer with `cancelInFlight`.
  func swipe(from old: Int?, to new: Int) {
    if let old { pages[old].send(.selected(false)) }
    pages[new].send(.selected(true))
    pages[new].send(.onAppear)
  }

  var counts: [Int] { pages.map(\.count) }

  func invalidate() {
    for page in pages { page.invalidate() }
  }
}
