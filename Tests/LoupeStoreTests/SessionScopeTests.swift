import Loupe
import Testing

/// What belongs to a session (an ``EventBus``) rather than to the process: the `.processWide`
/// cancellation scope, store numbers (`PageFeature#1`), identities (`i1`) and effect ids
/// (`e1`). On ``EventBus/shared`` the session is the whole program; each test's private bus is
/// one of its own, so tests running at the same time never see each other's stores.
@MainActor
@Suite struct SessionScopeTests {
  @Test func twoSessionsWithAProcessWideScopeDoNotCancelEachOther() async {
    let first = PageSession(pages: 2, cancellation: .processWide)
    let second = PageSession(pages: 2, cancellation: .processWide)
    defer {
      first.invalidate()
      second.invalidate()
    }
    // Step by step, first then second: the second session's page 0 appears (cancelInFlight on
    // the same cancel id) while the first one's timer runs, and leaves it running.
    await Seed000PagesTests.playStory(first, second)
    for session in [first, second] {
      // Within a session the scope is still shared: page 1 stopped page 0's timer.
      #expect(session.counts == [1, 2])
      #expect(session.recorder.take() == Seed000PagesTests.processWideStory)
    }
  }

  @Test func sessionsRunningConcurrentlyEachTellTheirOwnStory() async {
    // Four sessions play the story in tasks of their own, interleaving wherever one waits
    // for its clock, as parallel tests do.
    let stories = await withTaskGroup(of: Story.self) { group in
      for _ in 0..<4 {
        group.addTask { await Self.playInOwnSession() }
      }
      var stories: [Story] = []
      for await story in group { stories.append(story) }
      return stories
    }
    let expected = Story(counts: [1, 2], lines: Seed000PagesTests.processWideStory)
    #expect(stories == Array(repeating: expected, count: 4))
  }

  struct Story: Equatable, Sendable {
    let counts: [Int]
    let lines: [String]
  }

  static func playInOwnSession() async -> Story {
    let session = PageSession(pages: 2, cancellation: .processWide)
    defer { session.invalidate() }
    await Seed000PagesTests.playStory(session)
    return Story(counts: session.counts, lines: session.recorder.take())
  }

  @Test func storeNumbersIdentitiesAndEffectIDsCountPerSession() {
    let (firstBus, first) = makeSession()
    let (secondBus, second) = makeSession()
    let clock = TestClock()
    func page(_ id: Int, on bus: EventBus) -> Store<PageFeature.State, PageFeature.Action> {
      Store(initialState: PageFeature.State(id: id), bus: bus, clock: clock) { PageFeature() }
    }
    let pages = [page(0, on: firstBus), page(0, on: secondBus), page(1, on: firstBus)]
    defer { for page in pages { page.invalidate() } }
    pages[1].send(.onAppear)
    pages[0].send(.onAppear)
    pages[2].send(.onAppear)
    #expect(pages.map(\.storeID) == ["PageFeature#1", "PageFeature#1", "PageFeature#2"])
    #expect(pages.map(\.identity) == ["i1", "i1", "i2"])
    #expect(first.take() == [
      "2 identity.changed PageFeature#1 i1 created",
      "3 store.created PageFeature#1 type=PageFeature parent=- i1",
      "4 identity.changed PageFeature#2 i2 created",
      "5 store.created PageFeature#2 type=PageFeature parent=- i2",
      "6 action.received PageFeature#1 PageFeature.Action.onAppear send",
      "7 effect.started PageFeature#1 e1 cause=6 id=PageFeature.CancelID.timer",
      "8 action.received PageFeature#2 PageFeature.Action.onAppear send",
      "9 effect.started PageFeature#2 e2 cause=8 id=PageFeature.CancelID.timer",
    ])
    #expect(second.take() == [
      "2 identity.changed PageFeature#1 i1 created",
      "3 store.created PageFeature#1 type=PageFeature parent=- i1",
      "4 action.received PageFeature#1 PageFeature.Action.onAppear send",
      "5 effect.started PageFeature#1 e1 cause=4 id=PageFeature.CancelID.timer",
    ])
  }
}
