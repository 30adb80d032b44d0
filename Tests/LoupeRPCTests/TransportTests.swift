import Foundation
@testable import LoupeClient
import LoupeCore
@testable import LoupeRPC
import Synchronization
import Testing

/// Two connected Unix stream sockets.
func socketPair() -> (Int32, Int32) {
  var fds: [Int32] = [-1, -1]
  #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0)
  return (fds[0], fds[1])
}

func writeAll(_ fd: Int32, _ bytes: [UInt8]) {
  var offset = 0
  while offset < bytes.count {
    let count = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, bytes.count - offset) }
    if count <= 0 { return }
    offset += count
  }
}

/// Everything `fd` delivers until its end (a blocking socket whose peer finishes).
func readToEnd(_ fd: Int32) -> [UInt8] {
  var bytes: [UInt8] = []
  var buffer = [UInt8](repeating: 0, count: 256)
  while case let count = read(fd, &buffer, buffer.count), count > 0 { bytes += buffer[0..<count] }
  return bytes
}

/// Serves a ``TestHandler`` on one end of a socket pair and returns a started client on the other.
func clientAndServer() throws -> (LoupeClient, TestHandler) {
  let (serverFD, clientFD) = socketPair()
  let handler = TestHandler()
  ServerSession.serve(handler, on: try Connection(input: serverFD, output: serverFD))
  let client = LoupeClient(connection: try Connection(input: clientFD, output: clientFD))
  client.start()
  return (client, handler)
}

@Suite(.timeLimit(.minutes(1))) struct ConnectionTests {
  @Test func framesArriveInOrderAndCloseReportsEndOfInput() async throws {
    let (ours, theirs) = socketPair()
    let received = Lock<[String]>([])
    let connection = try Connection(input: ours, output: ours)
    let closed = AsyncStream.makeStream(of: Connection.CloseReason.self)
    connection.start(
      onFrame: { body in received.withLock { $0.append(String(decoding: body, as: UTF8.self)) } },
      onClose: { reason in
        closed.continuation.yield(reason)
        closed.continuation.finish()
      })
    // Many frames in one write, then one split byte by byte.
    writeAll(theirs, FrameEncoder.frame(Array("a".utf8)) + FrameEncoder.frame(Array("ü".utf8)))
    for byte in FrameEncoder.frame(Array("{\"x\":1}".utf8)) { writeAll(theirs, [byte]) }
    close(theirs)
    var iterator = closed.stream.makeAsyncIterator()
    #expect(await iterator.next() == .endOfInput)
    #expect(received.withLock { $0 } == ["a", "ü", "{\"x\":1}"])
    #expect(connection.isClosed)
  }

  @Test func aHalfClosingPeerStillGetsWhatIsWrittenUntilFinish() async throws {
    let (ours, theirs) = socketPair()
    let connection = try Connection(input: ours, output: ours)
    let endOfInput = AsyncStream.makeStream(of: Void.self)
    let closed = AsyncStream.makeStream(of: Connection.CloseReason.self)
    connection.start(
      onFrame: { body in connection.send(body: body) },  // echo
      onEndOfInput: { endOfInput.continuation.finish() },
      onClose: { closed.continuation.yield($0) })
    writeAll(theirs, FrameEncoder.frame(Array("a".utf8)))
    shutdown(theirs, Int32(SHUT_WR))  // the peer has said everything and now reads
    for await _ in endOfInput.stream {}
    #expect(!connection.isReading)
    #expect(!connection.isClosed)
    connection.send(body: Array("after".utf8))
    connection.finish()
    var iterator = closed.stream.makeAsyncIterator()
    #expect(await iterator.next() == .endOfInput)
    let bytes = readToEnd(theirs)
    close(theirs)
    #expect(bytes == FrameEncoder.frame(Array("a".utf8)) + FrameEncoder.frame(Array("after".utf8)))
  }

  @Test func finishDrainingTheSourceWritesEverythingItHas() async throws {
    final class Countdown: OutgoingSource, Sendable {
      let left = Lock(3)
      func nextOutgoingBody() -> [UInt8]? {
        left.withLock { left in
          guard left > 0 else { return nil }
          left -= 1
          return Array("event \(left)".utf8)
        }
      }
    }
    let (ours, theirs) = socketPair()
    let connection = try Connection(input: ours, output: ours)
    let closed = AsyncStream.makeStream(of: Connection.CloseReason.self)
    // Started and finished at once: only draining the source writes the events.
    connection.start(source: Countdown(), onFrame: { _ in }, onClose: { closed.continuation.yield($0) })
    connection.send(body: Array("answer".utf8))
    connection.finish(drainingSource: true)
    var iterator = closed.stream.makeAsyncIterator()
    #expect(await iterator.next() == .closedLocally)
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 256)
    while case let count = read(theirs, &buffer, buffer.count), count > 0 { bytes += buffer[0..<count] }
    close(theirs)
    // The answer first (answers go before the source), then all the source had.
    #expect(bytes == ["answer", "event 2", "event 1", "event 0"].flatMap { FrameEncoder.frame(Array($0.utf8)) })
  }

  @Test func truncatedFrameAndGarbageAreFramingErrors() async throws {
    for (input, expected) in [
      (Array("Content-Length: 10\r\n\r\n{}".utf8), Connection.CloseReason.framingError(.truncatedFrame)),
      (Array("nonsense\r\n\r\n".utf8), .framingError(.malformedHeader("header line without ':'"))),
    ] {
      let (ours, theirs) = socketPair()
      let connection = try Connection(input: ours, output: ours)
      let closed = AsyncStream.makeStream(of: Connection.CloseReason.self)
      connection.start(onFrame: { _ in }, onClose: { closed.continuation.yield($0) })
      writeAll(theirs, input)
      shutdown(theirs, Int32(SHUT_WR))
      var iterator = closed.stream.makeAsyncIterator()
      #expect(await iterator.next() == expected)
      close(theirs)
    }
  }

  @Test func aVanishedPeerIsPeerGoneNotACrash() async throws {
    let (ours, theirs) = socketPair()
    let connection = try Connection(input: ours, output: ours)
    let closed = AsyncStream.makeStream(of: Connection.CloseReason.self)
    connection.start(onFrame: { _ in }, onClose: { closed.continuation.yield($0) })
    shutdown(theirs, Int32(SHUT_RD))  // the peer stops reading; our writes now fail (EPIPE)
    connection.send(body: Array(repeating: UInt8(ascii: "x"), count: 1 << 16))
    var iterator = closed.stream.makeAsyncIterator()
    #expect(await iterator.next() == .peerGone)
    close(theirs)
  }

  @Test func aPeerThatNeverReadsAnswersIsCutOff() async throws {
    let (ours, theirs) = socketPair()
    let connection = try Connection(input: ours, output: ours, options: .init(maxQueuedBytes: 1 << 20))
    let closed = AsyncStream.makeStream(of: Connection.CloseReason.self)
    connection.start(onFrame: { _ in }, onClose: { closed.continuation.yield($0) })
    let chunk = Array(repeating: UInt8(ascii: "x"), count: 64 << 10)
    for _ in 0..<64 { connection.send(body: chunk) }  // 4 MB into a socket nobody reads
    var iterator = closed.stream.makeAsyncIterator()
    #expect(await iterator.next() == .outputOverflow)
    close(theirs)
  }

  @Test func closeStopsAWriterBlockedOnAFullPipe() async throws {
    let (ours, theirs) = socketPair()
    let connection = try Connection(input: ours, output: ours)
    let closed = AsyncStream.makeStream(of: Connection.CloseReason.self)
    connection.start(onFrame: { _ in }, onClose: { closed.continuation.yield($0) })
    connection.send(body: Array(repeating: UInt8(ascii: "x"), count: 8 << 20))
    #expect(!connection.flush(timeout: .milliseconds(50)))  // cannot flush: nobody reads
    connection.close()
    var iterator = closed.stream.makeAsyncIterator()
    #expect(await iterator.next() == .closedLocally)
    close(theirs)
  }
}

@Suite(.timeLimit(.minutes(1))) struct ClientTests {
  @Test func requestsResponsesAndErrors() async throws {
    let (client, _) = try clientAndServer()
    await #expect(throws: ClientError.response(.serverNotInitialized)) { try await client.send(StoresRequest()) }
    let info = try await client.initialize(clientName: "t")
    #expect(info.serverInfo.name == "test")
    #expect(try await client.send(MarkRequest(label: "a")).seq == 1)
    #expect(try await client.send(StoresRequest()).map(\.id) == ["App#1"])
    await #expect(throws: ClientError.response(.methodNotFound("loupe/state"))) {
      try await client.send(StateRequest(store: "x"))
    }
    // Overlapping requests are matched by id.
    async let one = client.send(MarkRequest(label: "b"))
    async let two = client.send(MarkRequest(label: "c"))
    #expect(Set([try await one.seq, try await two.seq]) == [2, 3])
    try await client.shutdown()
    #expect(await client.waitUntilClosed() == .endOfInput)
    await #expect(throws: ClientError.connectionClosed(.endOfInput)) { try await client.send(StoresRequest()) }
  }

  @Test func cancellingTheAwaitingTaskSendsCancelRequest() async throws {
    let (client, handler) = try clientAndServer()
    _ = try await client.initialize(clientName: "t")
    let task = Task { try await client.send(method: "test/slow", params: nil) }
    // Wait until the server holds the request, then cancel the task.
    while handler.slow.withLock({ $0.isEmpty }) { await Task.yield() }
    task.cancel()
    await #expect(throws: ClientError.response(.requestCancelled)) { try await task.value }
    while handler.cancelledIDs.withLock({ $0.isEmpty }) { await Task.yield() }
    #expect(handler.cancelledIDs.withLock { $0 } == [2])  // id 1 was initialize
  }

  @Test func eventsNotificationsBecomeTheEventStream() async throws {
    let (serverFD, clientFD) = socketPair()
    let client = LoupeClient(connection: try Connection(input: clientFD, output: clientFD))
    client.start()
    let events = [
      Event(seq: 1, time: 0.5, payload: .mark(Mark(label: "a"))),
      Event(seq: 2, time: 1, payload: .unknown(kind: "future.kind", fields: ["x": 1])),
    ]
    var writer = JSONWriter()
    EventsNotification.encode(events, into: &writer)
    writeAll(serverFD, FrameEncoder.frame(writer.bytes))
    close(serverFD)
    var received: [Event] = []
    for await event in client.events { received.append(event) }
    #expect(received == events)
  }

  /// The frames a raw-events client sees: an answer, an events notification written by hand
  /// (spacing and member order kept), a batch.
  func rawEventsRun(decodesEvents: Bool) async throws -> (raw: [String], frames: [String], events: [Event]) {
    let (serverFD, clientFD) = socketPair()
    let client = LoupeClient(connection: try Connection(input: clientFD, output: clientFD))
    let raw = Lock<[String]>([])
    let frames = Lock<[String]>([])
    client.onRawEvents = { batch in raw.withLock { $0 += batch.lines.map { String(decoding: $0, as: UTF8.self) } } }
    client.onFrame = { body in frames.withLock { $0.append(String(decoding: body, as: UTF8.self)) } }
    client.decodesEvents = decodesEvents
    client.start()
    let answer = #"{"jsonrpc":"2.0","id":7,"result":null}"#
    let notification = #"{"jsonrpc":"2.0","method":"loupe/events","params":{"events":[{"seq":1,"time":0.5,"kind":"mark","label":"a"}, {"kind":"mark","seq":2,"time":1.0,"label":"b","future":[1]}]}}"#
    let batch = #"[{"jsonrpc":"2.0","method":"loupe/events","params":{"events":[{"seq":3,"time":2.0,"kind":"mark","label":"c"}]}}]"#
    for body in [answer, notification, batch] { writeAll(serverFD, FrameEncoder.frame(Array(body.utf8))) }
    close(serverFD)
    var events: [Event] = []
    for await event in client.events { events.append(event) }
    return (raw.withLock { $0 }, frames.withLock { $0 }, events)
  }

  @Test func rawEventsComeAsTheyCameAndDecodingIsOptional() async throws {
    let decoded = try await rawEventsRun(decodesEvents: true)
    #expect(decoded.raw == [#"{"seq":1,"time":0.5,"kind":"mark","label":"a"}"#, #"{"kind":"mark","seq":2,"time":1.0,"label":"b","future":[1]}"#])
    // The answer and the batch (not a plain notification) still go to onFrame; the
    // notification handed to onRawEvents does not.
    #expect(decoded.frames.count == 2)
    #expect(decoded.events.map(\.seq) == [1, 2, 3])
    let raw = try await rawEventsRun(decodesEvents: false)
    #expect(raw.raw == decoded.raw)
    #expect(raw.frames.count == 2)
    #expect(raw.events.isEmpty)
  }
}

@Suite struct UnixSocketSafetyTests {
  func directory() throws -> String {
    let path = "/tmp/loupe-sock-\(UUID().uuidString.prefix(8))"
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
    return path
  }

  @Test func createsAPrivateSocketAndRemovesItOnClose() throws {
    let dir = try directory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let listener = try UnixSocketListener(path: dir + "/s")
    var info = stat()
    #expect(lstat(dir + "/s", &info) == 0)
    #expect(info.st_mode & S_IFMT == S_IFSOCK)
    #expect(info.st_mode & 0o777 == 0o600)
    listener.close()
    #expect(!FileManager.default.fileExists(atPath: dir + "/s"))
    listener.close()  // idempotent
  }

  @Test func refusesASymlinkPlantedAtThePath() throws {
    let dir = try directory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let target = dir + "/target"
    #expect(FileManager.default.createFile(atPath: target, contents: Data("keep".utf8)))
    try FileManager.default.createSymbolicLink(atPath: dir + "/s", withDestinationPath: target)
    #expect(throws: SocketError("Refusing to use '\(dir)/s': it is a symbolic link")) {
      try UnixSocketListener(path: dir + "/s")
    }
    #expect(try String(contentsOfFile: target, encoding: .utf8) == "keep")
    #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: dir + "/s")) == target)
  }

  @Test func refusesToReplaceARegularFile() throws {
    let dir = try directory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    #expect(FileManager.default.createFile(atPath: dir + "/s", contents: Data("data".utf8)))
    #expect(throws: SocketError("Refusing to replace '\(dir)/s': it exists and is not a socket")) {
      try UnixSocketListener(path: dir + "/s")
    }
    #expect(try String(contentsOfFile: dir + "/s", encoding: .utf8) == "data")
  }

  @Test func replacesAStaleSocketButNotALiveOne() throws {
    let dir = try directory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    // A stale socket: bound, then its owner went away without removing it.
    let stale = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    _ = try UnixSocket.withAddress(dir + "/s") { bind(stale, $0, $1) }
    close(stale)
    let listener = try UnixSocketListener(path: dir + "/s")
    listener.start { close($0) }
    // Live now: a second server must not steal the path.
    #expect(throws: SocketError("'\(dir)/s' is in use by a running server")) {
      try UnixSocketListener(path: dir + "/s")
    }
    listener.close()
  }

  @Test func closeLeavesAFileThatIsNoLongerOurs() throws {
    let dir = try directory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let listener = try UnixSocketListener(path: dir + "/s")
    try FileManager.default.removeItem(atPath: dir + "/s")
    #expect(FileManager.default.createFile(atPath: dir + "/s", contents: Data("someone else's".utf8)))
    listener.close()
    #expect(FileManager.default.fileExists(atPath: dir + "/s"))
  }

  @Test func refusesADirectoryOthersCanWriteUnlessSticky() throws {
    let dir = try directory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    #expect(chmod(dir, 0o777) == 0)
    #expect(throws: SocketError("Refusing to create a socket in '\(dir)': writable by others and not sticky")) {
      try UnixSocketListener(path: dir + "/s")
    }
    #expect(chmod(dir, 0o1777) == 0)  // like /tmp
    try UnixSocketListener(path: dir + "/s").close()
  }

  @Test func refusesBadPaths() {
    #expect(throws: SocketError.self) { try UnixSocketListener(path: "/nonexistent-loupe-dir/s") }
    #expect(throws: SocketError.self) { try UnixSocketListener(path: "/tmp/" + String(repeating: "x", count: 200)) }
    #expect(throws: SocketError.self) { try UnixSocket.connect(to: "/tmp/loupe-no-such-socket") }
  }
}
