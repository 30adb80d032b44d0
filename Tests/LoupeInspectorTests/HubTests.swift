import Foundation
import LoupeRPC
import Synchronization
import Testing
@testable import Loupe

func markEvent(_ seq: Int) -> Event { Event(seq: seq, time: Double(seq), payload: .mark(Mark(label: "m\(seq)"))) }

/// Decodes what a queue hands its writer.
func drain(_ queue: ClientQueue) -> [Event] {
  var events: [Event] = []
  while let body = queue.nextOutgoingBody() {
    let json = try! JSONParser.parse(body)
    #expect(json["method"] == "loupe/events")
    events += try! EventsNotification(params: json["params"]).events
  }
  return events
}

final class WakeCounter: Sendable {
  let count = Mutex(0)
  func wake() { count.withLock { $0 += 1 } }
  var value: Int { count.withLock { $0 } }
}

@Suite struct ClientQueueTests {
  @Test func holdsEventsUntilReleasedThenBatches() {
    let wakes = WakeCounter()
    let queue = ClientQueue(capacity: 100, maxBatch: 4, wake: wakes.wake)
    queue.activate(filter: .all, history: [], evicted: nil)
    for seq in 1...10 { queue.offer(markEvent(seq)) }
    #expect(queue.nextOutgoingBody() == nil)  // not released: the subscribe answer goes first
    #expect(wakes.value == 0)
    queue.release()
    #expect(wakes.value == 1)
    var batches: [[Int]] = []
    while let body = queue.nextOutgoingBody() {
      let events = try! EventsNotification(params: try! JSONParser.parse(body)["params"]).events
      batches.append(events.map(\.seq))
    }
    #expect(batches == [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10]])
    // Waiting writer: the next event wakes it exactly once.
    queue.offer(markEvent(11))
    queue.offer(markEvent(12))
    #expect(wakes.value == 2)
    #expect(drain(queue).map(\.seq) == [11, 12])
  }

  @Test func overflowIsReportedAsDroppedInSeqOrder() {
    let queue = ClientQueue(capacity: 3, maxBatch: 100, wake: {})
    queue.activate(filter: .all, history: [], evicted: nil)
    queue.release()
    for seq in 1...10 { queue.offer(markEvent(seq)) }  // 1...3 fit, 4...10 are lost
    #expect(queue.droppedCount == 7)
    queue.offer(markEvent(11))  // still full
    let first = drain(queue)
    // Drained while full: the loss is reported at the end, with the last lost seq.
    #expect(first.map(\.seq) == [1, 2, 3, 11])
    #expect(first.last?.payload == .dropped(Dropped(count: 8)))
    queue.offer(markEvent(12))
    #expect(drain(queue).map(\.seq) == [12])
  }

  @Test func lossBeforeNewEventsIsReportedBeforeThem() {
    let queue = ClientQueue(capacity: 2, maxBatch: 1, wake: {})
    queue.activate(filter: .all, history: [], evicted: nil)
    queue.release()
    for seq in 1...5 { queue.offer(markEvent(seq)) }  // 3, 4, 5 lost
    _ = queue.nextOutgoingBody()  // writer takes 1: room again
    queue.offer(markEvent(6))
    let events = drain(queue)
    #expect(events.map(\.seq) == [2, 5, 6])
    #expect(events[1].payload == .dropped(Dropped(count: 3)))
  }

  @Test func filterAppliesBeforeQueueing() {
    let queue = ClientQueue(capacity: 10, maxBatch: 10, wake: {})
    queue.activate(filter: EventFilter(kinds: [Glob("state.*")]), history: [], evicted: nil)
    queue.release()
    queue.offer(markEvent(1))
    queue.offer(Event(seq: 2, time: 2, payload: .stateChanged(StateChanged(store: "A#1", cause: 1, changes: [], summary: "A#1: _x changed."))))
    #expect(drain(queue).map(\.seq) == [2])
  }

  @Test func deactivateDiscardsAndStopsQueueing() {
    let queue = ClientQueue(capacity: 10, maxBatch: 10, wake: {})
    queue.activate(filter: .all, history: [], evicted: nil)
    queue.release()
    queue.offer(markEvent(1))
    queue.deactivate()
    queue.offer(markEvent(2))
    #expect(queue.nextOutgoingBody() == nil)
  }
}

@Suite struct EventHubTests {
  @Test func historyReplaysTheRingThenLiveEventsWithoutGapOrOverlap() {
    let hub = EventHub(historyCapacity: 5)
    for seq in 1...3 { hub.receive(markEvent(seq)) }
    let queue = ClientQueue(capacity: 10, maxBatch: 100, wake: {})
    #expect(hub.subscribe(queue, filter: .all, history: true) == 3)
    queue.release()
    hub.receive(markEvent(4))
    #expect(drain(queue).map(\.seq) == [1, 2, 3, 4])
  }

  @Test func evictedHistoryIsReportedAsDropped() {
    let hub = EventHub(historyCapacity: 3)
    for seq in 1...7 { hub.receive(markEvent(seq)) }
    let queue = ClientQueue(capacity: 10, maxBatch: 100, wake: {})
    #expect(hub.subscribe(queue, filter: .all, history: true) == 3)
    queue.release()
    let events = drain(queue)
    #expect(events.map(\.seq) == [4, 5, 6, 7])
    #expect(events[0].payload == .dropped(Dropped(count: 4)))
  }

  @Test func withoutHistoryOnlyLiveEvents() {
    let hub = EventHub(historyCapacity: 3)
    hub.receive(markEvent(1))
    let queue = ClientQueue(capacity: 10, maxBatch: 100, wake: {})
    #expect(hub.subscribe(queue, filter: .all, history: false) == 0)
    queue.release()
    hub.receive(markEvent(2))
    #expect(drain(queue).map(\.seq) == [2])
  }

  @Test func filteredHistory() {
    let hub = EventHub(historyCapacity: 10)
    hub.receive(markEvent(1))
    hub.receive(Event(seq: 2, time: 2, payload: .dropped(Dropped(count: 1))))
    hub.receive(Event(seq: 3, time: 3, payload: .storeCreated(StoreCreated(store: "A#1", type: "A", parent: nil, identity: "i"))))
    let queue = ClientQueue(capacity: 10, maxBatch: 100, wake: {})
    #expect(hub.subscribe(queue, filter: EventFilter(kinds: [Glob("store.*")]), history: true) == 2)
    queue.release()
    #expect(drain(queue).map(\.seq) == [2, 3])  // dropped passes every filter
  }

  @Test func unsubscribedQueuesGetNothing() {
    let hub = EventHub(historyCapacity: 10)
    let queue = ClientQueue(capacity: 10, maxBatch: 100, wake: {})
    _ = hub.subscribe(queue, filter: .all, history: false)
    queue.release()
    hub.unsubscribe(queue)
    hub.receive(markEvent(1))
    #expect(hub.subscriberCount == 0)
    #expect(queue.nextOutgoingBody() == nil)
  }

  @Test func ringKeepsTheNewest() {
    var ring = EventRing(capacity: 3)
    for seq in 1...5 { ring.append(markEvent(seq)) }
    #expect(ring.elements.map(\.seq) == [3, 4, 5])
    #expect(ring.removeFirst(upTo: 2).map(\.seq) == [3, 4])
    ring.append(markEvent(6))
    #expect(ring.elements.map(\.seq) == [5, 6])
  }

  @Test func ringAddsUpSizes() {
    var ring = EventRing(capacity: 2)
    ring.append(markEvent(1), size: 10)
    ring.append(markEvent(2), size: 20)
    ring.append(markEvent(3), size: 40)  // evicts 1
    #expect(ring.bytes == 60)
    #expect(ring.removeOldest()?.seq == 2)
    #expect(ring.bytes == 40)
    ring.removeAll()
    #expect(ring.bytes == 0)
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
    let hub = EventHub(historyCapacity: 100, historyByteLimit: 50_000)
    for seq in 1...20 { hub.receive(bigEvent(seq, bytes: 10_000)) }
    // Four 10 kB events fit in 50 kB; the older ones were evicted and are reported.
    let queue = ClientQueue(capacity: 100, maxBatch: 100, wake: {})
    #expect(hub.subscribe(queue, filter: .all, history: true) == 4)
    queue.release()
    let events = drain(queue)
    #expect(events.map(\.seq) == [16, 17, 18, 19, 20])
    #expect(events[0].payload == .dropped(Dropped(count: 16)))
    // One event larger than the whole budget is still kept (the newest always is).
    let small = EventHub(historyCapacity: 100, historyByteLimit: 1_000)
    small.receive(bigEvent(1, bytes: 5_000))
    #expect(small.bufferedCount == 1)
  }

  @Test func aStalledClientsQueueIsBoundedByBytesToo() {
    let queue = ClientQueue(capacity: 1_000, byteCapacity: 35_000, maxBatch: 100, wake: {})
    queue.activate(filter: .all, history: [], evicted: nil)
    queue.release()
    for seq in 1...10 { queue.offer(bigEvent(seq, bytes: 10_000)) }  // 1...3 fit
    #expect(queue.queuedCount == 3)
    #expect(queue.droppedCount == 7)
    let events = drain(queue)
    #expect(events.map(\.seq) == [1, 2, 3, 10])
    #expect(events.last?.payload == .dropped(Dropped(count: 7)))
    // An empty queue takes an event however large, so a big event is never refused for good.
    queue.offer(bigEvent(11, bytes: 100_000))
    #expect(drain(queue).map(\.seq) == [11])
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
    #expect(InspectorMode(environmentValue: "unix:") == .invalid("unix:"))
    #expect(InspectorMode(environmentValue: "tcp:1234") == .invalid("tcp:1234"))
  }

  @Test func redactionAndProblemsFromTheEnvironment() {
    let inspector = Inspector(bus: EventBus(program: "test"))
    let problems = InspectorAutostart.activate(
      ["LOUPE_REDACT": "user.password, *.token,", "LOUPE": "bogus"], inspector: inspector)
    #expect(inspector.bus.renderOptions.redactedPaths == [Glob("user.password"), Glob("*.token")])
    #expect(problems == ["ignoring LOUPE=bogus (expected off, stdio or unix:PATH)"])
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
