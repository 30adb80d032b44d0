import Foundation
import LoupeCore
import LoupeRPC
import LoupeClient

/// What a session debugs: a recording, or a live program reached through ``LoupeClient``.
enum DAPTarget: Sendable {
  case trace(path: String)
  /// A program `loupe dap` launched (`program` set) or a socket it attached to.
  case live(client: LoupeClient, program: LaunchedProgram?, name: String)

  var client: LoupeClient? {
    if case .live(let client, _, _) = self { client } else { nil }
  }

  var program: LaunchedProgram? {
    if case .live(_, let program, _) = self { program } else { nil }
  }

  var isLive: Bool { client != nil }
}

/// Connecting to a live program: the handshake, bounded in time, with errors an editor can show.
enum LiveConnection {
  /// How long a launched program or a socket has to answer `initialize`.
  static let handshakeTimeout: Duration = .seconds(10)

  /// `initialize` then `loupe/subscribe` with `history: true` (nothing from the program's start
  /// is missed). Fails with a clear message when the program exits first, is not a Loupe
  /// program, or does not answer in time.
  static func handshake(_ client: LoupeClient, describing name: String) async throws(DAPError) -> InitializeResult {
    switch await client.handshake(clientName: "loupe-dap", clientVersion: LoupeCLI.version, timeout: handshakeTimeout) {
    case .success(let handshake):
      return handshake.result
    case .failure(.failed(_, .connectionClosed)):
      var message = "\(name) closed the connection before it answered Loupe's 'initialize'"
      if let program = client.program {
        let status = await program.waitForExit()
        message = "\(name) \(status) before it answered Loupe's 'initialize'"
      }
      throw DAPError(.targetFailed, message + ": is it a program that uses Loupe's store (LOUPE=stdio)?")
    case .failure(.failed(_, let error)):
      throw DAPError(.targetFailed, "\(name): \(error)")
    case .failure(.timedOut):
      // The handshake closed the connection; a launched program is ended too.
      client.program?.terminate()
      throw DAPError(
        .targetFailed,
        "\(name) did not answer Loupe's 'initialize' within \(handshakeTimeout.components.seconds) s: is it a program that uses Loupe's store?")
    }
  }
}

/// Forwards a launched program's standard error (where its `print` goes under `LOUPE=stdio`)
/// to the editor's debug console, line by line, on a thread of its own.
final class ProgramOutput: Sendable {
  let writeHandle: FileHandle
  private let readHandle: FileHandle

  init(channel: DAPChannel) throws {
    let pipe = Pipe()
    writeHandle = pipe.fileHandleForWriting
    readHandle = pipe.fileHandleForReading
    let handle = readHandle
    let thread = Thread {
      while true {
        let data = handle.availableData
        if data.isEmpty { break }
        channel.output(String(decoding: data, as: UTF8.self), category: "stderr")
      }
      try? handle.close()
    }
    thread.name = "loupe.dap.stderr"
    thread.start()
  }

  /// Closes this side's copy of the write end (the program keeps its own).
  func programStarted() { try? writeHandle.close() }
}
