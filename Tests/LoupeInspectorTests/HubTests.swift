import Foundation
@testable import Loupe
import LoupeCore
import LoupeRPC
import Testing

func markEvent(_ seq: Int) -> Event { Event(seq: seq, time: Double(seq), payload: .mark(Mark(label: "m\(seq)"))) }

/// Decodes what a queue hands its writer.
func drain(_ queue: ClientSubscription) -> [Event] {
  var events: [Event] = []
  while let body = queue.nextOutgoingBody() {
    let json = try! JSONParser.parse(body)
    #expect(json["method"] == "loupe/events")
    events += try! EventsNotification(params: json["params"]).events
  }
  return events
}

final class WakeCounter: Sendable {
  let count = Lock(0)
  func wake() { count.withLock { $0 += 1 } }
  var value: Int { count.withLock { $0 } }
}

/// A hub and one subscription on it, read synchronously as its writer would.
struct Subscribed {
  let hub: EventHub
  let subscription: ClientSubscription

  init(
    historyCapacity: Int = 100, historyByteLimit: Int = .max, capacity: Int = 100, byteCapacity: Int = .max,
    maxBatch: Int = 100, wake: @escaping @Sendable () -> Void = {}
  ) {
    hub = EventHub(historyCapacity: historyCapacity, historyByteLimit: historyByteLimit)
    subscription = ClientSubscription(hub: hub, capacity: capacity, byteCapacity: byteCapacity, maxBatch: maxBatch, wake: wake)
  }

  @discardableResult
  func subscribe(_ filter: EventFilter = .all, history: Bool = false, release: Bool = true) -> Int {
    let count = hub.subscribe(subscription, filter: CompiledEventFilter(filter), history: history)
    if release { subscription.release() }
    return count
  }
}

@Suite struct ClientSubscriptionTests {
  @Test func holdsEventsUntilReleasedThenBatches() {
    let wakes = WakeCounter()
    let client = Subscribed(maxBatch: 4, wake: wakes.wake)
    client.subscribe(release: false)
    for seq in 1...10 { client.hub.receive(markEvent(seq)) }
    #expect(client.subscription.nextOutgoingBody() == nil)  // not released: the subscribe answer goes first
    #expect(wakes.value == 0)
    client.subscription.release()
    #expect(wakes.value == 1)
    var batches: [[Int]] = []
    while let body = client.subscription.nextOutgoingBody() {
      let events = try! EventsNotification(params: try! JSONParser.parse(body)["params"]).events
      batches.append(events.map(\.seq))
    }
    #expect(batches == [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10]])
    #expect(client.hub.waitingCount == 1)  // read everything: waits for the hub's waker
  }

  @Test func theHubsWakerWakesAWaitingWriterOncePerWait() async {
    let wakes = WakeCounter()
    let client = Subscribed(wake: wakes.wake)
    client.subscribe()
    #expect(drain(client.subscription).isEmpty)
    #expect(client.hub.waitingCount == 1)
    client.hub.receive(markEvent(1))
    client.hub.receive(markEvent(2))
    // The waker thread takes the waiting subscriptions and wakes each once.
    while wakes.value < 2 { await Task.yield() }
    #expect(client.hub.waitingCount == 0)
    #expect(drain(client.subscription).map(\.seq) == [1, 2])
    #expect(wakes.value == 2)
  }

  @Test func fallingBehindIsReportedAsDroppedInSeqOrder() {
    let client = Subscribed(capacity: 3)
    client.subscribe()
    for seq in 1...10 { client.hub.receive(markEvent(seq)) }  // 1...7 are too far behind
    let first = drain(client.subscription)
    #expect(first.map(\.seq) == [7, 8, 9, 10])
    #expect(first.first?.payload == .dropped(Dropped(count: 7)))
    #expect(client.subscription.droppedCount == 7)
    client.hub.receive(markEvent(11))
    #expect(drain(client.subscription).map(\.seq) == [11])
  }

  @Test func eventsTheLogEvictedBeforeTheClientReadThemAreDropped() {
    let client = Subscribed(historyCapacity: 4, capacity: 100, maxBatch: 2)
    client.subscribe()
    for seq in 1...3 { client.hub.receive(markEvent(seq)) }
    #expect(client.subscription.nextOutgoingBody() != nil)  // 1, 2: the client holds 1...3
    for seq in 4...10 { client.hub.receive(markEvent(seq)) }  // the log keeps 7...10
    let events = drain(client.subscription)
    #expect(events.map(\.seq) == [3, 6, 7, 8, 9, 10])  // what it held, then the loss, then the rest
    #expect(events[1].payload == .dropped(Dropped(count: 3)))
  }

  @Test func filterAppliesOnTheWritersThread() {
    let client = Subscribed()
    client.subscribe(EventFilter(kinds: [Glob("state.*")]))
    client.hub.receive(markEvent(1))
    client.hub.receive(Event(seq: 2, time: 2, payload: .stateChanged(StateChanged(store: "A#1", cause: 1, changes: [], summary: "A#1: _x changed."))))
    #expect(drain(client.subscription).map(\.seq) == [2])
  }

  @Test func aFilterThatTakesNothingReadsToTheEndAndWaits() {
    let client = Subscribed(historyCapacity: 2_000, capacity: 2_000, maxBatch: 2)
    client.subscribe(EventFilter(kinds: [Glob("nothing")]))
    for seq in 1...1_000 { client.hub.receive(markEvent(seq)) }
    #expect(client.subscription.nextOutgoingBody() == nil)
    #expect(client.hub.waitingCount == 1)
  }

  @Test func unsubscribeDiscardsAndStopsTaking() {
    let client = Subscribed()
    client.subscribe()
    client.hub.receive(markEvent(1))
    client.hub.unsubscribe(client.subscription)
    client.hub.receive(markEvent(2))
    #expect(client.subscription.nextOutgoingBody() == nil)
    #expect(client.hub.subscriberCount == 0)
    #expect(client.hub.waitingCount == 0)
  }

  @Test func shutdownKeepsWhatCameBeforeIt() {
    let client = Subscribed(maxBatch: 1)
    client.subscribe()
    client.hub.receive(markEvent(1))
    client.hub.receive(markEvent(2))
    client.hub.unsubscribe(client.subscription, keepingQueued: true)
    client.hub.receive(markEvent(3))
    #expect(drain(client.subscription).map(\.seq) == [1, 2])
    #expect(client.hub.waitingCount == 0)  // nothing more will come: it does not wait
  }

  @Test func resubscribingStartsOver() {
    let client = Subscribed(maxBatch: 1)
    client.subscribe(EventFilter(kinds: [Glob("mark")]))
    client.hub.receive(markEvent(1))
    client.hub.receive(markEvent(2))
    _ = client.subscription.nextOutgoingBody()
    #expect(client.subscribe(EventFilter(kinds: [Glob("mark")]), history: true) == 2)
    #expect(drain(client.subscription).map(\.seq) == [1, 2])
  }
}

@Suite struct EventHubTests {
  @Test func historyReplaysTheLogThenLiveEventsWithoutGapOrOverlap() {
    let client = Subscribed(historyCapacity: 5)
    for seq in 1...3 { client.hub.receive(markEvent(seq)) }
    #expect(client.subscribe(history: true) == 3)
    client.hub.receive(markEvent(4))
    #expect(drain(client.subscription).map(\.seq) == [1, 2, 3, 4])
  }

  @Test func aHistoryBeingReplayedSurvivesEviction() {
    let client = Subscribed(historyCapacity: 300, capacity: 1_000, maxBatch: 10)
    for seq in 1...300 { client.hub.receive(markEvent(seq)) }
    #expect(client.subscribe(history: true) == 300)
    _ = client.subscription.nextOutgoingBody()  // 1...10 sent
    for seq in 301...900 { client.hub.receive(markEvent(seq)) }  // the log now keeps 601...900
    let events = drain(client.subscription)
    // The snapshot taken at subscribe time is the client's: all of it, then the loss after it.
    #expect(events.prefix(290).map(\.seq) == Array(11...300))
    #expect(events[290].payload == .dropped(Dropped(count: 300)))
    #expect(events.dropFirst(291).map(\.seq) == Array(601...900))
  }

  @Test func evictedHistoryIsReportedAsDropped() {
    let client = Subscribed(historyCapacity: 3)
    for seq in 1...7 { client.hub.receive(markEvent(seq)) }
    #expect(client.subscribe(history: true) == 3)
    let events = drain(client.subscription)
    #expect(events.map(\.seq) == [4, 5, 6, 7])
    #expect(events[0].payload == .dropped(Dropped(count: 4)))
  }

  @Test func withoutHistoryOnlyLiveEvents() {
    let client = Subscribed(historyCapacity: 3)
    client.hub.receive(markEvent(1))
    #expect(client.subscribe() == 0)
    client.hub.receive(markEvent(2))
    #expect(drain(client.subscription).map(\.seq) == [2])
  }

  @Test func filteredHistory() {
    let client = Subscribed(historyCapacity: 10)
    client.hub.receive(markEvent(1))
    client.hub.receive(Event(seq: 2, time: 2, payload: .dropped(Dropped(count: 1))))
    client.hub.receive(Event(seq: 3, time: 3, payload: .storeCreated(StoreCreated(store: "A#1", type: "A", parent: nil, identity: "i"))))
    #expect(client.subscribe(EventFilter(kinds: [Glob("store.*")]), history: true) == 2)
    #expect(drain(client.subscription).map(\.seq) == [2, 3])  // dropped passes every filter
  }

  @Test func logKeepsTheNewestAcrossSegments() {
    var log = EventLog(capacity: 600, byteLimit: .max)
    for seq in 1...1_000 { log.append(markEvent(seq), size: 10) }
    #expect(log.count == 600)
    #expect(log.bytes == 6_000)
    #expect(log.evicted == LostEvents(count: 400, lastSeq: 400, lastTime: 400))
    let snapshot = log.snapshot
    #expect((snapshot.first..<snapshot.end).map { snapshot.event(at: $0).seq } == Array(401...1_000))
    #expect(snapshot.bytes(from: 990) == 100)
    #expect(snapshot.start(keepingAtMost: 95, from: 0) == 991)
    #expect(log.segments.count <= 4)  // evicted segments are let go
  }

  /// A state change carrying a string value of `bytes` bytes.
  func bigEvent(_ seq: Int, bytes: Int) -> Event {
    Event(seq: seq, time: Double(seq), payload: .stateChanged(StateChanged(
      store: "A#1", cause: seq, changes: [Change(path: "text", op: .replace, old: nil, new: .string(String(repeating: "x", count: bytes)))],
      summary: "A#1: _text changed.")))
  }

  @Test func eventSizesFollowTheirValues() {
    #expect(markEvent(1).approximateBytes < 200)
    #expect(bigEvent(1, bytes: 10_000).approximateBytes > 10_000)
    #expect(bigEvent(1, bytes: 10_000).approximateBytes < 10_500)
  }

  @Test func historyIsBoundedByBytesToo() {
    let client = Subscribed(historyCapacity: 100, historyByteLimit: 50_000)
    for seq in 1...20 { client.hub.receive(bigEvent(seq, bytes: 10_000)) }
    // Four 10 kB events fit in 50 kB; the older ones were evicted and are reported.
    #expect(client.subscribe(history: true) == 4)
    let events = drain(client.subscription)
    #expect(events.map(\.seq) == [16, 17, 18, 19, 20])
    #expect(events[0].payload == .dropped(Dropped(count: 16)))
    // One event larger than the whole budget is still kept (the newest always is).
    let small = EventHub(historyCapacity: 100, historyByteLimit: 1_000)
    small.receive(bigEvent(1, bytes: 5_000))
    #expect(small.bufferedCount == 1)
  }

  @Test func aStalledClientsBacklogIsBoundedByBytesToo() {
    let client = Subscribed(historyCapacity: 1_000, capacity: 1_000, byteCapacity: 35_000)
    client.subscribe()
    for seq in 1...10 { client.hub.receive(bigEvent(seq, bytes: 10_000)) }  // the last 3 fit
    let events = drain(client.subscription)
    #expect(events.map(\.seq) == [7, 8, 9, 10])
    #expect(events.first?.payload == .dropped(Dropped(count: 7)))
    // However large, the newest event is never refused.
    client.hub.receive(bigEvent(11, bytes: 100_000))
    #expect(drain(client.subscription).map(\.seq) == [11])
  }

  @Test func aSubscriptionHoldsNoEventsOfItsOwn() {
    // Subscribing and reading allocate nothing per event: the subscription only points into
    // the hub's log (and lets go of it once read).
    let client = Subscribed(historyCapacity: 20_000)
    for seq in 1...1_000 { client.hub.receive(markEvent(seq)) }
    client.subscribe(history: true)
    #expect(drain(client.subscription).count == 1_000)
    #expect(client.hub.bufferedCount == 1_000)
  }
}

@Suite struct ActivationTests {
  @Test func modes() {
    #expect(InspectorMode(environmentValue: nil) == .off)
    #expect(InspectorMode(environmentValue: "") == .off)
    #expect(InspectorMode(environmentValue: "off") == .off)
    #expect(InspectorMode(environmentValue: "OFF") == .off)
    #expect(InspectorMode(environmentValue: "stdio") == .channel(.stdio))
    #expect(InspectorMode(environmentValue: "unix:/tmp/a b.sock") == .channel(.unix("/tmp/a b.sock")))
    #expect(InspectorMode(environmentValue: "unix:") == .channel(.unix(InspectorMode.defaultSocketPath)))
    #expect(InspectorMode(environmentValue: "unix") == .channel(.unix("/tmp/loupe-\(ProcessInfo.processInfo.processIdentifier).sock")))
    #expect(InspectorMode(environmentValue: "tcp:1234") == .tcp("1234"))  // checked when it starts
    #expect(InspectorMode(environmentValue: "tcp:") == .invalid("tcp:"))
  }

  @Test func redactionAndProblemsFromTheEnvironment() {
    let inspector = Inspector(bus: EventBus(program: "test"))
    let problems = InspectorAutostart.activate(
      ["LOUPE_REDACT": "user.password, *.token,", "LOUPE": "bogus"], inspector: inspector)
    #expect(inspector.bus.renderOptions.redactedPaths == [Glob("user.password"), Glob("*.token")])
    #expect(problems == ["ignoring LOUPE=bogus (expected off, stdio, unix:PATH or tcp:HOST:PORT)"])
    #expect(
      InspectorAutostart.activate(["LOUPE": "tcp:192.168.1.2:7777"], inspector: inspector) == [
        "LOUPE: refusing to listen on '192.168.1.2': only loopback hosts (127.0.0.1, ::1, localhost) are allowed; "
          + "reach a device or another machine through a tunnel (iproxy, ssh -L) (not listening; the program runs on)"
      ])
    let missing = InspectorAutostart.activate(["LOUPE": "unix:/nonexistent-dir/x.sock"], inspector: inspector)
    #expect(missing.count == 1)
    #expect(missing.first?.hasPrefix("LOUPE: Cannot listen on '/nonexistent-dir/x.sock'") == true)
  }

  @Test func sourcePathsFromTheEnvironment() {
    let inspector = Inspector(bus: EventBus(program: "test"))
    #expect(inspector.bus.includesSourcePaths)
    #expect(InspectorAutostart.activate(["LOUPE_SOURCE_PATHS": "off"], inspector: inspector).isEmpty)
    #expect(!inspector.bus.includesSourcePaths)
    #expect(InspectorAutostart.activate(["LOUPE_SOURCE_PATHS": " On "], inspector: inspector).isEmpty)
    #expect(inspector.bus.includesSourcePaths)
    #expect(InspectorAutostart.activate(["LOUPE_SOURCE_PATHS": "hide"], inspector: inspector)
      == ["ignoring LOUPE_SOURCE_PATHS=hide (expected on or off)"])
    #expect(inspector.bus.includesSourcePaths)
  }

  @Test func recordWritesHeaderAndEvents() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("loupe-record-\(UUID().uuidString).loupe").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    let bus = EventBus(program: "rec")
    let inspector = Inspector(bus: bus)
    #expect(InspectorAutostart.activate(["LOUPE_RECORD": path], inspector: inspector).isEmpty)
    bus.emit(.mark(Mark(label: "one")))
    bus.emit(.mark(Mark(label: "two")))
    #expect(inspector.flush(timeout: .seconds(10)))
    inspector.stop()
    let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map { try JSONParser.parse(String($0)) }
    #expect(lines.count == 4)
    #expect(lines[0]["format"] == "loupe-trace")
    #expect(lines[0]["version"] == 1)
    #expect(lines[0]["program"] == "rec")
    #expect(lines[1]["kind"] == "session.started")
    #expect(lines[2]["label"] == "one")
    #expect(lines[3]["seq"] == 3)
  }
}
