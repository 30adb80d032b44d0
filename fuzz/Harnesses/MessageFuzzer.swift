import LoupeCore
import LoupeRPC

/// `messages`: arbitrary frame bodies, read as JSON-RPC 2.0 and handled by a server session.
///
/// Invariants: decoding never traps; every valid message re-encodes to a body that decodes to
/// the same message; an initialized session answers every body with well-formed responses,
/// and every request or invalid message gets exactly one answer (a batch, one array).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMessages(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let input = FuzzInput(data, size)
  let decoded = IncomingBody.decode(input.bytes)
  let items: [IncomingItem]
  switch decoded {
  case .single(let item): items = [item]
  case .batch(let batch): items = batch
  }
  for case .message(let message) in items {
    let again = IncomingBody.decode(message.body)
    guard again == .single(.message(message)) else {
      fuzzFailure("\(message) re-encoded as \(String(decoding: message.body, as: UTF8.self)) reads back as \(again)")
    }
  }

  let handler = FuzzHandler()
  let sent = SentBodies()
  let session = ServerSession(handler: handler, send: { sent.append($0) }, exit: {})
  session.receive(Array(InitializeRequest(clientInfo: .init(name: "fuzz")).message(id: "init").body))
  session.receive(input.bytes)
  handler.finish()
  sent.check()
  // Every request and every invalid element gets one answer: alone, or in the batch's one
  // array. Notifications and stray responses get none.
  var answerable = 0
  var exited = false
  for item in items {
    switch item {
    case .invalid: answerable += 1
    case .message(.request): if !exited { answerable += 1 }  // after `exit`, requests are dropped
    case .message(.notification(let method, _)): if method == ExitNotification.method { exited = true }
    case .message(.response): break
    }
  }
  let answers = sent.bodies.dropFirst()  // the first answers `initialize`
  switch decoded {
  case .single:
    guard answers.count == answerable else { fuzzFailure("\(answerable) to answer, \(answers.count) answers") }
  case .batch:
    let expected = answerable == 0 ? [] : [answerable]
    let got = answers.map { (try? JSONParser.parse($0))?.arrayValue?.count ?? -1 }
    guard got == expected else { fuzzFailure("batch: \(answerable) to answer, answers \(got)") }
  }
  return 0
}
