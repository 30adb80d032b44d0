import Foundation
import LoupeRPC
import Testing
@testable import Loupe
@testable import LoupeClient

/// A real program listening with `LOUPE=unix:PATH`, with real sockets.
@Suite(.timeLimit(.minutes(2))) struct SocketEndToEndTests {
  @Test func severalClientsEachWithItsOwnFilter() async throws {
    let probe = try await Probe.Listening.start()
    var info = stat()
    #expect(lstat(probe.socketPath, &info) == 0)
    #expect(info.st_mode & S_IFMT == S_IFSOCK)
    #expect(info.st_mode & 0o777 == 0o600)

    let marks = try await probe.connect()
    var marksReader = EventReader(marks)
    #expect(try await marks.subscribe(SubscribeRequest(filter: EventFilter(kinds: [Glob("mark")]))) == 0)
    let changes = try await probe.connect()
    var changesReader = EventReader(changes)
    _ = try await changes.subscribe(
      SubscribeRequest(filter: EventFilter(kinds: [Glob("state.*")], stores: [Glob("Probe*")], paths: [Glob("count")])))

    _ = try await changes.send(MarkRequest(label: "probe:burst 5"))
    let seenByMarks = await marksReader.read { $0.isMark("probe:burst-done") }
    #expect(seenByMarks.map(\.kind) == ["mark", "mark"])
    let seenByChanges = await changesReader.read(count: 5)
    #expect(seenByChanges.allSatisfy { $0.kind == "state.changed" && $0.store == "Probe#1" })
    let counts: [JSON?] = seenByChanges.map {
      if case .stateChanged(let change) = $0.payload { change.changes.first?.new } else { nil }
    }
    #expect(counts == [1, 2, 3, 4, 5])

    // A late client gets the whole session from its history.
    let late = try await probe.connect()
    var lateReader = EventReader(late)
    let history = try await late.subscribe(SubscribeRequest(history: true))
    let replay = await lateReader.read(count: history)
    #expect(replay.first?.kind == "session.started")
    #expect(replay.filter { $0.kind == "action.received" }.count == 5)
    expectNoUnreportedGap(replay, from: 1)

    // One client leaving does not disturb the others.
    try await late.shutdown()
    #expect(await late.waitUntilClosed() == .endOfInput)
    _ = try await marks.send(MarkRequest(label: "still here"))
    #expect(await marksReader.read(count: 1).first?.markLabel == "still here")

    marks.askProbeToExit()
    #expect(await probe.waitForExit() == 0)
    #expect(!FileManager.default.fileExists(atPath: probe.socketPath))  // removed at exit
    _ = await marks.waitUntilClosed()
    _ = await changes.waitUntilClosed()
  }

  @Test func garbageClosesOnlyThatConnection() async throws {
    let probe = try await Probe.Listening.start()
    let good = try await probe.connect()
    let fd = try UnixSocket.connect(to: probe.socketPath)
    let garbage = Array("GET / HTTP/1.1\r\nHost: x\r\n\r\n".utf8)
    _ = garbage.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    // The server closes the bad connection: we read EOF (or a reset).
    var pollFD = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    _ = poll(&pollFD, 1, 10_000)
    var byte: UInt8 = 0
    #expect(read(fd, &byte, 1) <= 0)
    close(fd)
    #expect(try await good.send(StoresRequest()).count == 1)
    good.askProbeToExit()
    #expect(await probe.waitForExit() == 0)
  }

  @Test func aClientThatNeverReadsDoesNotHoldTheProgramBack() async throws {
    let probe = try await Probe.Listening.start()
    // The stalled client: subscribes to everything, then never reads a byte.
    let stalled = try UnixSocket.connect(to: probe.socketPath)
    for message in [
      InitializeRequest(clientInfo: .init(name: "stalled")).message(id: 1),
      SubscribeRequest().message(id: 2),
    ] {
      let frame = FrameEncoder.frame(message.body)
      _ = frame.withUnsafeBytes { write(stalled, $0.baseAddress, $0.count) }
    }
    // Wait until the stalled client is subscribed: its subscribe answer is on the wire.
    let watcher = try await probe.connect()
    var watcherReader = EventReader(watcher)
    _ = try await watcher.subscribe(SubscribeRequest(filter: EventFilter(kinds: [Glob("mark")])))

    // 30 000 ticks = 60 000 events, three times what the stalled client's queue and socket hold.
    _ = try await watcher.send(MarkRequest(label: "probe:burst 30000"))
    let done = await watcherReader.read { $0.isMark("probe:burst-done") }.last?.markLabel ?? ""
    let numbers = done.split(separator: " ").compactMap { $0.split(separator: "=").last.flatMap { Int($0) } }
    #expect(numbers.count == 2)
    let (milliseconds, peakKB) = (numbers.first ?? 0, numbers.last ?? 0)
    // Bounded memory: 300 000 queued events would take far more than this.
    #expect(peakKB < 150_000, "peak RSS \(peakKB) KB")
    print("stalled-client burst: 60000 events in \(milliseconds) ms, peak RSS \(peakKB) KB")
    // The stalled client resumes reading: it gets what its queue held, then the `dropped`
    // count of what did not fit, then live events again.
    let resumed = LoupeClient(connection: try Connection(input: stalled, output: stalled))
    var resumedReader = EventReader(resumed)
    resumed.start()
    var events = await resumedReader.read { $0.droppedCount != nil }
    _ = try await watcher.send(MarkRequest(label: "resumed"))
    events += await resumedReader.read { $0.isMark("resumed") }
    let dropped = events.compactMap(\.droppedCount).reduce(0, +)
    #expect(dropped > 20_000)
    #expect(events.last?.markLabel == "resumed")
    // Every event is accounted for: delivered, or counted in a `dropped`.
    if let first = events.first { expectNoUnreportedGap(events, from: first.seq) }

    watcher.askProbeToExit()
    #expect(await probe.waitForExit() == 0)
  }

  @Test func aClientProcessKilledMidStreamLeavesTheProgramRunning() async throws {
    let probe = try await Probe.Listening.start()
    let watcher = try await probe.connect()
    var watcherReader = EventReader(watcher)
    _ = try await watcher.subscribe(SubscribeRequest(filter: EventFilter(kinds: [Glob("mark")])))

    let doomed = Process()
    doomed.executableURL = URL(fileURLWithPath: Probe.executable)
    doomed.arguments = ["probe", "--client", probe.socketPath]
    let output = Pipe()
    doomed.standardOutput = output
    try doomed.run()
    try await Probe.waitForLine("probe: subscribed", in: output.fileHandleForReading)
    _ = try await watcher.send(MarkRequest(label: "probe:burst 30000"))
    try await Probe.waitForLine("probe: streaming", in: output.fileHandleForReading)
    kill(doomed.processIdentifier, SIGKILL)  // mid-stream: the burst is still being sent
    doomed.waitUntilExit()
    #expect(doomed.terminationReason == .uncaughtSignal)

    // The program finishes its work and still serves.
    _ = await watcherReader.read { $0.isMark("probe:burst-done") }
    #expect(try await watcher.send(StateRequest(store: "Probe#1", path: "count")).state == 30_000)
    watcher.askProbeToExit()
    #expect(await probe.waitForExit() == 0)
  }
}
