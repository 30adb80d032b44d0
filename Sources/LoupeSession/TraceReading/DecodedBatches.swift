import Foundation
import LoupeCore

/// A trace's events read and decoded on a thread of their own, a batch at a time and at most
/// ``ahead`` batches ahead of the reader of the batches: ``SessionModel/init(tracePath:)``
/// indexes one batch while the next ones are decoded. Decoding is most of the time an index
/// takes and needs nothing from the index, so on two cores the trace opens in about the time
/// of decoding it (BENCHMARKS.md, issue 33 item 18).
///
/// The decoding thread runs ``TraceReader/next(filter:decode:kindText:)`` as a reader on one
/// thread would: the same events, the same damage (malformed lines, a truncated end), read from
/// the reader once ``next()`` has returned `nil` (the thread is done with it by then). A read
/// error ends the batches after the events read before it, and ``next()`` throws it.
///
/// Memory: at most ``ahead`` + 2 batches of ``batchSize`` events at a time.
final class DecodedBatches: @unchecked Sendable {
  // Unchecked: `reader` is used by the decoding thread until it has handed over its last
  // batch, then by the owner only; everything else is guarded by `condition`.

  /// Events, each with where its line is.
  struct Batch {
    var events: [Event] = []
    var offsets: [Int] = []
    var lengths: [Int] = []
  }

  static let batchSize = 1_024
  static let ahead = 4

  private let reader: TraceReader
  private let condition = NSCondition()
  private var ready: [Batch] = []
  private var ended = false
  private var failure: TraceError?
  private var abandoned = false

  /// Starts decoding `reader`'s events (its header already read) on a thread of its own.
  init(_ reader: TraceReader) {
    self.reader = reader
    let thread = Thread { [self] in decode() }
    thread.name = "loupe trace decoding"
    thread.start()
  }

  /// The next batch in order, waiting for it to be decoded; `nil` after the last one.
  func next() throws(TraceError) -> Batch? {
    condition.lock()
    defer { condition.unlock() }
    while ready.isEmpty, !ended { condition.wait() }
    if !ready.isEmpty {
      let batch = ready.removeFirst()
      condition.broadcast()
      return batch
    }
    if let failure { throw failure }
    return nil
  }

  /// Stops the decoding thread early: an owner that will not read on must say so (the thread
  /// holds the batches, and waits while ``ahead`` are unread).
  func abandon() {
    condition.lock()
    abandoned = true
    condition.broadcast()
    condition.unlock()
  }

  private func decode() {
    var batch = Batch()
    var failure: TraceError?
    do {
      while let item = try reader.next() {
        guard let event = item.event else { continue }
        batch.events.append(event)
        batch.offsets.append(item.offset)
        batch.lengths.append(item.bytes.count)
        if batch.events.count == Self.batchSize {
          guard hand(batch) else { return }
          batch = Batch()
        }
      }
    } catch {
      failure = error
    }
    condition.lock()
    if !batch.events.isEmpty { ready.append(batch) }
    self.failure = failure
    ended = true
    condition.broadcast()
    condition.unlock()
  }

  /// Hands `batch` over once fewer than ``ahead`` wait; `false` when the owner abandoned them.
  private func hand(_ batch: Batch) -> Bool {
    condition.lock()
    defer { condition.unlock() }
    while ready.count >= Self.ahead, !abandoned { condition.wait() }
    guard !abandoned else { return false }
    ready.append(batch)
    condition.broadcast()
    return true
  }
}
