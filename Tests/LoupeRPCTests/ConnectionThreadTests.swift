import Foundation
import LoupeCore
@testable import LoupeRPC
import Synchronization
import Testing

/// A connection starts its writer only when there is something to write (an idle connection
/// costs one thread), and its threads can run below the program's priority.
@Suite(.timeLimit(.minutes(1))) struct ConnectionThreadTests {
  /// Offers `bodies` one by one, and notes the nice value of the thread that asks.
  final class Offer: OutgoingSource, Sendable {
    let left: Lock<[String]>
    let askedAt = Lock<Int?>(nil)
    init(_ bodies: [String]) { left = Lock(bodies) }
    func nextOutgoingBody() -> [UInt8]? {
      askedAt.withLock { $0 = ThreadPriority.currentNiceness }
      return left.withLock { $0.isEmpty ? nil : Array($0.removeFirst().utf8) }
    }
  }

  @Test func aConnectionThatNeverWritesIsFlushedAndEndsWhenThePeerLeaves() async throws {
    let (ours, theirs) = socketPair()
    let connection = try Connection(input: ours, output: ours)
    let closed = AsyncStream.makeStream(of: Connection.CloseReason.self)
    connection.start(source: Offer(["never asked"]), onFrame: { _ in }, onClose: { closed.continuation.yield($0) })
    #expect(connection.flush(timeout: .zero))  // nothing queued, the source never woken
    close(theirs)
    var iterator = closed.stream.makeAsyncIterator()
    #expect(await iterator.next() == .endOfInput)
    #expect(connection.isClosed)
  }

  @Test func finishDrainingASourceNobodyWokeWritesWhatItHas() async throws {
    let (ours, theirs) = socketPair()
    let connection = try Connection(input: ours, output: ours)
    let closed = AsyncStream.makeStream(of: Connection.CloseReason.self)
    connection.start(source: Offer(["event 1", "event 2"]), onFrame: { _ in }, onClose: { closed.continuation.yield($0) })
    connection.finish(drainingSource: true)
    var iterator = closed.stream.makeAsyncIterator()
    #expect(await iterator.next() == .closedLocally)
    #expect(readToEnd(theirs) == ["event 1", "event 2"].flatMap { FrameEncoder.frame(Array($0.utf8)) })
    close(theirs)
  }

  @Test func finishAndCloseEndAConnectionThatNeverWrote() async throws {
    for finishes in [true, false] {
      let (ours, theirs) = socketPair()
      let connection = try Connection(input: ours, output: ours)
      let closed = AsyncStream.makeStream(of: Connection.CloseReason.self)
      connection.start(onFrame: { _ in }, onClose: { closed.continuation.yield($0) })
      if finishes { connection.finish() } else { connection.close() }
      var iterator = closed.stream.makeAsyncIterator()
      #expect(await iterator.next() == .closedLocally)
      #expect(readToEnd(theirs) == [])
      close(theirs)
    }
  }

  @Test func framesQueuedBeforeTheStartAreWritten() async throws {
    let (ours, theirs) = socketPair()
    let connection = try Connection(input: ours, output: ours)
    connection.send(body: Array("early".utf8))
    let closed = AsyncStream.makeStream(of: Connection.CloseReason.self)
    connection.start(onFrame: { _ in }, onClose: { closed.continuation.yield($0) })
    #expect(connection.flush(timeout: .seconds(30)))
    shutdown(theirs, Int32(SHUT_WR))
    var iterator = closed.stream.makeAsyncIterator()
    #expect(await iterator.next() == .endOfInput)
    #expect(readToEnd(theirs) == FrameEncoder.frame(Array("early".utf8)))
    close(theirs)
  }

  #if os(Linux)
    @Test func readerAndWriterRunTheGivenNiceLevelsBelowTheProcess() async throws {
      let (ours, theirs) = socketPair()
      let connection = try Connection(input: ours, output: ours, options: .init(threadNiceness: 4))
      let readerNice = Lock<Int?>(nil)
      let offer = Offer(["event"])
      let closed = AsyncStream.makeStream(of: Connection.CloseReason.self)
      connection.start(
        source: offer, onFrame: { _ in readerNice.withLock { $0 = ThreadPriority.currentNiceness } },
        onClose: { closed.continuation.yield($0) })
      writeAll(theirs, FrameEncoder.frame(Array("{}".utf8)))
      connection.wakeWriter()
      #expect(connection.flush(timeout: .seconds(30)))
      shutdown(theirs, Int32(SHUT_WR))
      var iterator = closed.stream.makeAsyncIterator()
      #expect(await iterator.next() == .endOfInput)
      close(theirs)
      let program = Int(getpriority(__priority_which_t(PRIO_PROCESS.rawValue), id_t(getpid())))
      #expect(readerNice.withLock { $0 } == min(19, program + 4))
      #expect(offer.askedAt.withLock { $0 } == min(19, program + 4))
    }
  #endif
}
