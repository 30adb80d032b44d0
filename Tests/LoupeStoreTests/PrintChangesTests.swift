import Loupe
import LoupeCore
import Testing

/// `._printChanges()`: each action's text, pinned exactly, and the store it runs in unchanged.
@MainActor
@Suite struct PrintChangesTests {
  /// Collects what the printer writes.
  final class Printed: Sendable {
    private let texts = Lock<[String]>([])
    var printer: ChangePrinter { .lines { text in self.texts.withLock { $0.append(text) } } }
    var all: [String] { texts.withLock { $0 } }
  }

  @Test func eachActionPrintsItsSummaryLineAndItsChanges() {
    let printed = Printed()
    let (bus, _) = makeSession()
    let store = Store(initialState: Counter.State(), bus: bus) { Counter()._printChanges(printed.printer) }
    store.send(.increment)
    store.send(.setLabel("clicks"))
    store.send(.noop)
    #expect(printed.all == [
      """
      received action: Counter.Action.increment
      Counter: _count changed.
        − count: 0
        + count: 1
      """,
      """
      received action: Counter.Action.setLabel("clicks")
      Counter: _label changed.
        − label: "count"
        + label: "clicks"
      """,
      """
      received action: Counter.Action.noop
      Counter: (no state changes)
      """,
    ])
    // The store is named after the feature, not the printing wrapper.
    #expect(store.storeID == "Counter#1")
  }

  /// A `private` feature (common in a SwiftUI file) is named by its own name, not the
  /// runtime's `(unknown context at $…)` or `(HiddenTally in _5E3…)` spelling.
  @Test func aPrivateFeatureIsNamedByItsOwnName() {
    let printed = Printed()
    let (bus, _) = makeSession()
    let store = Store(initialState: HiddenTally.State(), bus: bus) { HiddenTally()._printChanges(printed.printer) }
    store.send(.bump)
    #expect(printed.all == [
      """
      received action: HiddenTally.Action.bump
      HiddenTally: _n changed.
        − n: 0
        + n: 1
      """,
    ])
    #expect(store.storeID == "HiddenTally#1")
  }

  @Test func enumsPrintAsSwift() {
    let printed = Printed()
    let (bus, _) = makeSession()
    let store = Store(initialState: PlayerList.State(), bus: bus) { PlayerList()._printChanges(printed.printer) }
    store.send(.rows(.element(id: 1, action: .startTapped)))
    store.send(.rows(.element(id: 1, action: .loaded(progress: 0.5))))
    store.send(.rename("idle"))
    #expect(printed.all == [
      """
      received action: PlayerList.Action.rows(.element(id: 1, action: .startTapped))
      PlayerList: _rows changed.
        − rows[0].mode: .idle
        + rows[0].mode: .loading(progress: 0.0)
      """,
      """
      received action: PlayerList.Action.rows(.element(id: 1, action: .loaded(progress: 0.5)))
      PlayerList: _rows changed.
        − rows[0].mode.loading.progress: 0.0
        + rows[0].mode.loading.progress: 0.5
      """,
      """
      received action: PlayerList.Action.rename("idle")
      PlayerList: _title changed.
        − title: "Players"
        + title: "idle"
      """,
    ])
  }

  @Test func childrenStayScopedStoresAndTheirChangesPrintFromTheRoot() {
    let printed = Printed()
    let (bus, recorder) = makeSession()
    let store = Store(initialState: ContentFeature.State(), bus: bus) { ContentFeature()._printChanges(printed.printer) }
    store.send(.playButton(.tapped))
    store.send(.toggleTapped)
    #expect(printed.all == [
      """
      received action: ContentFeature.Action.playButton(.tapped)
      ContentFeature: _playButton changed.
        − playButton.isPlaying: false
        + playButton.isPlaying: true
      """,
      """
      received action: ContentFeature.Action.toggleTapped
      ContentFeature: _showPlayButton, _playButton changed.
        − showPlayButton: true
        + showPlayButton: false
        − playButton: {isPlaying: true}
      """,
    ])
    // The child is still its own scoped store.
    #expect(recorder.lines.contains { $0.contains("store.created ContentFeature#1/playButton") })
  }
}

/// Rows with an enum state, addressed by an identified action.
struct PlayerList: Reducer {
  enum Mode: Equatable { case idle, loading(progress: Double) }
  struct Row: Equatable { var id: Int; var mode = Mode.idle }
  struct State: Equatable {
    var title = "Players"
    var rows = [Row(id: 1)]
  }
  enum RowAction: Equatable { case startTapped, loaded(progress: Double) }
  enum RowsAction: Equatable { case element(id: Int, action: RowAction) }
  enum Action: Equatable {
    case rows(RowsAction)
    case rename(String)
  }

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .rows(.element(let id, .startTapped)):
        if let index = state.rows.firstIndex(where: { $0.id == id }) { state.rows[index].mode = .loading(progress: 0) }
      case .rows(.element(let id, .loaded(let progress))):
        if let index = state.rows.firstIndex(where: { $0.id == id }) { state.rows[index].mode = .loading(progress: progress) }
      case .rename(let title):
        state.title = title
      }
      return .none
    }
  }
}

private struct HiddenTally: Reducer {
  struct State: Equatable { var n = 0 }
  enum Action: Equatable { case bump }
  var body: some Reducer<State, Action> {
    Reduce { state, _ in
      state.n += 1
      return .none
    }
  }
}
