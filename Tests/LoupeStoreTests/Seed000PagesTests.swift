import Loupe
import Testing

/// Seed 000: four page stores whose timers use the same cancel id. Swiping to a page
/// restarts its timer with `cancelInFlight`; in TCA 1.9 that cancelled the other pages'
/// timers. Here cancel ids belong to the store that registered them, unless a process-wide
/// scope is asked for.
@MainActor
@Suite struct Seed000PagesTests {
  @Test func swipingNeverCancelsAnotherPagesTimer() async {
    let session = PageSession(pages: 4, cancellation: .isolated)
    defer { session.invalidate() }
    let (clock, recorder) = (session.clock, session.recorder)
    session.swipe(from: nil, to: 0)
    await clock.advance(by: .seconds(1))
    for index in 1..<4 {
      session.swipe(from: index - 1, to: index)
      await clock.advance(by: .seconds(1))
    }
    // Every page keeps ticking from the moment it first appeared.
    #expect(session.counts == [4, 3, 2, 1])

    // Swiping back restarts page 0's own timer, and only that.
    session.swipe(from: 3, to: 0)
    await clock.advance(by: .seconds(1))
    #expect(session.counts == [5, 4, 3, 2])

    let effectLines = recorder.events.compactMap { event -> String? in
      switch event.payload {
      case .effectStarted, .effectCancelled: EventRecorder.line(event)
      default: nil
      }
    }
    #expect(effectLines == [
      "13 effect.started PageFeature#1 e1 cause=12 id=PageFeature.CancelID.timer",
      "21 effect.started PageFeature#2 e2 cause=20 id=PageFeature.CancelID.timer",
      "31 effect.started PageFeature#3 e3 cause=30 id=PageFeature.CancelID.timer",
      "43 effect.started PageFeature#4 e4 cause=42 id=PageFeature.CancelID.timer",
      "57 effect.cancelled PageFeature#1 e1 cancelInFlight id=PageFeature.CancelID.timer by=PageFeature#1@56",
      "58 effect.started PageFeature#1 e5 cause=56 id=PageFeature.CancelID.timer",
    ])
    // The proof: no effect was ever cancelled by another store.
    for case .effectCancelled(let cancelled) in recorder.events.map(\.payload) {
      #expect(cancelled.by?.store == cancelled.store)
    }
  }

  @Test func aProcessWideScopeCancelsAcrossStoresAndNamesTheCanceller() async {
    let session = PageSession(pages: 2, cancellation: .processWide)
    defer { session.invalidate() }
    await Self.playStory(session)
    // Page 0's timer was cancelled by page 1's cancelInFlight: the seed's bug, on request.
    #expect(session.counts == [1, 2])
    #expect(session.recorder.take() == Self.processWideStory)
  }

  /// Page 0 appears and ticks once, then page 1 appears and ticks twice. Each step is taken in
  /// every session in turn, so the stores of several sessions interleave.
  static func playStory(_ sessions: PageSession...) async {
    for session in sessions { session.swipe(from: nil, to: 0) }
    for session in sessions { await session.clock.advance(by: .seconds(1)) }
    for session in sessions { session.swipe(from: 0, to: 1) }
    for session in sessions { await session.clock.advance(by: .seconds(2)) }
  }

  /// The events of ``playStory(_:)`` in a session whose pages use `.processWide`.
  static let processWideStory = [
    "6 action.received PageFeature#1 PageFeature.Action.selected send",
    "7 state.changed PageFeature#1 cause=6 [isSelected: false → true] \"PageFeature#1: _isSelected changed.\"",
    "8 action.received PageFeature#1 PageFeature.Action.onAppear send",
    "9 effect.started PageFeature#1 e1 cause=8 id=PageFeature.CancelID.timer",
    "10 action.received PageFeature#1 PageFeature.Action.timerTicked effect e1",
    "11 state.changed PageFeature#1 cause=10 [count: 0 → 1] \"PageFeature#1: _count changed.\"",
    "12 action.received PageFeature#1 PageFeature.Action.selected send",
    "13 state.changed PageFeature#1 cause=12 [isSelected: true → false] \"PageFeature#1: _isSelected changed.\"",
    "14 action.received PageFeature#2 PageFeature.Action.selected send",
    "15 state.changed PageFeature#2 cause=14 [isSelected: false → true] \"PageFeature#2: _isSelected changed.\"",
    "16 action.received PageFeature#2 PageFeature.Action.onAppear send",
    "17 effect.cancelled PageFeature#1 e1 cancelInFlight id=PageFeature.CancelID.timer by=PageFeature#2@16",
    "18 effect.started PageFeature#2 e2 cause=16 id=PageFeature.CancelID.timer",
    "19 action.received PageFeature#2 PageFeature.Action.timerTicked effect e2",
    "20 state.changed PageFeature#2 cause=19 [count: 0 → 1] \"PageFeature#2: _count changed.\"",
    "21 action.received PageFeature#2 PageFeature.Action.timerTicked effect e2",
    "22 state.changed PageFeature#2 cause=21 [count: 1 → 2] \"PageFeature#2: _count changed.\"",
  ]

  @Test func aParentStoreWithIdentifiedPagesKeepsEachPagesTimer() async {
    let clock = TestClock()
    let (bus, recorder) = makeSession()
    let store = Store(
      initialState: PagesFeature.State(pages: [.init(id: 0), .init(id: 1)]), bus: bus, clock: clock
    ) { PagesFeature() }
    #expect(recorder.take() == [
      "2 identity.changed PagesFeature#1 i1 created",
      "3 store.created PagesFeature#1 type=PagesFeature parent=- i1",
      "4 identity.changed PagesFeature#1/pages[id: 0] i2 created",
      "5 store.created PagesFeature#1/pages[id: 0] type=PageFeature parent=PagesFeature#1 i2",
      "6 identity.changed PagesFeature#1/pages[id: 1] i3 created",
      "7 store.created PagesFeature#1/pages[id: 1] type=PageFeature parent=PagesFeature#1 i3",
    ])
    store.send(.swiped(to: 0))
    await clock.advance(by: .seconds(1))
    store.send(.swiped(to: 1))
    await clock.advance(by: .seconds(1))
    #expect(store.pages.map(\.count) == [2, 1])
    let lines = recorder.take()
    #expect(Array(lines.prefix(16)) == [
      "8 action.received PagesFeature#1 PagesFeature.Action.swiped send",
      "9 state.changed PagesFeature#1 cause=8 [+current: 0] \"PagesFeature#1: _current changed.\"",
      "10 effect.started PagesFeature#1 e1 cause=8",
      "11 action.received PagesFeature#1 PagesFeature.Action.pages effect e1",
      "12 action.received PagesFeature#1/pages[id: 0] PageFeature.Action.selected parent",
      "13 state.changed PagesFeature#1/pages[id: 0] cause=12 [isSelected: false → true] \"PagesFeature#1/pages[id: 0]: _isSelected changed.\"",
      "14 effect.finished PagesFeature#1 e1 completed",
      "15 effect.started PagesFeature#1 e2 cause=8",
      "16 action.received PagesFeature#1 PagesFeature.Action.pages effect e2",
      "17 action.received PagesFeature#1/pages[id: 0] PageFeature.Action.onAppear parent",
      "18 effect.started PagesFeature#1/pages[id: 0] e3 cause=17 id=PageFeature.CancelID.timer",
      "19 effect.finished PagesFeature#1 e2 completed",
      "20 action.received PagesFeature#1/pages[id: 0] PageFeature.Action.timerTicked effect e3",
      "21 state.changed PagesFeature#1/pages[id: 0] cause=20 [count: 0 → 1] \"PagesFeature#1/pages[id: 0]: _count changed.\"",
      "22 action.received PagesFeature#1 PagesFeature.Action.swiped send",
      "23 state.changed PagesFeature#1 cause=22 [current: 0 → 1] \"PagesFeature#1: _current changed.\"",
    ])
    #expect(!lines.contains { $0.contains("effect.cancelled") })

    // Removing a page ends its identity and its timer.
    store.send(.removePage(0))
    #expect(recorder.take() == [
      "43 action.received PagesFeature#1 PagesFeature.Action.removePage send",
      "44 identity.changed PagesFeature#1/pages[id: 0] i2 removed",
      "45 effect.cancelled PagesFeature#1/pages[id: 0] e3 identityEnded id=PageFeature.CancelID.timer by=PagesFeature#1@43",
      "46 store.destroyed PagesFeature#1/pages[id: 0] i2",
      "47 state.changed PagesFeature#1 cause=43 [-pages[id: 0]: {\"id\":0,\"count\":2,\"isSelected\":false}] \"PagesFeature#1: _pages changed.\"",
    ])
    await clock.advance(by: .seconds(1))
    #expect(store.pages.map(\.count) == [2])
  }

  @Test func insertedElementsGetIdentitiesAndScopedStores() throws {
    let (bus, recorder) = makeSession()
    let store = Store(initialState: PagesFeature.State(), bus: bus) { PagesFeature() }
    _ = recorder.take()
    store.send(.addPage(5))
    let lines = recorder.take()
    #expect(lines == [
      "4 action.received PagesFeature#1 PagesFeature.Action.addPage send",
      "5 identity.changed PagesFeature#1/pages[id: 5] i2 inserted",
      "6 store.created PagesFeature#1/pages[id: 5] type=PageFeature parent=PagesFeature#1 i2",
      "7 state.changed PagesFeature#1 cause=4 [+pages[id: 5]: {\"id\":5,\"count\":0,\"isSelected\":false}] \"PagesFeature#1: _pages changed.\"",
      "8 state.changed PagesFeature#1/pages[id: 5] cause=4 [+@: {\"id\":5,\"count\":0,\"isSelected\":false}] \"PagesFeature#1/pages[id: 5]: @self, @identity changed.\"",
    ])
    let pages = store.scope(state: \.pages, action: PagesFeature.Action.pages)
    let page = try #require(pages[id: 5])
    #expect(page.storeID == "PagesFeature#1/pages[id: 5]")
    page.send(.selected(true))
    #expect(store.pages[id: 5]?.isSelected == true)
    #expect(recorder.take() == [
      "9 action.received PagesFeature#1/pages[id: 5] PageFeature.Action.selected send",
      "10 state.changed PagesFeature#1/pages[id: 5] cause=9 [isSelected: false → true] \"PagesFeature#1/pages[id: 5]: _isSelected changed.\"",
    ])
    store.send(.pages(.element(id: 9, action: .onAppear)))
    #expect(recorder.take() == [
      "11 action.received PagesFeature#1 PagesFeature.Action.pages send",
      "12 warning actionForMissingChild PagesFeature#1: PageFeature.Action.onAppear arrived for pages[id: 9], which is not there; the action was ignored.",
    ])
  }
}
