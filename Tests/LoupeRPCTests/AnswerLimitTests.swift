import Foundation
import LoupeCore
@testable import LoupeRPC
import Synchronization
import Testing

/// Runs `body` on a thread of its own (it blocks on descriptors), not on the test's.
func onOwnThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
  await withCheckedContinuation { continuation in
    Thread { continuation.resume(returning: body()) }.start()
  }
}

/// Reads one frame body from a blocking descriptor; `nil` at the end of input.
func readFrame(_ fd: Int32) -> [UInt8]? {
  var decoder = FrameDecoder()
  var buffer = [UInt8](repeating: 0, count: 1 << 16)
  while true {
    if case .frame(let body) = decoder.next() { return body }
    let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
    guard count > 0 else { return nil }
    decoder.append(buffer[0..<count])
  }
}

@Suite(.timeLimit(.minutes(1))) struct AnswerLimitTests {
  let limit = AnswerLimit(maxBytes: 200)

  @Test func aSmallAnswerIsSentAsIs() {
    let message = Message.success(id: 1, ["ok": true])
    #expect(limit.body(for: message) == message.body)
  }

  @Test func anAnswerOverTheLimitBecomesAnErrorThatSaysSo() {
    let big = Message.success(id: 7, .string(String(repeating: "x", count: 500)))
    #expect(
      String(decoding: limit.body(for: big), as: UTF8.self)
        == #"{"jsonrpc":"2.0","id":7,"error":{"code":-32603,"message":"The answer is 536 bytes, over the limit of 200 bytes for one answer: ask for less at a time"}}"#
    )
  }

  @Test func aBatchKeepsTheAnswersThatFitInOrder() throws {
    let wide = AnswerLimit(maxBytes: 900)
    let messages = (1...4).map { Message.success(id: .int($0), .string(String(repeating: "y", count: 300))) }
    let body = wide.batchBody(for: messages)
    let answers = try JSONParser.parse(body).arrayValue ?? []
    #expect(answers.map { $0["id"] } == [1, 2, 3, 4])
    #expect(answers.map { $0["error"]?["code"] } == [nil, -32603, -32603, -32603])
    #expect(body.count <= 900)
  }

  @Test func aBatchWhoseErrorsDoNotFitGetsOneError() throws {
    let messages = (1...20).map { Message.success(id: .int($0), .null) }
    let answer = try JSONParser.parse(limit.batchBody(for: messages))
    #expect(answer["id"] == .null)
    #expect(answer["error"]?["code"] == -32603)
  }

  /// Regression: a batch whose answers pass the output limit (100 000 `loupe/stores` in one
  /// 5.5 MB frame) used to close the connection of a client that reads, with no answer.
  @Test func aHugeBatchIsAnsweredWithinTheLimitNotCutOff() async throws {
    let (serverFD, clientFD) = socketPair()
    // The limit is small (so is the work: a debug build on a busy machine does it well within
    // the time limit); the mechanism is the same at the default's 16 MB.
    let connection = try Connection(input: serverFD, output: serverFD, options: .init(maxQueuedBytes: 2 << 20))
    ServerSession.serve(TestHandler(), on: connection)
    let initialize = FrameEncoder.frame(Message.request(id: "init", method: "initialize", params: [:]).body)
    // 2 000 answers of 1 kB each: 2 MB, over the 1 MB answer limit (half the 2 MB queue).
    let batch = "[" + (0..<2_000).map { #"{"jsonrpc":"2.0","id":\#($0),"method":"test/kilobyte"}"# }.joined(separator: ",") + "]"
    let body = await onOwnThread { () -> [UInt8]? in
      let writer = Thread { writeAll(clientFD, initialize + FrameEncoder.frame(Array(batch.utf8))) }
      writer.start()
      _ = readFrame(clientFD)
      return readFrame(clientFD)
    }
    close(clientFD)
    let answers = try #require(body.flatMap { try? JSONParser.parse($0) }?.arrayValue)
    #expect((body?.count ?? 0) <= 1 << 20)
    #expect(answers.count == 2_000)
    #expect(answers.enumerated().allSatisfy { $0.element["id"]?.intValue == $0.offset }, "in request order")
    let answered = answers.prefix { $0["result"] != nil }.count
    #expect(answered > 100)
    #expect(answers.dropFirst(answered).allSatisfy { $0["error"]?["code"] == -32603 })
  }
}

@Suite(.timeLimit(.minutes(5))) struct GonePeerTests {
  /// Regression: a peer that sent many requests and left had every one of them handled (for
  /// the inspector: 10 000 pipelined subscribes kept its reader busy long after the client
  /// was gone). Once an answer cannot be written, the frames still buffered are dropped.
  @Test func framesBufferedByAPeerThatIsGoneAreNotHandled() async throws {
    let (serverFD, clientFD) = socketPair()
    let connection = try Connection(input: serverFD, output: serverFD)
    let handled = Lock(0)
    // The answer is written only once the peer has closed its end, so that writing it fails
    // (otherwise it could land in the socket's buffer before the close, and nothing fails).
    // No wall-clock deadline anywhere: on a busy machine each step may take long, and a
    // deadline that passes lets the handler go on and handle everything (the suite's time
    // limit still ends a test that never gets there).
    let peerClosed = DispatchSemaphore(value: 0)
    let closed = AsyncStream.makeStream(of: Connection.CloseReason.self)
    connection.start(
      onFrame: { [weak connection] _ in
        let first = handled.withLock { count in
          count += 1
          return count == 1
        }
        guard first, let connection else { return }
        peerClosed.wait()
        connection.send(body: Array("answer".utf8))
        // Wait (on the reader, as a slow handler would) until the write fails: the peer is gone.
        while connection.isReading { usleep(1_000) }
      },
      onClose: { closed.continuation.yield($0) })
    let frames = (0..<1_000).flatMap { _ in FrameEncoder.frame(Array("{}".utf8)) }
    // On a thread of its own: a busy cooperative pool must not hold back the close the
    // handler waits for.
    Thread {
      writeAll(clientFD, frames)
      close(clientFD)
      peerClosed.signal()
    }.start()
    var iterator = closed.stream.makeAsyncIterator()
    #expect(await iterator.next() == .peerGone)
    #expect(handled.withLock { $0 } == 1)
  }
}
