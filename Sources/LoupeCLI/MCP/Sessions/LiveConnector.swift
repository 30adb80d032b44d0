import Foundation
import LoupeCore
import LoupeRPC
import LoupeSession
import LoupeClient

/// Connects a live session: launches the program with `LOUPE=stdio` (or connects to its
/// socket), records every event it sends to the session's scratch trace as it comes (the
/// session's model indexes that file: ``LiveEventFeed``), and does
/// the handshake (`initialize`, then `loupe/subscribe` with `history: true`, so nothing from the
/// program's start is missed) within a time limit.
enum LiveConnector {
  struct Request {
    var source: MCPSession.Source
    var environment: [String: String]
    var timeout: Duration
  }

  static func connect(_ request: Request, id: String, log: @escaping @Sendable (String) -> Void) async throws(ToolFailure) -> MCPSession {
    // A private directory with an unpredictable name (mkdtemp): a fixed name in the shared
    // temporary directory could be made first by someone else and then used as it is.
    let temporary = FileManager.default.temporaryDirectory.path
    guard let directory = LibC.makePrivateDirectory(in: temporary, prefix: "loupe-mcp-\(LibC.processID)-\(id)-") else {
      throw ToolFailure("io-error", "Cannot create a scratch directory for the session's recording in \(temporary): \(LibC.message(LibC.errno))")
    }
    let tracePath = directory + "/session.loupe"
    let stderr = Output(fd: STDERR_FILENO, environment: [:])
    let recording: TraceRecording
    do {
      recording = try TraceRecording(path: tracePath, stderr: stderr)
    } catch {
      try? FileManager.default.removeItem(atPath: directory)
      throw ToolFailure("io-error", error.message)
    }

    let client: LoupeClient
    let name: String
    do {
      switch request.source {
      case .launched(let command):
        name = command[0]
        var environment = ProcessInfo.processInfo.environment
        environment["LOUPE_RECORD"] = nil  // the session records; the program should not write a second trace
        for (key, value) in request.environment { environment[key] = value }
        client = try launch(command, environment: environment)
      case .socket(let path):
        name = path
        client = try LoupeClient.connect(socketPath: path)
      case .tcp(let endpoint, let token):
        name = endpoint.description
        client = try LoupeClient.connect(tcp: endpoint, token: token)
      case .trace:
        preconditionFailure("a trace is not live")
      }
    } catch {
      try? FileManager.default.removeItem(atPath: directory)
      throw ToolFailure("launch-failed", launchFailure(request.source, error))
    }
    // Each event goes to the recording as it came (for loupe_save) and the session model
    // indexes it there: the recording is the session's one store of events.
    let model = SharedModel(SessionModel(growingTrace: tracePath))
    LiveEventFeed.start(client, recording: recording) { items in model.append(items) }

    let session: MCPSession
    do throws(ToolFailure) {
      let info = try await handshake(client, name: name, timeout: request.timeout)
      session = MCPSession(
        id: id, source: request.source, tracePath: tracePath, model: model, client: client, recording: recording,
        scratchDirectory: directory, process: info.result.process)
      await waitForHistory(info.history, in: recording)
    } catch {
      let failed = MCPSession(
        id: id, source: request.source, tracePath: tracePath, model: model, client: client, recording: recording, scratchDirectory: directory)
      await failed.close(grace: .milliseconds(500))
      throw error
    }
    log("loupe mcp: session \(id): \(request.source.kind) \(request.source.name) (pid \(session.process?.pid ?? 0))")
    return session
  }

  /// Launches `command`; its standard error goes to loupe's (the MCP client's log).
  private static func launch(_ command: [String], environment: [String: String]) throws(ClientError) -> LoupeClient {
    try LoupeClient.launch(command, environment: environment, stderr: FileHandle.standardError)
  }

  private static func launchFailure(_ source: MCPSession.Source, _ error: ClientError) -> String {
    switch source {
    case .launched(let command):
      var message = "\(error)."
      if !command[0].contains("/") {
        message += " '\(command[0])' was looked up in PATH; give a path (absolute, or relative to the server's directory \(FileManager.default.currentDirectoryPath)) if it is a built program."
      }
      return message
    case .socket(let path):
      return "\(error). Is a program running with LOUPE=unix:\(path)?"
    case .tcp(let endpoint, _):
      return "\(error). Is a program running with LOUPE=tcp:\(endpoint), reached through a tunnel if it is on a device?"
    case .trace:
      return "\(error)"
    }
  }

  /// The live handshake (``LoupeClient/handshake(clientName:clientVersion:filter:timeout:)``:
  /// all events, history first), or a failure that says why.
  private static func handshake(_ client: LoupeClient, name: String, timeout: Duration) async throws(ToolFailure) -> LoupeClient.Handshake {
    switch await client.handshake(clientName: "loupe mcp", clientVersion: LoupeCLI.version, timeout: timeout) {
    case .success(let handshake):
      return handshake
    case .failure(.failed(let request, let error)):
      let ended = await endedProgram(client)
      throw ToolFailure("launch-failed", AttachSession.handshakeFailure(name: name, request: request, error: error, ended: ended))
    case .failure(.timedOut):
      throw ToolFailure(
        "timeout",
        "'\(name)' did not answer 'initialize' within \(timeout): is it built with Loupe, and does it create a store? (Raise timeoutSeconds for a slow start.)"
      )
    }
  }

  /// The launched program's end, if it has ended or ends within a second.
  private static func endedProgram(_ client: LoupeClient) async -> LaunchedProgram.ExitStatus? {
    guard let program = client.program else { return nil }
    for _ in 0..<20 {
      if let status = program.exitStatus { return status }
      try? await Task.sleep(for: .milliseconds(50))
    }
    return program.exitStatus
  }

  /// Waits (at most a second) until the replayed history has reached the recording, so the
  /// first answers about a just-opened session see the program's start.
  private static func waitForHistory(_ history: Int, in recording: TraceRecording) async {
    for _ in 0..<100 where recording.eventCount < history {
      try? await Task.sleep(for: .milliseconds(10))
    }
  }
}
