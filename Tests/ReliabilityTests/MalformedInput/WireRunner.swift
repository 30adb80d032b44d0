import Foundation
import LoupeCore
import LoupeRPC
import Testing

/// Sends each case to a live program and checks its outcome, then that the program is
/// unaffected.
enum WireRunner {
  /// Runs `cases` against one probe, in order; returns how many were checked.
  static func run(_ cases: [WireCase], sourceLocation: SourceLocation = #_sourceLocation) throws {
    let probe = try ListeningProbe()
    for item in cases {
      do {
        try check(item, on: probe)
      } catch {
        Issue.record("\(item.id): \(error)", sourceLocation: sourceLocation)
      }
    }
    try probe.expectServing()
    let end = try probe.exit()
    #expect(end.termination == .exited(0), "the program \(end.termination)", sourceLocation: sourceLocation)
    #expect(!end.stderr.contains("Sanitizer") && !end.stderr.contains("Fatal error"), "\(end.stderr)", sourceLocation: sourceLocation)
  }

  static func check(_ item: WireCase, on probe: ListeningProbe) throws {
    let connection = try RawConnection(socketPath: probe.socketPath)
    if item.initialized { try connection.initialize() }
    connection.write(item.bytes)
    if item.halfClose { shutdown(connection.fd, Int32(SHUT_WR)) }

    switch item.outcome {
    case .closes(let expected):
      let decoded = decoderVerdict(item.bytes, endOfInput: item.halfClose)
      guard decoded == expected else { throw TestFailure("the frame decoder reports \(decoded.map(String.init(describing:)) ?? "nothing"), not \(expected)") }
      guard connection.waitUntilClosedByServer() else { throw TestFailure("the connection stayed open") }
      try probe.expectServing()
    case .answers(let expected):
      try expectAnswer(expected, from: connection)
      try expectGoodAnswer(on: connection, initialize: !item.initialized)
    case .answersThenRefuses(let expected):
      guard case .message(let first) = connection.readAnswer(), first["result"] == .null else {
        throw TestFailure("no answer to shutdown")
      }
      try expectAnswer(expected, from: connection)
      try probe.expectServing()
    case .noAnswer:
      try expectGoodAnswer(on: connection, initialize: !item.initialized)
    }
  }

  private static func expectAnswer(_ expected: String, from connection: RawConnection) throws {
    switch connection.readAnswer() {
    case .message(let answer):
      guard answer.jsonText == expected else { throw TestFailure("answered\n  \(answer.jsonText)\nnot\n  \(expected)") }
    case .closed: throw TestFailure("the connection closed instead of answering")
    case .timedOut: throw TestFailure("no answer")
    }
  }

  /// The next answer on the connection is the answer to a good request sent now.
  private static func expectGoodAnswer(on connection: RawConnection, initialize: Bool) throws {
    if initialize { try connection.initialize() }
    connection.send(StoresRequest().message(id: "after"))
    guard case .message(let answer) = connection.readAnswer(), answer["id"] == "after",
      answer["result"]?["stores"]?.arrayValue?.count == 1
    else { throw TestFailure("a good request after the bad input was not answered") }
  }

  /// What a fresh frame decoder with the inspector's limits makes of `bytes`.
  static func decoderVerdict(_ bytes: [UInt8], endOfInput: Bool) -> FrameError? {
    var decoder = FrameDecoder(limits: .init(maxBodySize: 16 << 20))
    decoder.append(bytes)
    while true {
      switch decoder.next() {
      case .frame: continue
      case .failed(let error): return error
      case .needMoreData: return endOfInput && !decoder.isAtFrameBoundary ? .truncatedFrame : nil
      }
    }
  }
}
