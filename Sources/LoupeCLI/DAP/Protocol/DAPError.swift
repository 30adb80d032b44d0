import LoupeCore

/// A failed request, answered as DAP's `ErrorResponse`: `success: false`, a short `message`,
/// and `body.error` — a `Message` whose `format` the editor shows the user.
struct DAPError: Error, Sendable, Equatable {
  /// Stable ids for `body.error.id` (DAP leaves the numbering to the adapter).
  enum Code: Int, Sendable {
    case parseError = 1
    case invalidRequest = 2
    case unknownCommand = 3
    case invalidArguments = 4
    /// The request needs a session (`launch`/`attach`) or a stop first.
    case wrongState = 5
    /// The trace, program or socket could not be opened.
    case targetFailed = 6
    /// A frame, variable, thread or target id that does not exist (any more).
    case unknownReference = 7
    /// An `evaluate` expression that is not a state path, or names nothing.
    case notAvailable = 8
    /// The program refused to be acted on (`setVariable`, `send`): control not allowed, a
    /// value its type does not decode (CONTRACT §16); or a recording, which has no program.
    case refused = 9
  }

  var code: Code
  var message: String
  /// The request's `seq`, when the error is about a message that could not be decoded as a
  /// request (then the answer still names it).
  var requestSeq: Int?
  var command: String?

  init(_ code: Code, _ message: String, requestSeq: Int? = nil, command: String? = nil) {
    self.code = code
    self.message = message
    self.requestSeq = requestSeq
    self.command = command
  }

  /// The `body` of the error response.
  var body: JSON {
    ["error": ["id": .int(code.rawValue), "format": .string(message), "showUser": .bool(true)]]
  }

  /// The short `message` of the response (DAP reserves `cancelled` and `notStopped`).
  var shortMessage: String {
    switch code {
    case .wrongState where message.hasPrefix("Not stopped"): "notStopped"
    default: message
    }
  }
}
