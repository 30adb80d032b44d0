import Foundation
import LoupeCore
import LoupeSession
import LoupeClient

/// `loupe mcp`
struct MCPCommand: Command {
  static let configuration = CommandConfiguration(
    name: "mcp",
    abstract: "Serve the Model Context Protocol on stdio, for coding agents.",
    discussion: """
      Speaks MCP (newline-delimited JSON-RPC 2.0 on standard input and output; revisions \
      2024-11-05 to 2025-11-25 through 'initialize', and 2026-07-28) so that a coding agent can \
      launch a program under Loupe, attach to one, or open a trace, and question it with the \
      tools loupe_open, loupe_stores, loupe_timeline, loupe_state, loupe_why, loupe_doctor, \
      loupe_stats, loupe_effects, loupe_mark, loupe_save and loupe_close. Configure the agent to \
      run 'loupe mcp' (an "mcpServers" entry). Logs go to standard error. Ends when the client \
      closes standard input (or on SIGTERM or SIGINT), and ends the programs it launched.
      """,
    usage: "",
    examples: [("loupe mcp", "What an agent runs (see the README's 'Coding agents' section)")])

  init(arguments: ParsedArguments) throws(UsageError) {}

  func run(in context: CommandContext) async throws(CommandFailure) -> Int32 {
    let stdio = try ProtocolStdio.take()
    let stderr = context.stderr
    let log: @Sendable (String) -> Void = { line in stderr.line(line) }
    let channel = LineChannel(input: stdio.input, output: stdio.output)
    let server = MCPServer(tools: ToolBox(sessions: SessionRegistry(), log: log), send: { channel.send($0) }, log: log)
    let ended = AsyncStream<Void>.makeStream()
    // SIGTERM or SIGINT (a client that stops its server that way has left too): end like at
    // the end of input, closing every session and the programs launched; a second one exits.
    let signals = SignalForwarder { number, count in
      if count == 1 {
        log("loupe mcp: signal \(number): closing the sessions")
        ended.continuation.finish()
      } else {
        LibC.exitProcess(128 + number)
      }
    }
    defer { signals.cancel() }
    channel.start(
      onLine: { server.receive($0) },
      onOversizedLine: { server.receiveOversizedLine(length: $0) },
      onEnd: { ended.continuation.finish() })
    for await _ in ended.stream {}
    await server.inputEnded()
    await channel.drain()
    return ExitStatus.success
  }
}
