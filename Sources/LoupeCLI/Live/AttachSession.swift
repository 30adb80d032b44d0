import Foundation
import LoupeCore
import LoupeRPC
import LoupeSession
import LoupeClient

/// What `attach`, `record` and `demo` share: connect to a program (launching it with
/// `LOUPE=stdio`, or over its Unix socket), initialize, subscribe with the filter and
/// `history: true`, show events as they come and record them, then end with the program.
struct AttachSession {
  enum Target {
    /// Launch this command with `LOUPE=stdio`.
    case launch([String])
    /// Connect to a program listening with `LOUPE=unix:PATH`.
    case socket(String)
    /// Connect to a program listening with `LOUPE=tcp:HOST:PORT`, with its token.
    case tcp(LoopbackEndpoint, token: String)
  }

  var target: Target
  var filter: EventFilter
  /// How to show events on standard output; `nil` shows nothing (`record`).
  var format: TimelineRenderer.Format?
  var recordPath: String?
  /// Extra environment for a launched program.
  var environment: [String: String] = [:]

  /// Connects to a running program (a socket or TCP target).
  private static func connect(_ target: Target) throws(ClientError) -> (name: String, client: LoupeClient) {
    switch target {
    case .tcp(let endpoint, let token): (endpoint.description, try LoupeClient.connect(tcp: endpoint, token: token))
    case .socket(let path): (path, try LoupeClient.connect(socketPath: path))
    case .launch: preconditionFailure("a launched program is not connected to")
    }
  }

  /// Runs the session and returns loupe's exit status: the program's own when loupe launched
  /// it, 0 for a socket session that ended, 3 when the protocol or the recording failed.
  func run(in context: CommandContext) async throws(CommandFailure) -> Int32 {
    let recording = try recordPath.map { path throws(CommandFailure) in try TraceRecording(path: path, stderr: context.stderr) }
    let client: LoupeClient
    var signals: SignalForwarder?
    let name: String
    switch target {
    case .launch(let command):
      name = command.first ?? ""
      var env = context.environment
      env["LOUPE_RECORD"] = nil  // loupe records; the program should not write a second trace
      for (key, value) in environment { env[key] = value }
      do {
        client = try LoupeClient.launch(command, environment: env)
      } catch {
        throw CommandFailure(error.description)
      }
      signals = SignalForwarder.forwarding(to: client.program!)
    case .socket, .tcp:
      do {
        let connected = try Self.connect(target)
        name = connected.name
        client = connected.client
      } catch {
        throw CommandFailure(error.description)
      }
      signals = SignalForwarder { _, count in
        // Leave politely on the first signal (the program keeps running); close on the second.
        if count == 1 {
          Task { try? await client.shutdown() }
        } else {
          client.close()
        }
      }
    }
    defer { signals?.cancel() }
    // Raw events: the recording and `--format json` write each event exactly as it came,
    // without decoding it (what lets `loupe record` keep up with a program's bursts); other
    // frames (answers, batches) come through `onFrame`.
    let printsRawEvents = format == .json
    if recording != nil || printsRawEvents {
      let stdout = context.stdout
      client.onRawEvents = { batch in
        recording?.record(batch)
        if printsRawEvents, batch.count > 0 {
          stdout.write(bytes: batch.text)
          stdout.flush()
        }
      }
      client.onFrame = { body in
        let frame = FrameContent(body)
        if let recording {
          if let process = frame.process { recording.setFallbackHeader(process) }
          recording.record(frame.events)
        }
        if printsRawEvents, !frame.events.isEmpty {
          for event in frame.events { stdout.line(event.jsonText) }
          stdout.flush()
        }
      }
    }
    // Only the timeline formats read decoded events.
    client.decodesEvents = format != nil && !printsRawEvents

    // The handshake. A program creates its first store (and starts serving) when it likes,
    // so there is no time limit; after a while, say what loupe is waiting for.
    let hint = Task {
      try await Task.sleep(for: .seconds(5))
      context.note("still waiting for '\(name)' to answer 'initialize' (is it built with Loupe, and has it created a store?)")
    }
    let handshake = await client.handshake(clientName: "loupe", clientVersion: LoupeCLI.version, filter: filter, timeout: nil)
    hint.cancel()
    if case .failure(let failure) = handshake {
      guard case .failed(let request, let error) = failure else { preconditionFailure("no time limit, no time-out") }
      recording?.finish()
      let (ended, killed) = await endedProgram(client, brokeProtocol: Self.brokeProtocol(error))
      var message = Self.handshakeFailure(name: name, request: request, error: error, ended: ended)
      if killed { message += " " + Self.killedNote }
      throw CommandFailure(message)
    }

    var renderer = TimelineRenderer(style: context.style)
    var pathUsage = PathGlobUsage(filter: filter)
    defer { for warning in pathUsage.warnings { context.warn(warning) } }
    for await event in client.events {
      pathUsage.note(event)
      guard let format, format != .json else { continue }  // json is printed from the raw frames
      let text = renderer.render(event, format: format)
      if !text.isEmpty {
        context.stdout.write(text)
        context.stdout.flush()  // live: show each event as it comes
      }
    }
    context.stdout.flush()
    recording?.finish()

    var status = ExitStatus.success
    if let program = client.program {
      // A program that broke the protocol mid-session may never end by itself.
      if case .framingError(let framing) = await client.waitUntilClosed() {
        context.warn("'\(name)' broke the Loupe protocol (\(framing)); stopping it")
        if await program.stop().killed { context.warn(Self.killedNote) }
      }
      let ended = await program.waitForExit()
      status = ended.shellStatus
      if case .signalled = ended { context.note("'\(name)' \(ended)") }
    }
    if let recording {
      if recording.failure != nil { return ExitStatus.failure }
      context.note("recorded \(Formatting.plural(recording.eventCount, "event")) to \(recording.path)")
    }
    return status
  }

  /// Said when a program had to be killed: it ignored SIGTERM.
  static let killedNote =
    "It ignored SIGTERM for \(Int(LaunchedProgram.terminationGrace.components.seconds)) s, so loupe stopped it with SIGKILL."

  /// Whether `error` means the program broke the protocol (its output is not Loupe's).
  static func brokeProtocol(_ error: ClientError) -> Bool {
    if case .connectionClosed(.framingError) = error { return true }
    return false
  }

  /// The launched program's end, if it has ended or ends within a second; then it is stopped
  /// (SIGTERM, and SIGKILL after ``LaunchedProgram/terminationGrace``) — at once when it broke
  /// the protocol. Returns whether SIGKILL was needed.
  private func endedProgram(_ client: LoupeClient, brokeProtocol: Bool) async -> (LaunchedProgram.ExitStatus?, killed: Bool) {
    guard let program = client.program else { return (nil, false) }
    if let status = program.exitStatus { return (status, false) }
    let waiter = Task { await program.waitForExit() }
    let stopper = Task {
      if !brokeProtocol { try await Task.sleep(for: .seconds(1)) }
      return await program.stop().killed
    }
    let status = await waiter.value
    stopper.cancel()  // not needed if it ended by itself within the second
    return (status, (try? await stopper.value) ?? false)
  }

  /// Why `request` (`initialize` or `loupe/subscribe`) got no answer, for the user.
  static func handshakeFailure(
    name: String, request: String = InitializeRequest.method, error: ClientError, ended: LaunchedProgram.ExitStatus?
  ) -> String {
    var message: String
    switch error {
    case .connectionClosed(.framingError(let framing)):
      message = "'\(name)' does not speak the Loupe protocol: its output is not LSP-framed JSON-RPC (\(framing)). Is it built with Loupe?"
    case .connectionClosed where request == InitializeRequest.method:
      if let ended {
        message = "'\(name)' \(ended) before it answered 'initialize'. Is it built with Loupe, and does it create a store?"
      } else {
        message = "The connection to '\(name)' closed before it answered 'initialize'."
      }
    case .connectionClosed:
      // A Loupe program waits at exit for the client it was launched with, for at most its
      // LOUPE_EXIT_TIMEOUT: this one ended (or closed) before loupe could subscribe.
      if let ended {
        message = "'\(name)' \(ended) before it answered '\(request)' (is its LOUPE_EXIT_TIMEOUT too short?)."
      } else {
        message = "The connection to '\(name)' closed before it answered '\(request)'."
      }
    default:
      message = "'\(name)': \(error)"
    }
    return message
  }
}
