import Foundation
import LoupeClient
import LoupeCore
import LoupeRPC
import LoupeSession

/// One session `loupe_open` opened: a trace file, or a live program (launched, or attached
/// over its socket) whose events are recorded, as they come, to a trace file of the session's
/// own. The query tools read the session's ``SessionModel`` (fed by the trace, or by the live
/// events as they come); `loupe_doctor` and `loupe_stats` run `doctor`'s and `stats`'s analysis
/// over that model too, fed only the events that came since they last ran (``SessionAnalyses``). A live session and a recording answer alike.
final class MCPSession: Sendable {
  enum Source: Sendable, Equatable {
    case trace(path: String)
    case launched(command: [String])
    case socket(path: String)
    /// A program listening with `LOUPE=tcp:HOST:PORT`; the token is never shown.
    case tcp(endpoint: LoopbackEndpoint, token: String)

    var kind: String {
      switch self {
      case .trace: "trace"
      case .launched: "launch"
      case .socket: "socket"
      case .tcp: "tcp"
      }
    }

    var name: String {
      switch self {
      case .trace(let path): path
      case .launched(let command): command.joined(separator: " ")
      case .socket(let path): path
      case .tcp(let endpoint, _): endpoint.description
      }
    }
  }

  let id: String
  let source: Source
  /// The file the queries read: the trace, or the live session's own recording.
  let tracePath: String
  let client: LoupeClient?
  let recording: TraceRecording?
  /// The directory of a live session's recording, removed when the session closes.
  let scratchDirectory: String?
  let process: InitializeResult.ProcessInfo?
  /// The session model every query tool reads.
  let model: SharedModel

  private struct State {
    var closed = false
    var ending: String?
  }
  private let state = Lock(State())

  init(
    id: String, source: Source, tracePath: String, model: SharedModel, client: LoupeClient? = nil, recording: TraceRecording? = nil,
    scratchDirectory: String? = nil, process: InitializeResult.ProcessInfo? = nil
  ) {
    self.id = id
    self.model = model
    self.source = source
    self.tracePath = tracePath
    self.client = client
    self.recording = recording
    self.scratchDirectory = scratchDirectory
    self.process = process
  }

  var isLive: Bool { client != nil }
  var program: LaunchedProgram? { client?.program }

  /// How the live program or connection is doing, for answers: `running`, `exited with status 0`, …
  var liveStatus: String? {
    guard let client else { return nil }
    if let program = client.program, let status = program.exitStatus { return "ended (\(status))" }
    if state.withLock({ $0.closed }) { return "closed" }
    return client.program == nil ? "attached" : "running"
  }

  /// Ends the session: a launched program is terminated (SIGTERM, then SIGKILL if it has not
  /// ended after `grace`), a socket connection is left politely (the program goes on), and the
  /// session's scratch recording is removed.
  func close(grace: Duration = .seconds(2)) async {
    let first = state.withLock { state in
      defer { state.closed = true }
      return !state.closed
    }
    guard first else { return }
    if let client {
      if let program = client.program {
        if program.exitStatus == nil {
          program.terminate()
          let killer = Task {
            try await Task.sleep(for: grace)
            program.kill(SIGKILL)
          }
          _ = await program.waitForExit()
          killer.cancel()
        }
        client.close()
      } else {
        let leave = Task { try? await client.shutdown() }
        let timeout = Task {
          try await Task.sleep(for: .seconds(1))
          client.close()
        }
        _ = await leave.value
        timeout.cancel()
        client.close()
      }
      _ = await client.waitUntilClosed()
    }
    recording?.finish()
    if let scratchDirectory { try? FileManager.default.removeItem(atPath: scratchDirectory) }
  }
}
