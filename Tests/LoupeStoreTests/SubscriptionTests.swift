import Loupe
import Observation
import Testing

@MainActor
@Suite struct SubscriptionTests {
  @Test func sinkCallsNowThenAfterEveryActionWithThePreviousValue() {
    let store = Store(initialState: Counter.State(), bus: EventBus()) { Counter() }
    var counts: [Int] = []
    var labels: [String] = []
    var previous: [Int?] = []
    let subscription = store.sink { changes in
      previous.append(changes.previous?.count)
      changes.ifChanged(\.count) { counts.append($0) }
      changes.ifChanged(\.label) { labels.append($0) }
    }
    store.send(.increment)
    store.send(.setLabel("n"))
    store.send(.noop)
    #expect(counts == [0, 1])
    #expect(labels == ["count", "n"])
    #expect(previous == [nil, 0, 1, 1])
    subscription.cancel()
    store.send(.increment)
    #expect(counts == [0, 1])
  }

  @Test func releasingTheSubscriptionStopsIt() {
    let store = Store(initialState: Counter.State(), bus: EventBus()) { Counter() }
    var calls = 0
    var subscriptions = Set<StoreSubscription>()
    store.sink { _ in calls += 1 }.store(in: &subscriptions)
    store.send(.increment)
    subscriptions.removeAll()
    store.send(.increment)
    #expect(calls == 2)
  }

  @Test func changesHelpers() {
    let changes = Changes(previous: Counter.State(count: 1), current: Counter.State(count: 1, label: "x"))
    #expect(!changes.hasChanged(\.count))
    #expect(changes.hasChanged(\.label))
    #expect(changes.takeIfChanged(\.label) == "x")
    #expect(changes.takeIfChanged(\.count) == nil)
    #expect(changes.label == "x")
    var both: [String] = []
    changes.ifChanged(\.count, \.label) { both.append("\($0) \($1)") }
    #expect(both == ["1 x"])
  }

  @Test func aScopedSinkSeesOnlyItsChildAndStopsWithItsIdentity() throws {
    let (bus, recorder) = makeSession()
    let store = Store(initialState: ParentFeature.State(detail: Detail.State(id: 1)), bus: bus) { ParentFeature() }
    let detail = try #require(store.scope(state: \.detail, action: ParentFeature.Action.detail))
    var notes: [String] = []
    var causes: [Int?] = []
    let subscription = detail.sink { changes in
      causes.append(changes.cause)
      changes.ifChanged(\.note) { notes.append($0) }
    }
    _ = recorder.take()
    store.send(.detail(.edit("a")))
    store.send(.hide)
    store.send(.show(1))
    #expect(notes == ["", "a"])
    #expect(causes == [nil, 11])
    subscription.cancel()
  }

  @Test func storesAreObservable() {
    let store = Store(initialState: ParentFeature.State(), bus: EventBus()) { ParentFeature() }
    let counter = store.scope(state: \.counter, action: ParentFeature.Action.counter)
    let rootChanged = Flag()
    let childChanged = Flag()
    withObservationTracking { _ = store.total } onChange: { rootChanged.set() }
    withObservationTracking { _ = counter.count } onChange: { childChanged.set() }
    counter.send(.increment)
    #expect(rootChanged.value)
    #expect(childChanged.value)
  }
}

@MainActor
@Suite struct DirectoryTests {
  @Test func liveStoresListsParentsBeforeChildren() async throws {
    let (bus, _) = makeSession()
    let store = Store(initialState: ParentFeature.State(detail: Detail.State(id: 3)), bus: bus) { ParentFeature() }
    let directory = try #require(bus.directory)
    #expect(directory.liveStores() == [
      StoreInfo(id: "ParentFeature#1", type: "ParentFeature", parent: nil, identity: "i1"),
      StoreInfo(id: "ParentFeature#1/counter", type: "Counter", parent: "ParentFeature#1", identity: "i2"),
      StoreInfo(id: "ParentFeature#1/detail", type: "Detail", parent: "ParentFeature#1", identity: "i3"),
      StoreInfo(id: "ParentFeature#1/detail/counter", type: "Counter", parent: "ParentFeature#1/detail", identity: "i4"),
    ])
    store.send(.hide)
    #expect(directory.liveStores().map(\.id) == ["ParentFeature#1", "ParentFeature#1/counter"])
    store.invalidate()
    #expect(directory.liveStores() == [])
  }

  @Test func stateQueriesRenderTheStoresStateOrAPathInIt() async throws {
    let (bus, _) = makeSession()
    let store = Store(initialState: ParentFeature.State(detail: Detail.State(id: 3, note: "n")), bus: bus) { ParentFeature() }
    store.send(.counter(.increment))
    let directory = try #require(bus.directory)
    let root = try await directory.state(of: "ParentFeature#1", path: nil)
    #expect(root.state["total"] == 1)
    #expect(root.seq == bus.lastSeq)
    let counter = try await directory.state(of: "ParentFeature#1/counter", path: nil)
    #expect(counter.state == ["count": 1, "label": "count"])
    let note = try await directory.state(of: "ParentFeature#1/detail", path: "note")
    #expect(note.state == "n")
    let nested = try await directory.state(of: "ParentFeature#1", path: "detail.counter.count")
    #expect(nested.state == 0)
    await #expect(throws: StateQueryError.unknownStore("Nope#1")) {
      try await directory.state(of: "Nope#1", path: nil)
    }
    await #expect(throws: StateQueryError.noValueAtPath(store: "ParentFeature#1", path: "missing")) {
      try await directory.state(of: "ParentFeature#1", path: "missing")
    }
  }

  @Test func elementsAreFoundByIDInStateQueries() async throws {
    let (bus, _) = makeSession()
    let store = Store(initialState: PagesFeature.State(pages: [.init(id: 4, count: 7)]), bus: bus) { PagesFeature() }
    let directory = try #require(bus.directory)
    #expect(try await directory.state(of: "PagesFeature#1", path: "pages[id: 4].count").state == 7)
    #expect(try await directory.state(of: "PagesFeature#1/pages[id: 4]", path: "count").state == 7)
    store.invalidate()
    await #expect(throws: StateQueryError.unknownStore("PagesFeature#1")) {
      try await directory.state(of: "PagesFeature#1", path: nil)
    }
  }

  @Test func redactionAppliesToFullPaths() async throws {
    let (bus, _) = makeSession()
    bus.renderOptions.redactedPaths = [Glob("detail.note")]
    let store = Store(initialState: ParentFeature.State(detail: Detail.State(id: 3, note: "secret")), bus: bus) { ParentFeature() }
    let directory = try #require(bus.directory)
    #expect(try await directory.state(of: "ParentFeature#1/detail", path: "note").state == "<redacted>")
    withExtendedLifetime(store) {}
  }
}
