import LoupeCore

/// Keeps every answer a session sends within a size limit, so that a request whose answer
/// would be too large gets an error it can read instead of a closed connection.
///
/// - A single answer over the limit is replaced by a `-32603` error for its id that says how
///   large it was and what the limit is.
/// - A batch is answered in request order with as many real answers as fit; the rest get that
///   error. If even the errors do not fit, the whole batch gets one error (id `null`).
struct AnswerLimit: Sendable {
  let maxBytes: Int

  func body(for message: Message) -> [UInt8] {
    let body = message.body
    guard body.count > maxBytes, case .response(let id, _) = message else { return body }
    return Message.failure(id: id, tooLarge(body.count)).body
  }

  func batchBody(for messages: [Message]) -> [UInt8] {
    let bodies = messages.map(\.body)
    let total = bodies.reduce(2) { $0 + $1.count + 1 }
    guard total > maxBytes else { return joined(bodies) }
    // Keep answers while they, and an error for each answer after them, still fit.
    let errors = messages.map { message -> [UInt8] in
      guard case .response(let id, _) = message else { return message.body }
      return Message.failure(id: id, tooLargeInBatch).body
    }
    var errorsAfter = Array(repeating: 0, count: bodies.count + 1)
    for index in stride(from: bodies.count - 1, through: 0, by: -1) {
      errorsAfter[index] = errorsAfter[index + 1] + errors[index].count + 1
    }
    guard errorsAfter[0] + 2 <= maxBytes else {
      return Message.failure(id: nil, tooLarge(total)).body
    }
    var kept: [[UInt8]] = []
    var size = 2
    for index in bodies.indices {
      if size + bodies[index].count + 1 + errorsAfter[index + 1] <= maxBytes {
        kept.append(bodies[index])
        size += bodies[index].count + 1
      } else {
        kept.append(errors[index])
        size += errors[index].count + 1
      }
    }
    return joined(kept)
  }

  private func joined(_ bodies: [[UInt8]]) -> [UInt8] {
    var bytes: [UInt8] = [UInt8(ascii: "[")]
    bytes.reserveCapacity(bodies.reduce(2) { $0 + $1.count + 1 })
    for (index, body) in bodies.enumerated() {
      if index > 0 { bytes.append(UInt8(ascii: ",")) }
      bytes += body
    }
    bytes.append(UInt8(ascii: "]"))
    return bytes
  }

  private func tooLarge(_ size: Int) -> ResponseError {
    .internalError("The answer is \(size) bytes, over the limit of \(maxBytes) bytes for one answer: ask for less at a time")
  }

  private var tooLargeInBatch: ResponseError {
    .internalError("The batch's answers are over the limit of \(maxBytes) bytes for one answer: this one did not fit")
  }
}
