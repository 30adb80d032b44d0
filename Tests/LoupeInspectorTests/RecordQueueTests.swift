import Testing
@testable import Loupe

/// The queue between a program and its trace file (`LOUPE_RECORD`): bounded by count and by
/// bytes, losses reported in `seq` order.
@Suite struct RecordQueueTests {
  /// A state change carrying a string value of `bytes` bytes.
  func bigEvent(_ seq: Int, bytes: Int) -> Event {
    Event(seq: seq, time: Double(seq), payload: .stateChanged(StateChanged(
      store: "A#1", cause: seq, changes: [Change(path: "text", op: .replace, old: nil, new: .string(String(repeating: "x", count: bytes)))],
      summary: "A#1: _text changed.")))
  }

  func offer(_ queue: inout RecordQueue, _ event: Event) -> Bool {
    queue.offer(event, size: event.approximateBytes).queued
  }

  /// A batch's events, its segments joined.
  func events(_ batch: [[Event]]) -> [Event] { Array(batch.joined()) }

  /// A backlog longer than a segment grows by segments, in order: no queued event is moved to
  /// a larger array (a new segment is made with room for a segment's events), and the loss
  /// comes last.
  @Test func aLongBacklogIsKeptInSegments() {
    let length = RecordQueue.segmentLength
    var queue = RecordQueue(capacity: 2 * length + 100, byteCapacity: .max)
    for seq in 1...(2 * length + 101) { _ = queue.offer(markEvent(seq), size: 10) }
    #expect(queue.count == 2 * length + 100)
    let batch = queue.takeAll()
    #expect(batch.map(\.count) == [length, length, 101])
    #expect(batch[1].capacity == length)  // made for a segment's events, never grown
    #expect(events(batch).map(\.seq) == Array(1...(2 * length + 100)) + [2 * length + 101])
    #expect(events(batch).last?.payload == .dropped(Dropped(count: 1)))
    #expect(queue.isEmpty && queue.count == 0 && queue.inFlight == 2 * length + 101)
    queue.recycle(batch)
    #expect(queue.inFlight == 0)
    #expect(queue.offer(markEvent(1), size: 10) == (queued: true, wasEmpty: true))
  }

  @Test func boundedByCountWithTheLossReportedLast() {
    var queue = RecordQueue(capacity: 3, byteCapacity: .max)
    #expect(queue.offer(markEvent(1), size: 10) == (queued: true, wasEmpty: true))
    #expect(queue.offer(markEvent(2), size: 10) == (queued: true, wasEmpty: false))
    for seq in 3...6 { _ = offer(&queue, markEvent(seq)) }
    let batch = events(queue.takeAll())
    #expect(batch.map(\.seq) == [1, 2, 3, 6])
    #expect(batch.last?.payload == .dropped(Dropped(count: 3)))
    #expect(queue.isEmpty)
  }

  @Test func boundedByBytesToo() {
    var queue = RecordQueue(capacity: 1_000, byteCapacity: 35_000)
    for seq in 1...10 { _ = offer(&queue, bigEvent(seq, bytes: 10_000)) }  // 1...3 fit
    #expect(queue.events.map(\.seq) == [1, 2, 3])
    #expect(queue.lost?.count == 7)
    // Once there is room again the loss is queued ahead of the next event, in `seq` order.
    #expect(events(queue.takeAll()).map(\.seq) == [1, 2, 3, 10])
    #expect(offer(&queue, markEvent(11)))
    #expect(queue.bytes == markEvent(11).approximateBytes)
    // An empty queue takes an event however large, so a big event is never refused for good.
    var empty = RecordQueue(capacity: 10, byteCapacity: 1_000)
    #expect(offer(&empty, bigEvent(1, bytes: 100_000)))
    #expect(!offer(&empty, markEvent(2)))
    #expect(events(empty.takeAll()).map(\.seq) == [1, 2])
  }

  @Test func aWrittenBatchsArrayIsReusedEmpty() {
    var queue = RecordQueue(capacity: 2, byteCapacity: .max)
    for seq in 1...4 { _ = offer(&queue, markEvent(seq)) }
    let batch = queue.takeAll()
    #expect(events(batch).map(\.seq) == [1, 2, 4])
    queue.recycle(batch)
    #expect(offer(&queue, markEvent(5)))
    #expect(events(queue.takeAll()).map(\.payload) == [markEvent(5).payload])
  }

  @Test func lossesWhileTheWriterWritesComeBeforeLaterEvents() {
    var queue = RecordQueue(capacity: 1, byteCapacity: .max)
    _ = offer(&queue, markEvent(1))
    _ = offer(&queue, markEvent(2))  // lost
    let first = queue.takeAll()
    #expect(events(first).map(\.seq) == [1, 2])
    #expect(events(first)[1].payload == .dropped(Dropped(count: 1)))
    queue.recycle(first)  // written
    _ = offer(&queue, markEvent(3))
    _ = offer(&queue, markEvent(4))  // lost
    _ = offer(&queue, markEvent(5))  // lost
    let second = events(queue.takeAll())
    #expect(second.map(\.seq) == [3, 5])
    #expect(second[1].payload == .dropped(Dropped(count: 2)))
  }

  /// The batch being written is still in memory: it counts against both bounds until it is
  /// handed back, so the queue and the batch together stay within the budget.
  @Test func aBatchBeingWrittenCountsUntilItIsWritten() {
    var queue = RecordQueue(capacity: 1_000, byteCapacity: 35_000)
    for seq in 1...3 { #expect(offer(&queue, bigEvent(seq, bytes: 10_000))) }
    let batch = queue.takeAll()
    #expect(queue.inFlightBytes == events(batch).map(\.approximateBytes).reduce(0, +))
    #expect(!offer(&queue, bigEvent(4, bytes: 10_000)))  // 30 kB in flight + 10 kB > 35 kB
    #expect(offer(&queue, markEvent(5)))
    queue.recycle(batch)
    #expect(queue.inFlightBytes == 0)
    #expect(offer(&queue, bigEvent(6, bytes: 10_000)))
    #expect(events(queue.takeAll()).map(\.seq) == [4, 5, 6])  // the loss of 4 reported before 5

    var counted = RecordQueue(capacity: 3, byteCapacity: .max)
    for seq in 1...2 { _ = offer(&counted, markEvent(seq)) }
    let written = counted.takeAll()
    #expect(offer(&counted, markEvent(3)))
    #expect(!offer(&counted, markEvent(4)))  // 2 in flight + 1 queued = the capacity
    counted.recycle(written)
    #expect(offer(&counted, markEvent(5)))
  }
}
