import Foundation
@testable import Loupe
@testable import LoupeClient
import LoupeCore
@testable import LoupeRPC
import Testing

/// What a program does for its clients when it exits (protocol/lifecycle.md, "When the
/// program exits"): real programs over real pipes and sockets.
@Suite(.timeLimit(.minutes(2))) struct ExitEndToEndTests {
  @Test func aLaunchingClientThatSubscribesAfterTheProgramEndedGetsEveryEvent() async throws {
    for _ in 0..<3 {
      // The probe bursts and exits at once, before this client has even initialized.
      let stderr = Pipe()
      // A long exit timeout: the program waits for this client's subscribe however slowly the
      // tests run (and no longer, once it has subscribed).
      let client = try Probe.launchStdio(
        ["--burst", "3", "--exit-status", "7"], environment: ["LOUPE_EXIT_TIMEOUT": "60"], stderr: stderr.fileHandleForWriting)
      try stderr.fileHandleForWriting.close()
      try await Probe.waitForLine("probe: burst-done", in: stderr.fileHandleForReading)
      var reader = EventReader(client)

      // It keeps serving: initialize, queries, and subscribe with the whole history.
      _ = try await client.initialize(clientName: "tests")
      #expect(try await client.send(StoresRequest()).map(\.id) == ["Probe#1"])
      // It exits on its main thread, so the main actor can no longer read state.
      await #expect(throws: ClientError.response(InspectorClient.exitingError)) {
        try await client.send(StateRequest(store: "Probe#1"))
      }
      let history = try await client.subscribe(SubscribeRequest(history: true))
      let events = await reader.readToEnd()
      // session.started, identity.changed, store.created, state.snapshot, another snapshot
      // (a sink attached after the store's creation: the probe's command sink), 3 × (action,
      // change), burst-done, bye.
      #expect(events.count == 13)
      #expect(history == 13)
      #expect(events.filter { $0.kind == StateSnapshot.kind }.count == 2)
      #expect(events.last?.markLabel == "probe:bye")
      expectNoUnreportedGap(events, from: 1)
      #expect(await client.program?.waitForExit() == .exited(7))
    }
  }

  @Test func theAnswerToTheRequestThatEndsTheProgramIsWritten() async throws {
    for _ in 0..<3 {
      let client = try await Probe.launchStdioReady(["--hold"])
      var reader = EventReader(client)
      _ = try await client.initialize(clientName: "tests")
      _ = try await client.subscribe(SubscribeRequest(filter: EventFilter(kinds: [Glob("mark")])))
      let exit = try await client.send(MarkRequest(label: "probe:exit"))
      let marks = await reader.readToEnd()
      #expect(marks.map(\.markLabel) == ["probe:exit", "probe:bye"])
      #expect(marks.first?.seq == exit.seq)
      #expect(await client.program?.waitForExit() == .exited(0))
    }
  }

  @Test func aSocketClientInItsHandshakeWhenTheProgramExitsGetsEveryEvent() async throws {
    let probe = try await Probe.Listening.start(["--burst", "2", "--hold"], environment: ["LOUPE_EXIT_TIMEOUT": "60"])
    let watcher = try await probe.connect()
    var watcherReader = EventReader(watcher)
    _ = try await watcher.subscribe(SubscribeRequest(filter: EventFilter(kinds: [Glob("mark")])))
    // Connected and initialized, not subscribed yet.
    let late = try await probe.connect()
    var lateReader = EventReader(late)

    // The answer to the request that ends the program arrives, and so does the goodbye.
    _ = try await watcher.send(MarkRequest(label: "probe:exit"))
    _ = await watcherReader.read { $0.isMark("probe:bye") }
    #expect(!FileManager.default.fileExists(atPath: probe.socketPath))  // no new clients now

    // The program is exiting, and waits for the client still in its handshake.
    let history = try await late.subscribe(SubscribeRequest(history: true))
    let events = await lateReader.readToEnd()
    #expect(events.count == history)
    #expect(events.first?.kind == "session.started")
    #expect(events.filter { $0.kind == "state.changed" }.count == 2)
    #expect(events.last?.markLabel == "probe:bye")
    expectNoUnreportedGap(events, from: 1)
    #expect(await probe.waitForExit() == 0)
  }

  // The two tests below tell a program that waits from one that does not without timing it
  // (a bound on wall time failed on a busy machine, at 51 s): the exit timeout is an hour, so
  // a program that waited would still be running when the suite's time limit ends the test.

  @Test func withNoClientThatCouldSubscribeTheProgramDoesNotWait() async throws {
    let environment = ["LOUPE": "stdio", "LOUPE_EXIT_TIMEOUT": "3600"]
    // Stdin at its end: the client is gone.
    let atEnd = try await ExitingProbe.run(stdin: FileHandle(forReadingAtPath: "/dev/null")!, environment: environment)
    #expect(atEnd == 0)
    // Stdin a terminal: a person, not a client speaking the protocol.
    let terminal = try PseudoTerminal()
    let onTerminal = try await ExitingProbe.run(stdin: terminal.replica, environment: environment)
    #expect(onTerminal == 0)
  }

  @Test func aSilentClientHoldsTheExitOnlyUntilTheTimeout() async throws {
    // Stdin a pipe nobody writes to (and that stays open until the program has ended): wait,
    // but only LOUPE_EXIT_TIMEOUT; a program that ignored it would wait for good.
    let stdin = Pipe()
    let run = try await ExitingProbe.run(
      stdin: stdin.fileHandleForReading, environment: ["LOUPE": "stdio", "LOUPE_EXIT_TIMEOUT": "0.2"])
    #expect(run == 0)
    try stdin.fileHandleForWriting.close()
  }
}

/// `loupe-examples probe --burst 3` (which exits at once) with the given stdin, to its end.
enum ExitingProbe {
  /// The probe's exit status, waited for on a thread of its own (not the shared queues, which
  /// a busy test run may keep from starting the wait for a long time).
  static func run(stdin: FileHandle, environment: [String: String]) async throws -> Int32 {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: Probe.executable)
    process.arguments = ["probe", "--burst", "3"]
    var env = ProcessInfo.processInfo.environment
    env["LOUPE_RECORD"] = nil
    for (key, value) in environment { env[key] = value }
    process.environment = env
    process.standardInput = stdin
    process.standardOutput = Probe.devNull
    process.standardError = Probe.devNull
    try process.run()
    return await withCheckedContinuation { continuation in
      Thread {
        process.waitUntilExit()
        continuation.resume(returning: process.terminationStatus)
      }.start()
    }
  }
}

/// A pseudo-terminal whose replica side a child gets as its stdin.
final class PseudoTerminal {
  let primary: Int32
  let replica: FileHandle

  init() throws {
    var primary: Int32 = -1
    var replica: Int32 = -1
    guard openpty(&primary, &replica, nil, nil, nil) == 0 else { throw InspectorError("Cannot open a pseudo-terminal") }
    self.primary = primary
    self.replica = FileHandle(fileDescriptor: replica, closeOnDealloc: true)
  }

  deinit { close(primary) }
}

@Suite struct ExitPolicyTests {
  /// A served client over one end of a socket pair (not started: only its state matters).
  func servedClient(origin: ServedClient.Origin, isTerminal: Bool = false) throws -> ServedClient {
    var fds: [Int32] = [-1, -1]
    #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0)
    close(fds[1])
    let connection = try Connection(input: fds[0], output: fds[0])
    let hub = EventHub(historyCapacity: 10)
    let queue = ClientSubscription(hub: hub, capacity: 10, maxBatch: 10, wake: {})
    let handler = InspectorClient(bus: EventBus(program: "t"), hub: hub, queue: queue)
    let session = ServerSession(handler: handler, send: { _ in }, exit: {})
    return ServedClient(
      handler: handler, connection: connection, session: session, origin: origin, connectedAt: .now, isTerminal: isTerminal)
  }

  func receive(_ message: Message, in client: ServedClient) { client.session.receive(message.body) }

  @Test func whoTheExitWaitsFor() throws {
    let window = Duration.seconds(2)
    let launcher = try servedClient(origin: .launcher)
    // A launching client is awaited however long it has been connected.
    #expect(launcher.awaitsSubscription(exitStart: launcher.connectedAt + .seconds(3600), window: window))
    receive(InitializeRequest().message(id: 1), in: launcher)
    #expect(launcher.awaitsSubscription(exitStart: launcher.connectedAt, window: window))
    receive(SubscribeRequest().message(id: 2), in: launcher)
    #expect(!launcher.awaitsSubscription(exitStart: launcher.connectedAt, window: window))
    receive(UnsubscribeRequest().message(id: 3), in: launcher)
    #expect(!launcher.awaitsSubscription(exitStart: launcher.connectedAt, window: window))  // it did subscribe

    // A socket client only while it may still be in its handshake.
    let socket = try servedClient(origin: .socket)
    #expect(socket.awaitsSubscription(exitStart: socket.connectedAt + .seconds(1), window: window))
    #expect(!socket.awaitsSubscription(exitStart: socket.connectedAt + .seconds(3), window: window))

    // Never a terminal, nor a client that is leaving.
    let terminal = try servedClient(origin: .launcher, isTerminal: true)
    #expect(!terminal.awaitsSubscription(exitStart: terminal.connectedAt, window: window))
    let leaving = try servedClient(origin: .launcher)
    receive(InitializeRequest().message(id: 1), in: leaving)
    receive(ShutdownRequest().message(id: 2), in: leaving)
    #expect(!leaving.awaitsSubscription(exitStart: leaving.connectedAt, window: window))
  }

  @Test func exitTimeoutFromTheEnvironment() {
    #expect(InspectorAutostart.exitTimeout(fromEnvironment: "2") == .seconds(2))
    #expect(InspectorAutostart.exitTimeout(fromEnvironment: " 0.25 ") == .milliseconds(250))
    #expect(InspectorAutostart.exitTimeout(fromEnvironment: "0") == .zero)
    #expect(InspectorAutostart.exitTimeout(fromEnvironment: "-1") == nil)
    #expect(InspectorAutostart.exitTimeout(fromEnvironment: "nan") == nil)
    #expect(InspectorAutostart.exitTimeout(fromEnvironment: "1e9") == nil)
    #expect(InspectorAutostart.exitTimeout(fromEnvironment: "2s") == nil)
    let inspector = Inspector(bus: EventBus(program: "t"))
    #expect(InspectorAutostart.activate(["LOUPE_EXIT_TIMEOUT": "0.5"], inspector: inspector).isEmpty)
    #expect(inspector.configuration.exitFlushTimeout == .milliseconds(500))
    #expect(
      InspectorAutostart.activate(["LOUPE_EXIT_TIMEOUT": "soon"], inspector: inspector)
        == ["ignoring LOUPE_EXIT_TIMEOUT=soon (expected seconds from 0 to 3600, e.g. 2 or 0.5)"])
    #expect(inspector.configuration.exitFlushTimeout == .milliseconds(500))
  }
}

/// In-process: ``Inspector/finishAtExit()`` with a client over a socket pair.
@Suite(.timeLimit(.minutes(2))) struct FinishAtExitTests {
  @Test func servesALaunchingClientUntilItSubscribesThenFlushes() async throws {
    let bus = EventBus(program: "exiting")
    let inspector = Inspector(bus: bus)
    inspector.configuration.exitFlushTimeout = .seconds(60)
    var fds: [Int32] = [-1, -1]
    #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0)
    try inspector.serve(input: fds[0], output: fds[0])
    for n in 1...500 { bus.emit(.mark(Mark(label: "m\(n)"))) }

    let finished = AsyncStream<Void>.makeStream()
    let done = Lock(false)
    let exiting = Thread {
      inspector.finishAtExit()
      done.withLock { $0 = true }
      finished.continuation.finish()
    }
    exiting.start()
    let client = LoupeClient(connection: try Connection(input: fds[1], output: fds[1]))
    var reader = EventReader(client)
    client.start()
    _ = try await client.initialize(clientName: "tests")
    #expect(!done.withLock { $0 }, "finishAtExit returned before the client subscribed")
    #expect(try await client.subscribe(SubscribeRequest(history: true)) == 501)
    let events = await reader.read(count: 501)
    #expect(events.last?.markLabel == "m500")
    expectNoUnreportedGap(events, from: 1)
    for await _ in finished.stream {}  // returns once subscribed and flushed, not after a minute
    client.close()
  }
}

/// Regression (issue 16): each idle client that left started a writer thread only to drain a
/// queue that was never filled — 500 idle clients leaving at once were 500 thread starts
/// beside the program (host_jitter.py's idle-500 pattern, up to 15 ms of timer delay).
@Suite(.timeLimit(.minutes(2))) struct LeavingClientTests {
  @Test func aClientThatNeverSubscribedLeavesWithoutAWriter() async throws {
    let bus = EventBus(program: "leaving")
    let inspector = Inspector(bus: bus)
    for n in 1...10 { bus.emit(.mark(Mark(label: "m\(n)"))) }
    var fds: [Int32] = [-1, -1]
    #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0)
    try inspector.serve(input: fds[0], output: fds[0])
    let connection = try #require(inspector.servedConnections.first)
    close(fds[1])
    while !connection.isClosed { await Task.yield() }
    #expect(!connection.hasWriterThread)
  }

  @Test func aSubscribedClientThatLeavesStillGetsItsQueuedEvents() async throws {
    let bus = EventBus(program: "leaving")
    let inspector = Inspector(bus: bus)
    var fds: [Int32] = [-1, -1]
    #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0)
    try inspector.serve(input: fds[0], output: fds[0])
    let client = LoupeClient(connection: try Connection(input: fds[1], output: fds[1]))
    var reader = EventReader(client)
    client.start()
    _ = try await client.initialize(clientName: "tests")
    #expect(try await client.subscribe(SubscribeRequest(history: true)) >= 0)
    for n in 1...200 { bus.emit(.mark(Mark(label: "m\(n)"))) }
    shutdown(fds[1], Int32(SHUT_WR))  // leaves: its input ends, it still reads
    let events = await reader.read(count: 201)  // the session's start, then the marks
    #expect(events.compactMap(\.markLabel) == (1...200).map { "m\($0)" })
    client.close()
  }
}
