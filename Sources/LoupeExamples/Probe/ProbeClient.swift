import Foundation
import LoupeCore
import LoupeRPC

/// `loupe-examples probe --client SOCKET`: a client process for the "killed mid-stream" test.
///
/// It connects to a program's socket, initializes and subscribes to everything, writes
/// `probe: subscribed` once both answers arrived and `probe: streaming` once 64 KB of events
/// did, then stops reading and waits to be killed.
enum ProbeClient {
  static func run(socketPath: String) -> Never {
    guard let fd = try? UnixSocket.connect(to: socketPath) else {
      FileHandle.standardError.write(Data("probe: cannot connect to \(socketPath)\n".utf8))
      LibC.exitProcess(1)
    }
    var frames: [UInt8] = []
    for message in [
      InitializeRequest(clientInfo: .init(name: "probe-client")).message(id: 1), SubscribeRequest().message(id: 2),
    ] {
      frames += FrameEncoder.frame(message.body)
    }
    _ = frames.withUnsafeBytes { LibC.write(fd, $0.baseAddress, $0.count) }
    var decoder = FrameDecoder()
    var frameCount = 0
    var eventBytes = 0
    var buffer = [UInt8](repeating: 0, count: 16 << 10)
    while eventBytes < 64 << 10 {
      LibC.waitUntilReadable(fd)
      let count = buffer.withUnsafeMutableBytes { LibC.read(fd, $0.baseAddress, $0.count) }
      if count == 0 { LibC.exitProcess(1) }
      if count < 0 { continue }
      decoder.append(buffer[0..<count])
      while case .frame(let body) = decoder.next() {
        frameCount += 1
        if frameCount == 2 { FileHandle.standardOutput.write(Data("probe: subscribed\n".utf8)) }
        if frameCount > 2 { eventBytes += body.count }
      }
    }
    FileHandle.standardOutput.write(Data("probe: streaming\n".utf8))
    LibC.sleepForever()
  }
}
