import Loupe

/// One page of seed 000's pager: a counter that a timer ticks while the page is on screen.
///
/// The page's view sends ``Action/onAppear`` each time it appears and ``Action/onDisappear``
/// when the pager releases it. Appearing (re)starts the timer with `cancelInFlight`, so a page
/// that appears twice still runs one timer; disappearing cancels it. Every page uses the same
/// cancel id, ``CancelID/timer``, exactly as in the seed:
///
/// ```swift
/// case .onAppear:
///   return .run { send in
///     for await _ in send.clock.timer(interval: tick) { await send(.timerTicked) }
///   }
///   .cancellable(id: CancelID.timer, cancelInFlight: true)
/// ```
///
/// In TCA 1.9 cancel ids were process-wide, so one page's `cancelInFlight` stopped the timers
/// of every other page. Loupe's stores keep cancel ids per store unless asked otherwise
/// (`cancellation: .processWide`), and report every cancellation with the store and action
/// that caused it, which is how `loupe doctor` tells the two apart.
struct PageFeature: Reducer {
  struct State: Equatable, Identifiable, Codable {
    let id: Int
    /// Timer ticks since the page first appeared.
    var count = 0
    /// Whether this is the page the user sees (the seed paints it green; neighbours yellow).
    var isSelected = false
  }

  enum Action: Equatable, Codable {
    case onAppear
    case onDisappear
    case selected(Bool)
    case timerTicked
  }

  enum CancelID { case timer }

  /// How often the timer ticks.
  var tick: Duration = .milliseconds(500)

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .onAppear:
        return .run { [tick] send in
          for await _ in send.clock.timer(interval: tick) {
            await send(.timerTicked)
          }
        }
        .cancellable(id: CancelID.timer, cancelInFlight: true)

      case .onDisappear:
        return .cancel(id: CancelID.timer)

      case .selected(let isSelected):
        state.isSelected = isSelected
        return .none

      case .timerTicked:
        state.count += 1
        return .none
      }
    }
  }
}
