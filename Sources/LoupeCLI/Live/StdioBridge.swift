#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif
import Foundation
import LoupeCore
import LoupeRPC

/// `attach --stdio`: an editor speaks the protocol to loupe on loupe's stdin/stdout, and loupe
/// passes every frame to the program and back unchanged, recording the events that flow to
/// the editor. The editor does its own `initialize` and `loupe/subscribe`.
///
/// When the program ends, loupe finishes writing to the editor and exits with the program's
/// status. When the editor closes its end, loupe sends the program `exit` on its behalf (the
/// program goes on, as with any client that leaves) and waits for the program to end.
struct StdioBridge {
  var target: AttachSession.Target
  var recordPath: String?

  func run(in context: CommandContext) async throws(CommandFailure) -> Int32 {
    let recording = try recordPath.map { path throws(CommandFailure) in try TraceRecording(path: path, stderr: context.stderr) }
    // Private duplicates of stdin/stdout for the editor's connection; fd 1 then points at
    // stderr so nothing else can write into the protocol stream.
    let editorInput = fcntl(STDIN_FILENO, F_DUPFD_CLOEXEC, 3)
    let editorOutput = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3)
    guard editorInput >= 0, editorOutput >= 0 else { throw CommandFailure("Cannot duplicate stdin/stdout for --stdio.") }
    dup2(STDERR_FILENO, STDOUT_FILENO)

    let program: LoupeClient
    do {
      switch target {
      case .launch(let command):
        var env = context.environment
        env["LOUPE_RECORD"] = nil
        program = try LoupeClient.launch(command, environment: env)
      case .socket(let path):
        program = try LoupeClient.connect(socketPath: path)
      }
    } catch {
      throw CommandFailure(error.description)
    }
    let editor: Connection
    do {
      editor = try Connection(input: editorInput, output: editorOutput)
    } catch {
      program.close()
      throw CommandFailure("Cannot set up the editor's connection: \(error)")
    }
    let signals = program.program.map { SignalForwarder.forwarding(to: $0) }
    defer { signals?.cancel() }

    program.onFrame = { [weak editor] body in
      editor?.send(body: body)
      recording?.record(frame: body)
    }
    editor.start(
      onFrame: { [weak program] body in program?.connection.send(body: body) },
      onClose: { [weak program] _ in
        // The editor left: end its session with the program as an `exit` would (the program
        // goes on, as with any client that leaves).
        program?.notify(ExitNotification())
      })
    // The client decodes events too; nobody reads them here, so drain them.
    for await _ in program.events {}
    _ = editor.flush(timeout: .seconds(5))
    editor.finish()
    recording?.finish()
    var status = ExitStatus.success
    if let launched = program.program {
      status = await launched.waitForExit().shellStatus
    }
    if recording?.failure != nil { return ExitStatus.failure }
    return status
  }
}
