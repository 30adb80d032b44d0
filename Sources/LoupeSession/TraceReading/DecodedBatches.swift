import Foundation
import LoupeCore

/// A trace's events decoded on two threads of their own, a batch at a time, at most ``ahead``
/// batches ahead of the reader of the batches: ``SessionModel/init(tracePath:)`` indexes one
/// batch while the next ones are decoded. Decoding is most of the time an index takes and
/// needs nothing from the index, so on two cores the work is shared about evenly: the reading
/// thread decodes every other batch of lines it read, a second thread the others, and the
/// caller indexes them in order (BENCHMARKS.md, issue 33 item 18).
///
/// The events and the damage are those of ``TraceReader/next(filter:decode:kindText:)`` on one
/// thread: each line is decoded by ``Event/init(jsonText:)`` (or read as plainly as
/// ``EventIndexSkim`` can, for what the index keeps); one that does not decode is a
/// malformed line, or, last in a file without a final line break, the trace's truncated end.
/// The damage found while decoding is handed to the reader (``TraceReader/absorb(_:)``) once
/// ``next()`` has returned `nil`, so the reader's counts are then the whole trace's. A read
/// error ends the batches after the events read before it, and ``next()`` throws it.
///
/// Memory: at most ``ahead`` + 3 batches of ``batchSize`` lines at a time.
final class DecodedBatches: @unchecked Sendable {
  // Unchecked: `reader` is used by the reading thread until it has read the last line, then
  // by the owner only; everything else is guarded by `condition`.

  /// Events (what the index keeps of them), each with where its line is.
  struct Batch {
    var events: [IndexedEvent] = []
    var offsets: [Int] = []
    var lengths: [Int] = []
    /// Lines of the batch that did not decode.
    var damage = TraceReader.Damage()

    init() {
      events.reserveCapacity(DecodedBatches.batchSize)
      offsets.reserveCapacity(DecodedBatches.batchSize)
      lengths.reserveCapacity(DecodedBatches.batchSize)
    }
  }

  /// Lines read and not yet decoded: their bytes one after the other.
  private struct Lines {
    var number: Int
    var bytes: [UInt8] = []
    var ends: [Int] = []
    var offsets: [Int] = []
    var lineNumbers: [Int] = []
    var lastIsLast = false

    init(number: Int) { self.number = number }

    var count: Int { ends.count }
  }

  static let batchSize = 1_024
  static let ahead = 4

  private let reader: TraceReader
  private let condition = NSCondition()
  /// Decoded batches not yet taken, by number.
  private var decoded: [Int: Batch] = [:]
  /// Lines for the second thread.
  private var handedOver: [Lines] = []
  /// The number of the batch ``next()`` hands out next.
  private var taken = 0
  /// How many batches there are, once every line has been read.
  private var total: Int?
  private var failure: TraceError?
  private var abandoned = false
  /// The damage of the batches taken so far.
  private var damage = TraceReader.Damage()

  /// Starts reading and decoding `reader`'s events (its header already read).
  init(_ reader: TraceReader) {
    self.reader = reader
    let reading = Thread { [self] in read() }
    reading.name = "loupe trace reading"
    reading.start()
    let decoding = Thread { [self] in decodeHandedOver() }
    decoding.name = "loupe trace decoding"
    decoding.start()
  }

  /// The next batch in order, waiting for it to be decoded; `nil` after the last one, when
  /// the reader holds the damage of every line.
  func next() throws(TraceError) -> Batch? {
    condition.lock()
    defer { condition.unlock() }
    while decoded[taken] == nil, total.map({ taken < $0 }) ?? true { condition.wait() }
    if let batch = decoded.removeValue(forKey: taken) {
      taken += 1
      damage.add(batch.damage)
      condition.broadcast()
      return batch
    }
    reader.absorb(damage)
    damage = TraceReader.Damage()
    if let failure { throw failure }
    return nil
  }

  /// Stops both threads early: an owner that will not read on must say so (they wait while
  /// ``ahead`` batches are not taken).
  func abandon() {
    condition.lock()
    abandoned = true
    condition.broadcast()
    condition.unlock()
  }

  // MARK: - The threads

  /// Reads the lines, decodes the even batches and hands the odd ones over.
  private func read() {
    var number = 0
    var lines = Lines(number: 0)
    var failure: TraceError?
    do {
      while let line = try reader.nextUncheckedLine() {
        lines.bytes.append(contentsOf: line.bytes)
        lines.ends.append(lines.bytes.count)
        lines.offsets.append(line.offset)
        lines.lineNumbers.append(reader.lineNumber)
        lines.lastIsLast = line.isLast
        if lines.count == Self.batchSize {
          guard dispatch(lines) else { return }
          number += 1
          lines = Lines(number: number)
        }
      }
    } catch {
      failure = error
    }
    if lines.count > 0 {
      guard dispatch(lines) else { return }
      number += 1
    }
    condition.lock()
    total = number
    self.failure = failure
    condition.broadcast()
    condition.unlock()
  }

  /// Decodes `lines` here (an even batch) or hands them to the second thread, once fewer than
  /// ``ahead`` batches are ahead of the owner; `false` when the owner abandoned them.
  private func dispatch(_ lines: Lines) -> Bool {
    condition.lock()
    while lines.number - taken >= Self.ahead, !abandoned { condition.wait() }
    guard !abandoned else {
      condition.unlock()
      return false
    }
    if lines.number % 2 == 1 {
      handedOver.append(lines)
      condition.broadcast()
      condition.unlock()
      return true
    }
    condition.unlock()
    deposit(Self.decode(lines), number: lines.number)
    return true
  }

  /// The second thread: decodes the batches handed over until the last is read.
  private func decodeHandedOver() {
    while true {
      condition.lock()
      while handedOver.isEmpty, total == nil, !abandoned { condition.wait() }
      guard !abandoned, !handedOver.isEmpty else {
        condition.unlock()
        return
      }
      let lines = handedOver.removeFirst()
      condition.unlock()
      deposit(Self.decode(lines), number: lines.number)
    }
  }

  private func deposit(_ batch: Batch, number: Int) {
    condition.lock()
    decoded[number] = batch
    condition.broadcast()
    condition.unlock()
  }

  /// The events of `lines`, and the lines that are not events (as ``TraceReader`` reports them).
  private static func decode(_ lines: Lines) -> Batch {
    var batch = Batch()
    var skim = EventIndexSkim()
    lines.bytes.withUnsafeBufferPointer { bytes in
      var start = 0
      for row in 0..<lines.count {
        let end = lines.ends[row]
        let line = UnsafeBufferPointer(rebasing: bytes[start..<end])
        do throws(EventDecodingError) {
          // The commonest lines are read without being decoded (the same entry).
          let event: IndexedEvent
          if let read = skim.read(line) { event = read } else { event = IndexedEvent(try Event(jsonText: line)) }
          batch.events.append(event)
          batch.offsets.append(lines.offsets[row])
          batch.lengths.append(end - start)
        } catch {
          batch.damage.reject(
            line: lines.lineNumbers[row], offset: lines.offsets[row], byteCount: end - start, reason: error.message,
            isLast: lines.lastIsLast && row == lines.count - 1)
        }
        start = end
      }
    }
    return batch
  }
}
