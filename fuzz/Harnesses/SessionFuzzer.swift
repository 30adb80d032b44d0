import LoupeCore
import LoupeRPC

/// `session`: an arbitrary byte stream, as a client would write it, through the frame decoder
/// into a fresh server session (lifecycle, batches, cancellation, every method's params).
///
/// Invariants: never traps; every answer is a well-formed response; nothing is answered after
/// `exit`; a framing error ends the stream as it would end the connection.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSession(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let input = FuzzInput(data, size)
  let handler = FuzzHandler()
  let sent = SentBodies()
  let exited = ExitFlag()
  let session = ServerSession(
    handler: handler,
    send: { body in
      if exited.isSet, !exited.draining { fuzzFailure("an answer after exit") }
      sent.append(body)
    },
    exit: { exited.set() })
  var decoder = FrameDecoder(limits: .init(maxBodySize: 1 << 16, maxHeaderSize: 1024))
  stream: for chunk in input.chunks(maxChunk: 64) {
    decoder.append(chunk)
    while true {
      switch decoder.next() {
      case .frame(let body):
        session.receive(body)
        if exited.isSet { break stream }  // the connection stops reading after `exit`
      case .needMoreData: continue stream
      case .failed: break stream
      }
    }
  }
  exited.draining = true  // late answers after `exit` are the connection's to drop
  handler.finish()
  sent.check()
  return 0
}

final class ExitFlag: @unchecked Sendable {
  // Unchecked: the harness is single-threaded.
  private(set) var isSet = false
  var draining = false
  func set() { isSet = true }
}
