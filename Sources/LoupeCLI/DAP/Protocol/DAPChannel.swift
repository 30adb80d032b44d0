import LoupeCore
import LoupeRPC

/// What `loupe dap` writes: responses and events, each numbered with the adapter's own `seq`
/// (1, 2, 3, … in the order they are written), over a ``Connection``.
///
/// Numbering and queueing happen under one lock, so `seq` order is the order on the wire.
final class DAPChannel: Sendable {
  private let send: @Sendable ([UInt8]) -> Void
  private let nextSeq = Lock(1)

  /// - Parameter send: queues one frame body (``Connection/send(body:)``); never blocks.
  init(send: @escaping @Sendable ([UInt8]) -> Void) {
    self.send = send
  }

  func respond(to request: DAPRequest, body: JSON? = nil) {
    var message: JSONObject = [
      "type": "response", "request_seq": .int(request.seq), "success": true, "command": .string(request.command),
    ]
    if let body { message["body"] = body }
    write(message)
  }

  func fail(_ error: DAPError, requestSeq: Int, command: String) {
    let message: JSONObject = [
      "type": "response", "request_seq": .int(requestSeq), "success": false, "command": .string(command),
      "message": .string(error.shortMessage), "body": error.body,
    ]
    write(message)
  }

  /// An event; a body-less one gets `{}` (DAP allows either, and some clients' models need a body).
  func event(_ name: String, _ body: JSON = [:]) {
    write(["type": "event", "event": .string(name), "body": body])
  }

  /// A line in the editor's debug console (`output` event, category `console`).
  func output(_ text: String, category: String = "console") {
    event("output", ["category": .string(category), "output": .string(text)])
  }

  private func write(_ message: JSONObject) {
    nextSeq.withLock { seq in
      var numbered = JSONObject([JSONObject.Member("seq", .int(seq))])
      numbered.members.append(contentsOf: message.members)
      seq += 1
      var writer = JSONWriter()
      writer.value(.object(numbered))
      send(writer.bytes)
    }
  }
}
