import Foundation
import LoupeCore
import LoupeRPC
import LoupeSession
import LoupeClient

/// `loupe dap`
struct DAPCommand: Command {
  static let configuration = CommandConfiguration(
    name: "dap",
    abstract: "Speak the Debug Adapter Protocol on stdin/stdout: debug stores from any editor.",
    discussion: """
      For editors with a debugger (VS Code, Neovim nvim-dap, Emacs dape, Helix, Zed, vimspector): \
      configure 'loupe dap' as the debug adapter of type 'loupe'. Launch arguments: {"program", \
      "args", "cwd", "env"} runs a program with LOUPE=stdio; {"trace"} opens a recording. Attach \
      arguments: {"socket"} for a program running with LOUPE=unix:PATH. Both take "filter" \
      (kinds, stores, actions, paths globs) and "stopOnEntry".

      Threads are stores. A stop is at one event; its stack is the event and its causes, newest \
      first, each at the line that sent the action or created the effect. Scopes: State (the \
      store's whole state after the event), Action, Event, Changes, Effects. Stepping walks events: next \
      (the store's next action), step in (the next event this one caused), step out (its cause), \
      step back and reverse continue. Breakpoints: source lines, action-label globs (function \
      breakpoints), state paths (data breakpoints), and loupe doctor codes or warning \
      (exception filters).

      A live program is never paused: a stop freezes the view at an event while the program \
      runs on, and continue catches up with it. The console shows the timeline as 'loupe show' \
      prints it. Ends when the editor disconnects or closes its end; a program loupe launched is \
      terminated then unless the editor asked to leave it running (terminateDebuggee: false).
      """,
    usage: "",
    examples: [
      ("loupe dap", "What an editor runs; it then sends initialize, launch {\"trace\": \"bug.loupe\"}, ...")
    ])

  init(arguments: ParsedArguments) throws(UsageError) {}

  func run(in context: CommandContext) async throws(CommandFailure) -> Int32 {
    let stdio = try ProtocolStdio.take()
    let connection: Connection
    do {
      connection = try Connection(input: stdio.input, output: stdio.output)
    } catch {
      throw CommandFailure("Cannot serve on stdin/stdout: \(error)")
    }
    let channel = DAPChannel { [weak connection] body in connection?.send(body: body) }
    let server = DAPServer(channel: channel, environment: context.environment)
    let closed = AsyncStream<Connection.CloseReason>.makeStream()
    connection.start(
      onFrame: { body in server.receive(body) }, onEndOfInput: { server.inputEnded() },
      onClose: { reason in
        server.inputEnded()
        closed.continuation.yield(reason)
        closed.continuation.finish()
      })
    await server.run()
    // Everything answered: write what is queued, then close.
    connection.finish()
    var reason = Connection.CloseReason.closedLocally
    for await why in closed.stream { reason = why }
    return Self.exitStatus(after: reason, stderr: context.stderr)
  }

  /// A connection to the editor that failed (it stopped reading and too much piled up, a write
  /// failed, the framing broke) cannot carry the reason to the editor: the adapter's standard
  /// error (which editors log) says it, and the status is a failure.
  static func exitStatus(after reason: Connection.CloseReason, stderr: Output) -> Int32 {
    switch reason {
    case .endOfInput, .closedLocally:
      return ExitStatus.success
    case .outputOverflow, .peerGone, .writeFailed, .readFailed, .framingError:
      stderr.line("loupe dap: the connection to the editor ended (\(reason)): the session ended with it.")
      return ExitStatus.failure
    }
  }
}
