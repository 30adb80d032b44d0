import Foundation
import LoupeCore
import LoupeRPC
import LoupeSession
import LoupeClient

/// `initialize`, `launch`, `attach`, `configurationDone`, `disconnect`, `terminate`.
extension DAPSession {
  func initialize(_ request: DAPRequest) throws(DAPError) {
    linesStartAt1 = try request.arguments.bool("linesStartAt1") ?? true
    phase = .initialized
    channel.respond(to: request, body: DAPCapabilities.json)
  }

  /// `launch`: `{program, args?, cwd?, env?}` runs a program with `LOUPE=stdio`; `{trace}`
  /// opens a recording. Both take `filter` (CONTRACT §5) and `stopOnEntry`.
  func launch(_ request: DAPRequest) async throws(DAPError) {
    try requireNotOpen(request.command)
    let arguments = request.arguments
    let program = try arguments.string("program")
    let trace = try arguments.string("trace")
    try readCommonOptions(arguments)
    switch (program, trace) {
    case (nil, nil):
      throw DAPError(
        .invalidArguments,
        "'launch' needs 'program' (a program that uses Loupe, run with LOUPE=stdio) or 'trace' (a .loupe recording).")
    case (_?, _?):
      throw DAPError(.invalidArguments, "'launch' takes 'program' or 'trace', not both.")
    case (nil, let trace?):
      try openTrace(trace)
    case (let program?, nil):
      let args = try arguments.strings("args") ?? []
      let cwd = try arguments.string("cwd")
      var env = ProcessInfo.processInfo.environment
      if let extra = try arguments.nested("env") {
        for member in extra.object {
          guard let value = member.value.stringValue else {
            throw DAPError(.invalidArguments, "'launch': 'env' values must be strings ('\(member.key)' is \(member.value.typeName)).")
          }
          env[member.key] = value
        }
      }
      env["LOUPE_RECORD"] = nil  // the session keeps the events; a second trace would be a surprise
      try await launchProgram([program] + args, environment: env, directory: cwd)
    }
    phase = .open
    channel.respond(to: request)
    announceControl()
    channel.event("initialized")
  }

  /// `attach`: `{socket}`, a program running with `LOUPE=unix:PATH`, or `{tcp, token}`, one
  /// running with `LOUPE=tcp:HOST:PORT` (a device through `iproxy`, a machine through `ssh -L`);
  /// the token defaults to `LOUPE_TOKEN` in the adapter's environment.
  func attach(_ request: DAPRequest) async throws(DAPError) {
    try requireNotOpen(request.command)
    let socket = try request.arguments.string("socket")
    let tcp = try request.arguments.string("tcp")
    try readCommonOptions(request.arguments)
    let client: LoupeClient
    let path: String
    switch (socket, tcp) {
    case (nil, nil):
      throw DAPError(
        .invalidArguments,
        "'attach' needs 'socket' (the path a program listens on with LOUPE=unix:PATH) or 'tcp' (HOST:PORT of one with LOUPE=tcp:HOST:PORT, with 'token').")
    case (_?, _?):
      throw DAPError(.invalidArguments, "'attach' takes 'socket' or 'tcp', not both.")
    case (let socket?, nil):
      path = socket
      do {
        client = try LoupeClient.connect(socketPath: socket)
      } catch {
        throw DAPError(.targetFailed, "\(error): is a program running with LOUPE=unix:\(socket)?")
      }
    case (nil, let address?):
      let endpoint: LoopbackEndpoint
      do {
        endpoint = try LoopbackEndpoint(parsing: address)
      } catch {
        throw DAPError(.invalidArguments, "'attach': 'tcp': \(error)")
      }
      guard let token = try request.arguments.string("token") ?? environment["LOUPE_TOKEN"], !token.isEmpty else {
        throw DAPError(.invalidArguments, "'attach' with 'tcp' needs 'token': the program printed it as 'loupe: token T' (or set LOUPE_TOKEN).")
      }
      path = endpoint.description
      do {
        client = try LoupeClient.connect(tcp: endpoint, token: token)
      } catch {
        throw DAPError(.targetFailed, "\(error): is a program running with LOUPE=tcp:\(address)?")
      }
    }
    let recording = try DAPLiveRecording.start(client)
    let info: InitializeResult
    do {
      info = try await LiveConnection.handshake(client, describing: "The program at \(path)")
    } catch {
      recording.remove()
      throw error
    }
    startLive(client: client, program: nil, name: path, recording: recording)
    announceProcess(info, method: "attach")
    phase = .open
    channel.respond(to: request)
    announceControl()
    channel.event("initialized")
  }

  func configurationDone(_ request: DAPRequest) throws(DAPError) {
    try requireOpen(request.command)
    channel.respond(to: request)
    guard !configured else { return }
    configured = true
    if stopOnEntry {
      if model.count > 0 {
        stopAt(0, reason: "entry", description: "Stopped at the first event")
      } else {
        pendingStep = PendingStep(kind: .entry, thread: DAPThreads.sessionThread, origin: nil)
      }
    } else {
      runForward(from: 0, reason: nil)
    }
  }

  /// `disconnect`: a launched program is terminated unless `terminateDebuggee: false`; a program
  /// attached to over its socket is left running unless `terminateDebuggee: true` (then it is
  /// sent SIGTERM only when loupe knows its pid from the handshake: it never does for a socket,
  /// so it is left running and the console says so).
  func disconnect(_ request: DAPRequest) async throws(DAPError) {
    let terminateDebuggee = try request.arguments.bool("terminateDebuggee")
    if let target {
      switch target {
      case .trace:
        break
      case .live(let client, let program?, _):
        if terminateDebuggee ?? true {
          program.terminate()
        } else {
          try? await client.shutdown()
        }
      case .live(let client, nil, _):
        if terminateDebuggee == true {
          channel.output("loupe dap: a program attached over its socket is left running.\n")
        }
        try? await client.shutdown()
      }
    }
    channel.respond(to: request)
    phase = .finished
  }

  /// `terminate`: ends a launched program (SIGTERM) or closes a recording; `terminated` follows.
  func terminate(_ request: DAPRequest) async throws(DAPError) {
    try requireOpen(request.command)
    channel.respond(to: request)
    switch target {
    case .live(_, let program?, _)?:
      terminating = true
      program.terminate()  // `exited` and `terminated` follow when it has ended
    case .live(let client, nil, let name)?:
      try? await client.shutdown()
      endSession("Left the program at \(name) running, as 'terminate' asked: the session ends.")
    case .trace?, nil:
      endSession("The recording is closed, as 'terminate' asked.")
    }
  }

  /// The end of the editor's input, or after `disconnect`: nothing is left running that the
  /// editor launched.
  func end() async {
    if phase == .open {
      // The editor closed its input without `disconnect` (it may still read what follows).
      let program = target?.program
      program?.terminate()
      endSession("The editor closed the adapter's input: the session ends" + (program == nil ? "." : " and the program it launched is terminated."))
    } else if phase != .finished, let program = target?.program {
      program.terminate()
    }
    target?.client?.close()
    phase = .finished
    liveRecording?.remove()
  }

  // MARK: - Opening

  private func requireNotOpen(_ command: String) throws(DAPError) {
    if phase == .open { throw DAPError(.wrongState, "A session is already open: '\(command)' comes once.") }
  }

  private func readCommonOptions(_ arguments: DAPArguments) throws(DAPError) {
    stopOnEntry = try arguments.bool("stopOnEntry") ?? false
    try readSourceOptions(arguments)
    if let json = arguments.value("filter") {
      do {
        filter = try EventFilter(json: json)
      } catch {
        throw DAPError(.invalidArguments, "'\(arguments.command)': 'filter': \(error)")
      }
    }
  }

  private func openTrace(_ path: String) throws(DAPError) {
    do {
      model = try SessionModel(tracePath: path)
    } catch {
      throw DAPError(.targetFailed, "Cannot open the trace '\(path)': \(error)")
    }
    target = .trace(path: path)
  }

  private func launchProgram(_ command: [String], environment: [String: String], directory: String?) async throws(DAPError) {
    let output: ProgramOutput
    do {
      output = try ProgramOutput(channel: channel)
    } catch {
      throw DAPError(.targetFailed, "Cannot make a pipe for the program's output: \(error)")
    }
    let client: LoupeClient
    do {
      client = try LoupeClient.launch(command, environment: environment, stderr: output.writeHandle, directory: directory)
    } catch {
      output.programStarted()
      throw DAPError(.targetFailed, error.description)
    }
    output.programStarted()
    let name = "'\(command[0])'"
    let recording: DAPLiveRecording
    do {
      recording = try DAPLiveRecording.start(client)
    } catch {
      client.program?.terminate()
      client.close()
      throw error
    }
    let info: InitializeResult
    do {
      info = try await LiveConnection.handshake(client, describing: name)
    } catch {
      recording.remove()
      throw error
    }
    startLive(client: client, program: client.program, name: command[0], recording: recording)
    announceProcess(info, method: "launch")
  }

  /// The `process` event: the program's name and pid, as it told them in `initialize`.
  private func announceProcess(_ info: InitializeResult, method: String) {
    channel.event(
      "process",
      [
        "name": .string(info.process.name), "systemProcessId": .int(info.process.pid), "isLocalProcess": true,
        "startMethod": .string(method),
      ])
  }

  /// Follows the live program: its events, kept in `recording` and indexed by the model, come
  /// in batches as the connection delivers them.
  private func startLive(client: LoupeClient, program: LaunchedProgram?, name: String, recording: DAPLiveRecording) {
    target = .live(client: client, program: program, name: name)
    liveRecording = recording
    model = SessionModel(growingTrace: recording.tracePath)
    Task { [weak self] in
      for await items in recording.items {
        await self?.ingest(items)
      }
      let reason = await client.waitUntilClosed()
      var status = program?.exitStatus
      if let program, status == nil {
        switch reason {
        case .endOfInput:  // the program closed its end: it is ending
          status = await program.waitForExit()
        case .closedLocally:  // `disconnect` or the editor's end decided what becomes of it
          break
        default:  // it cannot be debugged any more, and loupe launched it: it is ended
          status = await self?.isOpen == true ? await program.stop().status : nil
        }
      }
      await self?.liveEnded(status: status, reason: reason)
    }
  }

  /// `sourceMap` (`[[recorded, local], …]` as lldb-dap takes it, or `{recorded: local}`),
  /// `sourceRoot`, and `cwd`: where the files a recording names are on this machine.
  private func readSourceOptions(_ arguments: DAPArguments) throws(DAPError) {
    let command = arguments.command
    var pairs: [(from: String, to: String)] = []
    switch arguments.value("sourceMap") {
    case nil, .null?:
      break
    case .array(let items)?:
      for item in items {
        guard let pair = item.arrayValue, pair.count == 2, let from = pair[0].stringValue, let to = pair[1].stringValue else {
          throw DAPError(.invalidArguments, "'\(command)': 'sourceMap' entries are [recorded prefix, local prefix] pairs of strings.")
        }
        pairs.append((from, to))
      }
    case .object(let members)?:
      for member in members {
        guard let to = member.value.stringValue else {
          throw DAPError(.invalidArguments, "'\(command)': 'sourceMap' values must be strings ('\(member.key)' is \(member.value.typeName)).")
        }
        pairs.append((member.key, to))
      }
    case let other?:
      throw DAPError(.invalidArguments, "'\(command)': 'sourceMap' must be an array of [recorded, local] pairs or an object, not \(other.typeName).")
    }
    var roots: [String] = []
    for root in [try arguments.string("sourceRoot"), try arguments.string("cwd"), FileManager.default.currentDirectoryPath] {
      if let root, !root.isEmpty, !roots.contains(root) { roots.append(root) }
    }
    sources = DAPSources(sourceMap: pairs, roots: roots)
  }
}
