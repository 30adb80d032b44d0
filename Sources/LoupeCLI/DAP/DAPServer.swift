import LoupeCore
import LoupeRPC

/// `loupe dap`'s loop: frames from the editor become ``DAPRequest``s, handled one at a time in
/// the order they came by a ``DAPSession``; answers and events go out through a
/// ``DAPChannel``.
///
/// Requests are handled in order on one task (DAP clients expect answers in order, and a
/// `launch` must finish before the `setBreakpoints` behind it). A message that is not a
/// request is answered with an error response when it has a `seq`, and otherwise reported in
/// the debug console; nothing a client sends ends the adapter but bad framing, `disconnect` or
/// the end of its input.
final class DAPServer: Sendable {
  let channel: DAPChannel
  let session: DAPSession
  private let requests: AsyncStream<[UInt8]>
  private let incoming: AsyncStream<[UInt8]>.Continuation

  init(channel: DAPChannel, environment: [String: String]) {
    self.channel = channel
    session = DAPSession(channel: channel, environment: environment)
    (requests, incoming) = AsyncStream.makeStream(of: [UInt8].self, bufferingPolicy: .unbounded)
  }

  /// Called on the connection's reader thread with each frame body.
  func receive(_ body: [UInt8]) { incoming.yield(body) }

  /// Called when the editor closed its end (or the connection failed).
  func inputEnded() { incoming.finish() }

  /// Handles requests until the input ends or the editor disconnects; then ends the session
  /// (a launched program is terminated when the editor just went away).
  func run() async {
    reading: for await body in requests {
      switch DAPRequest.decode(body) {
      case .success(let request):
        await session.handle(request)
        if await session.isFinished { break reading }
      case .failure(let error):
        if let seq = error.requestSeq {
          channel.fail(error, requestSeq: seq, command: error.command ?? "unknown")
        } else {
          channel.output("loupe dap: ignored a message: \(error.message)\n", category: "stderr")
        }
      }
    }
    await session.end()
  }
}
