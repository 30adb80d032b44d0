import Foundation
import LoupeClient
import LoupeCore
import LoupeRPC
import LoupeSession

/// `attach --stdio`: an editor speaks the protocol to loupe on loupe's stdin/stdout, and loupe
/// passes every frame to the program and back unchanged, recording the events that flow to
/// the editor. The editor does its own `initialize` and `loupe/subscribe`.
///
/// When the program ends, loupe finishes writing to the editor and exits with the program's
/// status. When the editor closes its end, loupe sends the program `exit` on its behalf (the
/// program goes on, as with any client that leaves) and waits for the program to end. Until
/// the program has closed the connection, whatever it sends still reaches the editor: an
/// editor may write a whole session and close its end before it reads the answers.
struct StdioBridge {
  var target: AttachSession.Target
  var recordPath: String?

  func run(in context: CommandContext) async throws(CommandFailure) -> Int32 {
    let recording = try recordPath.map { path throws(CommandFailure) in try TraceRecording(path: path, stderr: context.stderr) }
    let editorStdio = try ProtocolStdio.take(for: " for --stdio")

    // Raw connections on both sides: frames pass through without being decoded into events.
    let program: LaunchedProgram?
    let child: Connection
    do {
      switch target {
      case .launch(let command):
        var env = context.environment
        env["LOUPE_RECORD"] = nil
        (program, child) = try LaunchedProgram.launch(command, environment: env)
      case .tcp:
        // The editor does its own `initialize`, which must then carry the token itself.
        throw CommandFailure("'--stdio' with '--tcp' is not supported: attach the editor with its own TCP connection (DAP/MCP) instead")
      case .socket(let path):
        let fd = try UnixSocket.connect(to: path)
        program = nil
        child = try Connection(input: fd, output: fd)
      }
    } catch {
      throw CommandFailure("\(error)")
    }
    let editor: Connection
    do {
      editor = try Connection(input: editorStdio.input, output: editorStdio.output)
    } catch {
      child.close()
      throw CommandFailure("Cannot set up the editor's connection: \(error)")
    }
    let signals = program.map { SignalForwarder.forwarding(to: $0) }
    defer { signals?.cancel() }

    let childClosed = AsyncStream<Void>.makeStream()
    let editorClosed = AsyncStream<Void>.makeStream()
    child.start(
      onFrame: { [weak editor] body in
        editor?.send(body: body)
        recording?.record(frame: body)
      },
      onClose: { [weak editor] _ in
        editor?.finish()  // write what the program said, then close
        childClosed.continuation.finish()
      })
    // The editor left: end its session with the program as an `exit` would (once).
    let left = AtomicBool(false)
    let leave: @Sendable () -> Void = { [weak child] in
      guard !left.exchange(true, ordering: .relaxed) else { return }
      child?.send(ExitNotification().message)
    }
    editor.start(
      onFrame: { [weak child] body in child?.send(body: body) },
      // Its end of stdin closed: the program's answers still go to its stdout until the program
      // closes the connection (then `editor.finish()` above).
      onEndOfInput: leave,
      onClose: { _ in
        leave()
        editorClosed.continuation.finish()
      })
    for await _ in childClosed.stream {}
    for await _ in editorClosed.stream {}
    recording?.finish()
    var status = ExitStatus.success
    if let program { status = await program.waitForExit().shellStatus }
    if recording?.failure != nil { return ExitStatus.failure }
    return status
  }
}
