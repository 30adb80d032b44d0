import Foundation
import LoupeCore
import LoupeRPC
import LoupeSession
import LoupeClient

/// `loupe replay FILE`
struct ReplayCommand: Command {
  static let configuration = CommandConfiguration(
    name: "replay",
    abstract: "Serve a trace over stdio JSON-RPC, as if the program were running.",
    discussion: """
      For editors: configure the editor to run 'loupe replay FILE' where it would run \
      'loupe attach --stdio -- PROGRAM', and it opens the recording like a live session. \
      initialize names the recorded program; loupe/subscribe streams the recorded events that \
      pass its filter (as history with history: true, as live events without); loupe/stores \
      lists the stores alive at the end; loupe/state answers with a store's state right \
      after any event ('at', default the last), rebuilt from the trace's snapshots and \
      changes like 'loupe state'; loupe/mark adds marks after the recording. Requests are answered in the order they come. Ends when the editor sends \
      exit or closes its end, once every request received is answered and the subscription's \
      events are written.
      """,
    usage: "FILE",
    arguments: [PositionalSpec(name: "FILE", help: "The trace file to serve (a file: standard input is the protocol).")],
    examples: [("loupe replay bug.loupe", "What an editor runs to open bug.loupe")])

  var path: String

  init(arguments: ParsedArguments) throws(UsageError) {
    path = arguments.positionals[0]
  }

  func validate() throws(UsageError) {
    if path == "-" { throw UsageError("replay serves the protocol on standard input: give the trace as a file") }
  }

  func run(in context: CommandContext) async throws(CommandFailure) -> Int32 {
    let catalog = try TraceCatalog(path: path)
    let stdio = try ProtocolStdio.take()
    let connection: Connection
    do {
      connection = try Connection(input: stdio.input, output: stdio.output)
    } catch {
      throw CommandFailure("Cannot serve on stdin/stdout: \(error)")
    }
    let server = ReplayServer(path: path, catalog: catalog, stderr: context.stderr) { [weak connection] in
      connection?.wakeWriter()
    }
    // The session calls `exit` once every request before it is answered, also when the editor
    // just closes its end after its last request; the subscription's events are written before
    // the connection closes. An editor may write a whole session at once and read afterwards.
    let session = ServerSession(
      handler: server, send: { [weak connection] body in connection?.send(body: body) },
      exit: { [weak connection] in connection?.finish(drainingSource: true) })
    let closed = AsyncStream<Void>.makeStream()
    connection.start(
      source: server, onFrame: { body in session.receive(body) }, onEndOfInput: { session.inputEnded() },
      onClose: { _ in closed.continuation.finish() })
    for await _ in closed.stream {}
    return ExitStatus.success
  }
}
