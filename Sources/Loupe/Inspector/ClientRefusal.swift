import Foundation
import LoupeCore
import LoupeRPC

/// The one frame a socket client the program will not serve receives before its connection
/// is closed: a JSON-RPC error with id `null` and code `-32001` (``ResponseError/Code/serverBusy``)
/// saying why, so `loupe attach` or an editor can show it instead of a bare closed socket.
enum ClientRefusal {
  static func frame(_ message: String) -> [UInt8] {
    FrameEncoder.frame(Message.failure(id: nil, ResponseError(code: .serverBusy, message: message)).body)
  }

  /// Writes `frame` without waiting (the socket is non-blocking and the frame small) and closes.
  static func send(_ frame: [UInt8], to fd: Int32) {
    _ = frame.withUnsafeBytes { Posix.sendNow(fd, $0) }
    LibC.close(fd)
  }

  /// The process's limit on open descriptors (`ulimit -n`); `Int.max` when unlimited.
  static var descriptorLimit: Int { LibC.descriptorLimit }
}
