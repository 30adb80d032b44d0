import Foundation
import LoupeCore
import LoupeRPC
import Synchronization

@testable import LoupeCLI

/// An in-process client of ``MCPServer``: sends lines, awaits answers by id (no sleeping).
final class MCPTestClient: Sendable {
  private struct State {
    var answers: [RequestID?: JSON] = [:]
    var waiters: [RequestID?: CheckedContinuation<JSON, Never>] = [:]
    var nextID = 100
  }
  private let state = Lock(State())
  let server: MCPServer
  /// What the server logged (its standard error).
  let log = LogLines()

  final class LogLines: Sendable {
    let lines = Lock<[String]>([])
    func append(_ line: String) { lines.withLock { $0.append(line) } }
  }

  final class Forward: Sendable {
    let target = Lock<(@Sendable ([UInt8]) -> Void)?>(nil)
  }

  init() {
    let forward = Forward()
    let log = self.log
    server = MCPServer(
      tools: ToolBox(sessions: SessionRegistry(), log: { log.append($0) }),
      send: { bytes in forward.target.withLock { $0 }?(bytes) },
      log: { log.append($0) })
    forward.target.withLock { $0 = { [weak self] bytes in self?.received(bytes) } }
  }

  private func received(_ bytes: [UInt8]) {
    guard let json = try? JSONParser.parse(bytes) else { return }
    let id = json["id"].flatMap(RequestID.init(json:))
    let waiter = state.withLock { state in
      if let waiter = state.waiters.removeValue(forKey: id) { return Optional(waiter) }
      state.answers[id] = json
      return nil
    }
    waiter?.resume(returning: json)
  }

  /// The answer to the message with `id` (`nil`: an error about an unreadable message).
  func answer(_ id: RequestID?) async -> JSON {
    await withCheckedContinuation { continuation in
      let ready = state.withLock { state in
        if let answer = state.answers.removeValue(forKey: id) { return Optional(answer) }
        state.waiters[id] = continuation
        return nil
      }
      if let ready { continuation.resume(returning: ready) }
    }
  }

  func sendLine(_ text: String) {
    server.receive(Array(text.utf8))
  }

  func request(_ method: String, _ params: JSON? = nil) async -> JSON {
    let id = state.withLock { state in
      state.nextID += 1
      return state.nextID
    }
    sendLine(Message.request(id: .int(id), method: method, params: params).jsonText)
    return await answer(.int(id))
  }

  func initialize(_ version: String = "2025-11-25") async -> JSON {
    let answer = await request("initialize", ["protocolVersion": .string(version), "capabilities": [:], "clientInfo": ["name": "tests"]])
    sendLine(#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#)
    return answer
  }

  /// `tools/call`; returns the result object.
  func call(_ tool: String, _ arguments: JSON) async -> JSON {
    await request("tools/call", ["name": .string(tool), "arguments": arguments])["result"] ?? .null
  }

  /// The text of a `tools/call` result.
  func text(_ tool: String, _ arguments: JSON) async -> String {
    await call(tool, arguments)["content"]?.arrayValue?.first?["text"]?.stringValue ?? "(no text)"
  }
}
