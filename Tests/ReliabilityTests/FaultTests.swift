import Foundation
import LoupeCore
import LoupeRPC
import Testing

extension ReliabilitySuites {
  /// Faults over real processes: clients that die or stall, programs that exit or are killed
  /// under a client, foreign files where the socket goes, traces on full or read-only disks, and
  /// `loupe record` killed halfway. Each proves the program carries on and nothing complete is
  /// lost. (`Tests/LoupeInspectorTests` and `Tests/LoupeRPCTests` cover a client process killed
  /// mid-stream and a socket client that never reads; these extend them.)
  @Suite(.timeLimit(.minutes(3))) struct FaultTests {
    // MARK: Clients

    @Test func loupeAttachKilledMidStreamLeavesTheProgramServing() throws {
      let probe = try ListeningProbe()
      let driver = try RawConnection(socketPath: probe.socketPath)
      try driver.initialize()
      _ = try driver.call(SubscribeRequest(filter: EventFilter(kinds: [Glob("mark")])).message(id: "sub"))

      let attach = try ChildProcess("loupe", ["attach", "--socket", probe.socketPath, "--format", "json"])
      defer { attach.killIfRunning() }
      try attach.stdout.wait(for: #""kind":"store.created""#)
      driver.send(MarkRequest(label: "probe:burst 20000").message(id: "burst"))
      try attach.stdout.wait(for: #""kind":"state.changed""#)
      attach.signal(SIGKILL)  // while the burst streams to it
      #expect(attach.waitForExit(timeout: .seconds(20)) == .signalled(SIGKILL))

      _ = try driver.readEvents(untilMark: "probe:burst-done")
      let count = try driver.call(StateRequest(store: "Probe#1", path: "count").message(id: "count"))
      #expect(count["state"] == 20_000)
      try probe.expectServing()
      #expect(try probe.exit().termination == .exited(0))
    }

    @Test func aStdioClientThatNeverReadsCannotHoldTheProgram() throws {
      // The client writes its requests and never reads a byte of the 40 000 events it asked for.
      let program = try ChildProcess(
        "loupe-examples", ["probe", "--hold"], environment: ["LOUPE": "stdio"], keepStdinOpen: true, readStdout: false)
      defer { program.killIfRunning() }
      func write(_ messages: Message...) {
        program.stdin?.write(Data(messages.flatMap { FrameEncoder.frame($0.body) }))
      }
      write(InitializeRequest(clientInfo: .init(name: "stalled")).message(id: 1), SubscribeRequest(history: true).message(id: 2))
      // Under LOUPE=stdio the probe's own output goes to stderr; once ready it takes commands.
      try program.stderr.wait(for: "probe: ready")
      write(MarkRequest(label: "probe:burst 20000").message(id: 3), MarkRequest(label: "probe:exit").message(id: 4))
      try program.stderr.wait(for: "probe: burst-done")
      // It exits by itself: the exit flush gives up on the stalled client after its timeout.
      let end = try program.finish(timeout: .seconds(30))
      #expect(end.termination == .exited(0))
    }

    // MARK: Programs that end under a client

    @Test func aProgramExitingFlushesToAttachedClients() throws {
      let probe = try ListeningProbe()
      let attach = try ChildProcess("loupe", ["attach", "--socket", probe.socketPath, "--format", "json"])
      defer { attach.killIfRunning() }
      try attach.stdout.wait(for: #""kind":"store.created""#)
      let driver = try RawConnection(socketPath: probe.socketPath)
      try driver.initialize()
      driver.send(MarkRequest(label: "probe:burst 3000").message(id: "burst"))
      driver.send(MarkRequest(label: "probe:exit").message(id: "exit"))
      #expect(try probe.child.finish().termination == .exited(0))

      let end = try attach.finish()
      #expect(end.termination == .exited(0))
      let lines = end.stdout.split(separator: "\n")
      let events = try lines.map { try Event(jsonText: Array($0.utf8)) }
      #expect(events.map(\.seq) == Array(1...events.count))  // every event, in order, none lost
      #expect(events.filter { $0.kind == "state.changed" }.count == 3000)
      #expect(events.last.map { if case .mark(let mark) = $0.payload { mark.label } else { "" } } == "probe:bye")
      #expect(!FileManager.default.fileExists(atPath: probe.socketPath))  // removed at exit
    }

    @Test func aProgramKilledUnderItsClientsLeavesAStaleSocketTheNextRunReplaces() throws {
      let probe = try ListeningProbe()
      let client = try RawConnection(socketPath: probe.socketPath)
      try client.initialize()
      _ = try client.call(SubscribeRequest().message(id: "sub"))
      let attach = try ChildProcess("loupe", ["attach", "--socket", probe.socketPath])
      defer { attach.killIfRunning() }
      try attach.stdout.wait(for: "store.created")

      probe.child.signal(SIGKILL)
      #expect(probe.child.waitForExit(timeout: .seconds(20)) == .signalled(SIGKILL))
      #expect(client.waitUntilClosedByServer())  // no hang: the clients see the end
      let end = try attach.finish()
      #expect(end.termination == .exited(0))

      // The killed program could not remove its socket; the next one takes the path over.
      var info = stat()
      #expect(lstat(probe.socketPath, &info) == 0 && info.st_mode & S_IFMT == S_IFSOCK)
      let next = try ChildProcess("loupe-examples", ["probe", "--hold"], environment: ["LOUPE": "unix:\(probe.socketPath)"])
      defer { next.killIfRunning() }
      try next.stdout.wait(for: "probe: ready")
      try probe.expectServing()  // the new program, over the same path
      let connection = try RawConnection(socketPath: probe.socketPath)
      try connection.initialize()
      connection.send(MarkRequest(label: "probe:exit").message(id: "exit"))
      #expect(try next.finish().termination == .exited(0))
      #expect(!FileManager.default.fileExists(atPath: probe.socketPath))
    }

    // MARK: Foreign files at the socket path

    /// Something already at the path: the program refuses to listen there, says why on stderr,
    /// leaves it exactly as it was, and runs to the end with status 0.
    @Test(arguments: ForeignFile.allCases) func aForeignFileAtTheSocketPath(_ foreign: ForeignFile) throws {
      let directory = PrivateDirectory()
      let path = directory.file("app.sock")
      let elsewhere = PrivateDirectory()
      var keeper: ListeningProbe?
      switch foreign {
      case .regularFile: try Data("user data".utf8).write(to: URL(fileURLWithPath: path))
      case .directory: try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
      case .symlinkToNothing: try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: elsewhere.file("planted"))
      case .symlinkToAFile:
        try Data("victim".utf8).write(to: URL(fileURLWithPath: elsewhere.file("victim")))
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: elsewhere.file("victim"))
      case .liveSocket:
        keeper = try ListeningProbe(socketName: "app.sock")
      case .fifo: #expect(mkfifo(path, 0o600) == 0)
      }
      let socketPath = keeper?.socketPath ?? path
      let run = try ChildProcess.run("loupe-examples", ["probe", "--burst", "3"], environment: ["LOUPE": "unix:\(socketPath)"])
      #expect(run.termination == .exited(0))
      #expect(run.stderr == "loupe: LOUPE: Cannot listen on '\(socketPath)': \(foreign.refusal(socketPath))\n")

      var info = stat()
      #expect(lstat(socketPath, &info) == 0)
      switch foreign {
      case .regularFile:
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "user data")
      case .directory:
        #expect(info.st_mode & S_IFMT == S_IFDIR)
      case .symlinkToNothing:
        #expect(info.st_mode & S_IFMT == S_IFLNK)
        #expect(!FileManager.default.fileExists(atPath: elsewhere.file("planted")))  // never followed
      case .symlinkToAFile:
        #expect(info.st_mode & S_IFMT == S_IFLNK)
        #expect(try String(contentsOfFile: elsewhere.file("victim"), encoding: .utf8) == "victim")
      case .liveSocket:
        try keeper?.expectServing()  // the other program keeps its socket
        #expect(try keeper?.exit().termination == .exited(0))
      case .fifo:
        #expect(info.st_mode & S_IFMT == S_IFIFO)
      }
    }

    enum ForeignFile: String, CaseIterable, Sendable {
      case regularFile, directory, symlinkToNothing, symlinkToAFile, liveSocket, fifo

      func refusal(_ path: String) -> String {
        switch self {
        case .regularFile, .directory, .fifo: "Refusing to replace '\(path)': it exists and is not a socket"
        case .symlinkToNothing, .symlinkToAFile: "Refusing to use '\(path)': it is a symbolic link"
        case .liveSocket: "'\(path)' is in use by a running server"
        }
      }
    }

    @Test func aSocketDirectoryOthersCouldWriteIsRefused() throws {
      let directory = PrivateDirectory()
      #expect(chmod(directory.path, 0o777) == 0)
      let run = try ChildProcess.run(
        "loupe-examples", ["probe", "--burst", "3"], environment: ["LOUPE": "unix:\(directory.file("s.sock"))"])
      #expect(run.termination == .exited(0))
      #expect(
        run.stderr
          == "loupe: LOUPE: Cannot listen on '\(directory.file("s.sock"))': Refusing to create a socket in '\(directory.path)': writable by others and not sticky\n"
      )
      #expect(!FileManager.default.fileExists(atPath: directory.file("s.sock")))
    }
  }
}
