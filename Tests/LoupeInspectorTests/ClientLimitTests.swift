import Foundation
import LoupeRPC
import Testing
@testable import Loupe
@testable import LoupeClient

/// Connections are bounded: a limit on clients, descriptors kept for the program, and an
/// accept loop that survives running out of descriptors. Real programs over real sockets.
@Suite(.timeLimit(.minutes(2))) struct ClientLimitTests {
  /// Connects a raw socket and returns the first frame the program sends on it, read on a
  /// thread of its own (`nil` when the connection closes without one).
  func refusal(at path: String) async throws -> JSON? {
    let fd = try UnixSocket.connect(to: path)
    _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)  // read blocks, on its own thread
    return await withCheckedContinuation { continuation in
      Thread {
        defer { close(fd) }
        var decoder = FrameDecoder()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
          if case .frame(let body) = decoder.next() { return continuation.resume(returning: try? JSONParser.parse(body)) }
          let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
          guard count > 0 else { return continuation.resume(returning: nil) }
          decoder.append(buffer[0..<count])
        }
      }.start()
    }
  }

  func mark(_ label: String, on client: LoupeClient, until prefix: String) async throws -> String {
    var reader = EventReader(client)
    _ = try await client.send(MarkRequest(label: label))
    return await reader.read { $0.isMark(prefix) }.last?.markLabel ?? ""
  }

  /// Regression: every connection was accepted and served, however many.
  @Test func aClientPastTheLimitIsRefusedWithAnErrorItCanRead() async throws {
    let probe = try await Probe.Listening.start(environment: ["LOUPE_MAX_CLIENTS": "2"])
    let first = try await probe.connect()
    let second = try await probe.connect()
    let refused = try await refusal(at: probe.socketPath)
    #expect(refused?["id"] == .null)
    #expect(refused?["error"]?["code"] == -32001)
    #expect(
      refused?["error"]?["message"]
        == "This program serves at most 2 clients at once (LOUPE_MAX_CLIENTS): try again when one has left")
    // The real client reports the refusal as the answer to what it asked.
    let third = try LoupeClient.connect(socketPath: probe.socketPath)
    await #expect(throws: ClientError.self) { _ = try await third.initialize(clientName: "third") }
    // Once one leaves, there is room again.
    try await second.shutdown()
    second.close()
    _ = await second.waitUntilClosed()
    var admitted: LoupeClient?
    for _ in 0..<100 where admitted == nil {
      // The program notices the departure on its own threads: retry until it has.
      admitted = try? await probe.connect()
      if admitted == nil { try await Task.sleep(for: .milliseconds(50)) }
    }
    #expect(admitted != nil)
    first.askProbeToExit()
    #expect(await probe.waitForExit() == 0)
  }

  /// Regression: each connection, even one that never sent a byte, cost about 2 MB (a
  /// 20,000-event ring allocated before any subscribe), and the memory stayed after they left:
  /// 200 idle connections took a program from 27 MB to 440 MB. Now a connection holds no
  /// events of its own and no thread until it speaks (BENCHMARKS.md measures 500).
  /// The bounds are far from both, so a busy machine does not matter.
  @Test func idleConnectionsCostLittleAndTheMemoryIsNotKept() async throws {
    let probe = try await Probe.Listening.start(environment: ["LOUPE_MAX_CLIENTS": "300"])
    let watcher = try await probe.connect()
    _ = try await watcher.subscribe(SubscribeRequest(filter: EventFilter(kinds: [Glob("mark")])))
    func residentKB() async throws -> Int {
      Int(try await mark("probe:rss", on: watcher, until: "probe:rss kB=").split(separator: "=").last ?? "") ?? -1
    }
    let before = try await residentKB()
    var idle: [Int32] = []
    defer { for fd in idle { close(fd) } }
    for _ in 0..<200 { idle.append(try UnixSocket.connect(to: probe.socketPath)) }
    // A client connected after them is served once the program has taken them all.
    let last = try await probe.connect()
    #expect(try await last.send(StoresRequest()).count == 1)
    let with = try await residentKB()
    #expect(with - before < 100_000, "200 idle connections took \(with - before) kB")
    for fd in idle { close(fd) }
    idle = []
    var after = with
    for _ in 0..<100 where after - before >= 60_000 {
      // The program notices the departures on its own threads: ask until it has.
      try await Task.sleep(for: .milliseconds(50))
      after = try await residentKB()
    }
    #expect(after - before < 60_000, "after 200 idle connections left, \(after - before) kB stayed")
    watcher.askProbeToExit()
    #expect(await probe.waitForExit() == 0)
  }

  /// Regression: the probe read its own answer `probe:rss kB=…` as the command `probe:rss`
  /// and answered it again, for good — about 14,000 marks a second on the program's thread
  /// from the first question on, which every later timer-jitter measurement included.
  @Test func theProbeAnswersOneRSSQuestionOnce() async throws {
    let probe = try await Probe.Listening.start()
    let watcher = try await probe.connect()
    _ = try await watcher.subscribe(SubscribeRequest(filter: EventFilter(kinds: [Glob("mark")])))
    var reader = EventReader(watcher)
    _ = try await watcher.send(MarkRequest(label: "probe:rss"))
    _ = await reader.read { $0.isMark("probe:rss kB=") }
    // Commands run in order on the main queue: an answer that triggered another question has
    // queued it before this one.
    _ = try await watcher.send(MarkRequest(label: "probe:echo after"))
    let marks = await reader.read { $0.isMark("echo after") }.compactMap(\.markLabel)
    #expect(!marks.contains { $0.hasPrefix("probe:rss kB=") }, "\(marks.prefix(10))")
    watcher.askProbeToExit()
    #expect(await probe.waitForExit() == 0)
  }

  /// Regression: under `ulimit -n`, idle connections used every descriptor, the program's own
  /// `open` failed, and the accept loop spun on `EMFILE`.
  @Test func clientsNeverTakeTheProgramsLastDescriptors() async throws {
    let probe = try await Probe.Listening.start(environment: ["LOUPE_MAX_CLIENTS": "1000"], descriptorLimit: 128)
    let watcher = try await probe.connect()
    _ = try await watcher.subscribe(SubscribeRequest(filter: EventFilter(kinds: [Glob("mark")])))
    var idle: [Int32] = []
    defer { for fd in idle { close(fd) } }
    for _ in 0..<60 { idle.append(try UnixSocket.connect(to: probe.socketPath)) }
    // The last of them was refused, readably: the program keeps 64 descriptors for itself.
    let refused = try await refusal(at: probe.socketPath)
    #expect(refused?["error"]?["code"] == -32001)
    #expect(refused?["error"]?["message"]?.stringValue?.contains("file descriptors") == true, "\(String(describing: refused))")
    // The program's own files still open.
    #expect(try await mark("probe:open 32", on: watcher, until: "probe:opened") == "probe:opened ok=32 of=32")

    // Out of descriptors altogether (the program's doing): a client is still told why, and the
    // program serves again once it has closed them.
    #expect(try await mark("probe:exhaust", on: watcher, until: "probe:exhausted") == "probe:exhausted")
    let starved = try await refusal(at: probe.socketPath)
    #expect(starved?["error"]?["message"] == "This program is out of file descriptors: try again later")
    #expect(try await mark("probe:release", on: watcher, until: "probe:released") == "probe:released")
    for fd in idle { close(fd) }
    idle = []
    var served: LoupeClient?
    for _ in 0..<100 where served == nil {
      served = try? await probe.connect()  // the accept loop comes back from its back-off
      if served == nil { try await Task.sleep(for: .milliseconds(50)) }
    }
    #expect(try await served?.send(StoresRequest()).count == 1)
    watcher.askProbeToExit()
    #expect(await probe.waitForExit() == 0)
  }
}
