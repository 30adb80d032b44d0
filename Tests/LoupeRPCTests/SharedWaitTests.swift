import Foundation
import LoupeCore
@testable import LoupeRPC
import Synchronization
import Testing

/// Connections that wait for their peer's first bytes on the one shared thread
/// (`Options.waitsOnSharedThread`, a server's accepted sockets): a silent peer costs no thread,
/// and everything else behaves as with a reader of its own.
@Suite(.timeLimit(.minutes(1))) struct SharedWaitTests {
  let options = Connection.Options(waitsOnSharedThread: true)

  @Test func silentPeersGetNoThreadAndOneThatSpeaksIsRead() async throws {
    var pairs: [(Connection, Int32, AsyncStream<Connection.CloseReason>)] = []
    let received = Lock<[String]>([])
    for _ in 0..<50 {
      let (ours, theirs) = socketPair()
      let connection = try Connection(input: ours, output: ours, options: options)
      let closed = AsyncStream.makeStream(of: Connection.CloseReason.self)
      connection.start(
        onFrame: { body in received.withLock { $0.append(String(decoding: body, as: UTF8.self)) } },
        onClose: { closed.continuation.yield($0) })
      pairs.append((connection, theirs, closed.stream))
    }
    #expect(pairs.allSatisfy { !$0.0.hasReaderThread && $0.0.isReading })

    // The first speaks: two frames in one write, then one cut in two writes.
    let (speaker, speakerPeer, speakerClosed) = pairs[0]
    writeAll(speakerPeer, FrameEncoder.frame(Array("a".utf8)) + FrameEncoder.frame(Array("ü".utf8)))
    let third = FrameEncoder.frame(Array("{\"x\":1}".utf8))
    writeAll(speakerPeer, Array(third[..<5]))
    writeAll(speakerPeer, Array(third[5...]))
    close(speakerPeer)
    var iterator = speakerClosed.makeAsyncIterator()
    #expect(await iterator.next() == .endOfInput)
    #expect(received.withLock { $0 } == ["a", "ü", "{\"x\":1}"])
    #expect(speaker.hasReaderThread)

    // The second hangs up without a word: it ends with no thread at all.
    let (leaver, leaverPeer, leaverClosed) = pairs[1]
    close(leaverPeer)
    iterator = leaverClosed.makeAsyncIterator()
    #expect(await iterator.next() == .endOfInput)
    #expect(!leaver.hasReaderThread && leaver.isClosed)

    // The rest are closed locally while they wait.
    for (connection, peer, closed) in pairs.dropFirst(2) {
      connection.close()
      var iterator = closed.makeAsyncIterator()
      #expect(await iterator.next() == .closedLocally)
      #expect(!connection.hasReaderThread && connection.isClosed)
      var byte: UInt8 = 0
      #expect(read(peer, &byte, 1) == 0)  // our end is closed
      close(peer)
    }
  }

  @Test func aPeerThatHangsUpFirstStillEndsItsInputWhenHalfClosing() async throws {
    let (ours, theirs) = socketPair()
    let connection = try Connection(input: ours, output: ours, options: options)
    let endOfInput = AsyncStream.makeStream(of: Void.self)
    let closed = AsyncStream.makeStream(of: Connection.CloseReason.self)
    connection.start(
      onFrame: { _ in }, onEndOfInput: { endOfInput.continuation.yield() },
      onClose: { closed.continuation.yield($0) })
    shutdown(theirs, Int32(SHUT_WR))
    var ended = endOfInput.stream.makeAsyncIterator()
    #expect(await ended.next() != nil)
    #expect(!connection.hasReaderThread)
    // Half closed: what is sent now still reaches the peer, until finish.
    connection.send(body: Array("late answer".utf8))
    connection.finish()
    var iterator = closed.stream.makeAsyncIterator()
    #expect(await iterator.next() == .endOfInput)
    #expect(readToEnd(theirs) == FrameEncoder.frame(Array("late answer".utf8)))
    close(theirs)
  }

  @Test func garbageAsFirstBytesIsAFramingError() async throws {
    let (ours, theirs) = socketPair()
    let connection = try Connection(input: ours, output: ours, options: options)
    let closed = AsyncStream.makeStream(of: Connection.CloseReason.self)
    connection.start(onFrame: { _ in Issue.record("no frame expected") }, onClose: { closed.continuation.yield($0) })
    writeAll(theirs, Array("GET / HTTP/1.1\r\n\r\n".utf8))
    var iterator = closed.stream.makeAsyncIterator()
    guard case .framingError? = await iterator.next() else {
      Issue.record("expected a framing error")
      return
    }
    #expect(!connection.hasReaderThread)
    close(theirs)
  }
}
