import Foundation
import LoupeClient
import LoupeCore
import LoupeSession

/// Where a live `loupe dap` session keeps its events: a recording of its own in a private
/// scratch directory (mkdtemp), which the session's ``SessionModel`` indexes as it grows
/// (``LiveEventFeed``), as `loupe mcp` does. The events come to the session as ``items``
/// (the lines written as locations, read back by the session: a burst the adapter is behind
/// on waits as 16 bytes an event); the directory is removed when the session ends.
struct DAPLiveRecording: Sendable {
  let directory: String
  let recording: TraceRecording
  /// The program's events, in order, with where each line is in the recording; finishes when
  /// the connection closes.
  let items: AsyncStream<LiveEventFeed.Delivery>

  var tracePath: String { recording.path }

  /// Starts recording `client`'s events; call it before the handshake, so the history the
  /// subscription replays is recorded too.
  static func start(_ client: LoupeClient) throws(DAPError) -> DAPLiveRecording {
    let temporary = FileManager.default.temporaryDirectory.path
    guard let directory = LibC.makePrivateDirectory(in: temporary, prefix: "loupe-dap-\(LibC.processID)-") else {
      throw DAPError(.targetFailed, "Cannot create a scratch directory for the session's recording in \(temporary): \(LibC.message(LibC.errno))")
    }
    let recording: TraceRecording
    do {
      recording = try TraceRecording(path: directory + "/session.loupe", stderr: Output(fd: STDERR_FILENO, environment: [:]))
    } catch {
      try? FileManager.default.removeItem(atPath: directory)
      throw DAPError(.targetFailed, error.message)
    }
    let (items, continuation) = AsyncStream.makeStream(of: LiveEventFeed.Delivery.self)
    LiveEventFeed.startDeferred(client, recording: recording) { continuation.yield($0) }
    // Every frame is handed on before the connection reports its end.
    Task {
      _ = await client.waitUntilClosed()
      continuation.finish()
    }
    return DAPLiveRecording(directory: directory, recording: recording, items: items)
  }

  /// Closes the recording and removes its directory.
  func remove() {
    recording.finish()
    try? FileManager.default.removeItem(atPath: directory)
  }
}
