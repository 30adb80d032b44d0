import Loupe

/// `loupe-examples pages [--shared-cancellation]`: seed 000, a user swiping through the pager.
///
/// The user swipes one page at a time, to the last page and back, one swipe per ``swipe``
/// (a second by default) while every page's timer ticks twice a second. At the end the pager
/// releases every page.
///
/// What to look for: with the default isolation, `effect.cancelled` events only ever name
/// the page's own store in `by`, and `loupe doctor` finds nothing. With
/// `--shared-cancellation`, pages cancel each other's timers (`by` names another page's
/// store), counts freeze, and `loupe doctor` reports "Effect cancelled by another store".
@MainActor
final class PagesScenario: Scenario {
  let pager: Pager
  /// The time between swipes.
  let swipe: Duration
  /// Pages in the order the user visits them: there and back again.
  private let route: [Int]

  init(
    sharedCancellation: Bool = false, swipe: Duration = .seconds(1), tick: Duration = .milliseconds(500),
    bus: EventBus = .shared, clock: AnyClock
  ) {
    pager = Pager(cancellation: sharedCancellation ? .processWide : .isolated, tick: tick, bus: bus, clock: clock)
    self.swipe = swipe
    let last = pager.pages.count - 1
    route = Array(1...last) + Array((0..<last).reversed())
  }

  func start() -> String? {
    pager.show(0)
    return "show page 0      \(pager.summary)"
  }

  var beats: [Beat] {
    route.map { page in
      Beat(after: swipe) { [pager] in
        pager.show(page)
        return "swipe to page \(page)  \(pager.summary)"
      }
    }
  }

  func finish() {
    pager.tearDown()
  }
}
