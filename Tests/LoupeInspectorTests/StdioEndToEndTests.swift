import Foundation
import LoupeRPC
import Testing
@testable import Loupe
@testable import LoupeClient

/// A real program (`loupe-examples probe`) launched with `LOUPE=stdio`, over real pipes.
@Suite(.timeLimit(.minutes(2))) struct StdioEndToEndTests {
  @Test func fullLifecycle() async throws {
    let stderrPath = Probe.temporaryPath("stderr")
    #expect(FileManager.default.createFile(atPath: stderrPath, contents: nil))
    defer { try? FileManager.default.removeItem(atPath: stderrPath) }
    let client = try Probe.launchStdio(["--burst", "3", "--hold"], stderr: FileHandle(forWritingAtPath: stderrPath))
    let program = try #require(client.program)
    let transcript = Transcript(name: "stdio-lifecycle")
    client.onFrame = { transcript.append(from: "server", body: $0) }
    client.onSend = { transcript.append(from: "client", body: $0.body) }
    defer { transcript.save() }
    var reader = EventReader(client)

    // Before initialize: -32002.
    await #expect(throws: ClientError.response(.serverNotInitialized)) { try await client.send(StoresRequest()) }

    let info = try await client.initialize(clientName: "tests", clientVersion: "1")
    #expect(info.protocolVersion == "1")
    #expect(info.serverInfo.name == "loupe")
    #expect(info.process.pid == Int(program.pid))
    #expect(info.process.name == "loupe-examples")
    #expect(info.capabilities.eventKinds == Event.knownKinds)
    #expect(Set(info.capabilities.methods) == Set(MessageRegistry.serverMethods))

    // History: everything since the session started, from seq 1.
    let history = try await client.subscribe(SubscribeRequest(history: true))
    #expect(history >= 2)
    let startup = await reader.read { $0.isMark("probe:burst-done") }
    #expect(startup.first?.kind == "session.started")
    #expect(startup.contains { $0.payload == .storeCreated(StoreCreated(store: "Probe#1", type: "ProbeFeature", parent: nil, identity: "i1")) })
    #expect(startup.filter { $0.kind == "state.changed" }.count == 3)
    expectNoUnreportedGap(startup, from: 1)

    // Stores and state.
    #expect(try await client.send(StoresRequest()) == [StoreInfo(id: "Probe#1", type: "ProbeFeature", parent: nil, identity: "i1")])
    let whole = try await client.send(StateRequest(store: "Probe#1"))
    #expect(whole.store == "Probe#1")
    #expect(whole.state["count"] == 3)
    #expect(whole.seq >= startup.last!.seq)
    #expect(try await client.send(StateRequest(store: "Probe#1", path: "items[id: 2].title")).state == "eggs")
    #expect(try await client.send(StateRequest(store: "Probe#1", path: "settings[\"theme\"]")).state == "dark")
    await #expect(throws: ClientError.response(.invalidParams("No live store 'Nope'"))) {
      try await client.send(StateRequest(store: "Nope"))
    }
    await #expect(throws: ClientError.response(.invalidParams("Invalid path 'items[': unterminated '[' at offset 5"))) {
      try await client.send(StateRequest(store: "Probe#1", path: "items["))
    }
    await #expect(throws: ClientError.response(.invalidParams("Store 'Probe#1' has no value at path 'items[7]'"))) {
      try await client.send(StateRequest(store: "Probe#1", path: "items[7]"))
    }

    // Marks: the answer's seq is the mark event's.
    let mark = try await client.send(MarkRequest(label: "checkpoint ✓"))
    let marked = await reader.read { $0.isMark("checkpoint") }
    #expect(marked.last?.seq == mark.seq)
    #expect(marked.last?.markLabel == "checkpoint ✓")

    // Filters: resubscribing replaces the filter.
    #expect(try await client.subscribe(SubscribeRequest(filter: EventFilter(kinds: [Glob("state.changed")]))) == 0)
    _ = try await client.send(MarkRequest(label: "probe:tick"))
    let filtered = await reader.read(count: 1)
    #expect(filtered.map(\.kind) == ["state.changed"])
    #expect(filtered.first?.store == "Probe#1")

    // A stray print() in the program goes to stderr and cannot corrupt the channel.
    _ = try await client.subscribe(SubscribeRequest(filter: EventFilter(kinds: [Glob("mark")])))
    _ = try await client.send(MarkRequest(label: "probe:print Content-Length: 5\r\n\r\n{oops"))
    _ = try await client.send(MarkRequest(label: "probe:echo after-print"))
    let afterPrint = await reader.read { $0.isMark("echo after-print") }
    #expect(afterPrint.allSatisfy { $0.kind == "mark" })
    #expect(try await client.send(StoresRequest()).count == 1)

    // Unsubscribe: nothing more arrives until the next subscribe.
    _ = try await client.send(UnsubscribeRequest())
    _ = try await client.send(MarkRequest(label: "while-unsubscribed"))
    _ = try await client.subscribe(SubscribeRequest(filter: EventFilter(kinds: [Glob("mark")])))
    _ = try await client.send(MarkRequest(label: "resubscribed"))
    #expect(await reader.read(count: 1).first?.markLabel == "resubscribed")

    // Shutdown, then requests are refused, then exit closes this connection only.
    try await client.shutdown()
    #expect(await client.waitUntilClosed() == .endOfInput)
    #expect(program.exitStatus == nil)  // the program keeps running
    program.terminate()
    #expect(await program.waitForExit() == .signalled(SIGTERM))
    let stderr = try String(contentsOfFile: stderrPath, encoding: .utf8)
    #expect(stderr.contains("probe: ready"))
    #expect(stderr.contains("{oops"))
  }

  @Test func requestsAfterShutdownAreInvalid() async throws {
    let client = try await Probe.launchStdioReady(["--hold"])
    _ = try await client.initialize(clientName: "tests")
    _ = try await client.send(ShutdownRequest())
    await #expect(throws: ClientError.response(.invalidRequest("Server is shut down: only 'exit' is accepted"))) {
      try await client.send(StoresRequest())
    }
    client.notify(ExitNotification())
    _ = await client.waitUntilClosed()
    client.program?.terminate()
  }

  @Test func noEventLostBetweenStartAndFirstSubscribe() async throws {
    // 8 000 ticks = 16 000 events before the client even initializes.
    let stderr = Pipe()
    let client = try Probe.launchStdio(["--burst", "8000", "--hold"], stderr: stderr.fileHandleForWriting)
    try stderr.fileHandleForWriting.close()
    try await Probe.waitForLine("probe: burst-done", in: stderr.fileHandleForReading)
    var reader = EventReader(client)
    _ = try await client.initialize(clientName: "tests")
    let history = try await client.subscribe(SubscribeRequest(history: true))
    let events = await reader.read { $0.isMark("probe:burst-done") }
    // session.started, identity.changed, store.created, its state.snapshot, another (the
    // probe's command sink attached after the store's creation), 16 000 events with a snapshot
    // after every 1,000th action (8), the burst-done mark.
    #expect(history == 16_014)
    #expect(events.count == 16_014)
    #expect(events.filter { $0.kind == StateSnapshot.kind }.count == 10)
    #expect(events.allSatisfy { $0.droppedCount == nil })
    expectNoUnreportedGap(events, from: 1)
    client.program?.terminate()
  }

  @Test func aClientThatWritesItsSessionAndClosesItsEndGetsEveryAnswerAndItsHistory() async throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: Probe.executable)
    process.arguments = ["probe", "--burst", "2000", "--hold", "--seconds", "600"]
    var env = ProcessInfo.processInfo.environment
    env["LOUPE"] = "stdio"
    env["LOUPE_RECORD"] = nil
    process.environment = env
    let input = Pipe()
    let output = Pipe()
    let progress = Pipe()
    process.standardInput = input
    process.standardOutput = output
    process.standardError = progress
    try process.run()
    defer { process.terminate() }
    // After the burst the history is thousands of events, far more than a pipe holds: most of
    // it is still queued when the session ends, since nothing is read until then.
    try await Probe.waitForLine("probe: burst-done", in: progress.fileHandleForReading)
    let session: [Message] = [
      .request(id: 1, method: "initialize", params: [:]),
      .request(id: 2, method: "loupe/subscribe", params: ["history": true]),
      .request(id: 3, method: "loupe/stores", params: nil),
      .request(id: 4, method: "loupe/state", params: ["store": "Probe#1", "path": "count"]),
      .request(id: 5, method: "shutdown", params: nil),
    ]
    input.fileHandleForWriting.write(Data(session.flatMap { FrameEncoder.frame($0.body) }))
    try input.fileHandleForWriting.close()  // no `exit`: the end of input stands for it
    // The program closes the connection (its stdout) once everything is written, and goes on.
    let data = output.fileHandleForReading.readDataToEndOfFile()
    #expect(process.isRunning)
    var decoder = FrameDecoder()
    decoder.append(Array(data))
    var messages: [JSON] = []
    while case .frame(let body) = decoder.next() { messages.append(try JSONParser.parse(body)) }
    let answers = messages.filter { $0["id"] != nil }
    #expect(answers.map { $0["id"] } == [1, 2, 3, 4, 5])
    let history = try #require(answers[1]["result"]?["history"]?.intValue)
    #expect(history > 4000)
    let seqs = messages.compactMap { $0["params"]?["events"]?.arrayValue }.flatMap { $0 }.compactMap { $0["seq"]?.intValue }
    #expect(seqs.count >= history)
    let historyFirst = seqs.prefix(history).elementsEqual(1...history)
    #expect(historyFirst, "the history, seq 1 to \(history), comes first")
  }

  @Test func eventsQueuedAtExitAreFlushed() async throws {
    let client = try await Probe.launchStdioReady(["--hold"])
    var reader = EventReader(client)
    _ = try await client.initialize(clientName: "tests")
    _ = try await client.subscribe(SubscribeRequest(history: true))
    _ = try await client.send(MarkRequest(label: "probe:burst 2000"))
    client.askProbeToExit()
    let events = await reader.readToEnd()
    #expect(events.last?.markLabel == "probe:bye")
    #expect(events.contains { $0.isMark("probe:burst-done") })
    expectNoUnreportedGap(events, from: 1)
    #expect(await client.program?.waitForExit() == .exited(0))
  }

  @Test func clientKilledMidStreamLeavesTheProgramRunning() async throws {
    let socket = Probe.temporaryPath("sock")
    let trace = Probe.temporaryPath("loupe")
    defer { try? FileManager.default.removeItem(atPath: trace) }
    let client = try await Probe.launchStdioReady(["--hold", "--also-listen", socket], environment: ["LOUPE_RECORD": trace])
    let program = try #require(client.program)
    var reader = EventReader(client)
    _ = try await client.initialize(clientName: "doomed")
    _ = try await client.subscribe()
    _ = try await client.send(MarkRequest(label: "probe:burst 20000"))
    _ = await reader.read { $0.seq > 200 }
    client.close()  // what the kernel does when a client is killed: both pipes vanish

    // The program goes on: a new client over its socket sees the burst finish, and ends it.
    let other = try LoupeClient.connect(socketPath: socket)
    var otherReader = EventReader(other)
    _ = try await other.initialize(clientName: "survivor")
    _ = try await other.subscribe(SubscribeRequest(filter: EventFilter(kinds: [Glob("mark")]), history: true))
    _ = await otherReader.read { $0.isMark("probe:burst-done") }
    other.askProbeToExit()
    #expect(await program.waitForExit() == .exited(0))
    #expect(!FileManager.default.fileExists(atPath: socket))

    // The program's own trace is complete.
    let lines = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n")
    #expect(lines.first?.contains("\"format\":\"loupe-trace\"") == true)
    let events = try lines.dropFirst().map { try Event(json: JSONParser.parse(String($0))) }
    #expect(events.last?.markLabel == "probe:bye")
    #expect(events.filter { $0.kind == "state.changed" }.count == 20_000)
    expectNoUnreportedGap(events, from: 1)
  }
}
