import Foundation
import LoupeCore
import LoupeRPC

/// A client socket driven byte by byte: it writes whatever a test gives it (garbage included)
/// and reads answers frame by frame, each read bounded by a deadline.
final class RawConnection {
  let fd: Int32
  private var decoder = FrameDecoder()
  private var closed = false
  /// Every byte the server sent on this connection.
  private(set) var received: [UInt8] = []

  init(socketPath: String) throws {
    fd = try UnixSocket.connect(to: socketPath)
  }

  deinit { close() }

  func close() {
    guard !closed else { return }
    closed = true
    LibC.close(fd)
  }

  /// Writes all of `bytes`; `false` when the peer is gone (the server may close first).
  @discardableResult
  func write(_ bytes: [UInt8]) -> Bool {
    var offset = 0
    while offset < bytes.count {
      var poller = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
      guard poll(&poller, 1, 10_000) > 0 else { return false }
      let n = bytes[offset...].withUnsafeBytes { LibC.write(fd, $0.baseAddress, $0.count) }
      if n < 0 {
        if errno == EAGAIN || errno == EINTR { continue }
        return false
      }
      offset += n
    }
    return true
  }

  func send(_ message: Message) { write(FrameEncoder.frame(message.body)) }

  func send(json text: String) { write(FrameEncoder.frame(Array(text.utf8))) }

  /// What the server did next.
  enum Reply: Equatable {
    case message(JSON)
    /// The server closed the connection (EOF or reset).
    case closed
    case timedOut
  }

  /// The next message from the server.
  func read(timeout: Duration = .seconds(20)) -> Reply {
    let deadline = ContinuousClock.now + timeout
    var buffer = [UInt8](repeating: 0, count: 64 << 10)
    while true {
      if case .frame(let body) = decoder.next() {
        return .message((try? JSONParser.parse(body)) ?? .string("unparseable: \(String(decoding: body, as: UTF8.self))"))
      }
      let remaining = deadline - .now
      guard remaining > .zero else { return .timedOut }
      var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
      let ready = poll(&poller, 1, Int32(max(1, remaining.seconds * 1000)))
      if ready == 0 { return .timedOut }
      if ready < 0 { continue }
      let n = buffer.withUnsafeMutableBytes { LibC.read(fd, $0.baseAddress, $0.count) }
      if n == 0 { return .closed }
      if n < 0 {
        if errno == EAGAIN || errno == EINTR { continue }
        return .closed  // ECONNRESET: the server closed with our bytes unread
      }
      decoder.append(buffer[0..<n])
      received += buffer[0..<n]
    }
  }

  /// The next message that is not a `loupe/events` notification.
  func readAnswer(timeout: Duration = .seconds(20)) -> Reply {
    while true {
      let reply = read(timeout: timeout)
      if case .message(let json) = reply, json["method"] == .string(EventsNotification.method) { continue }
      return reply
    }
  }

  /// Reads until the server closes; `false` if it does not within `timeout`.
  func waitUntilClosedByServer(timeout: Duration = .seconds(20)) -> Bool {
    while true {
      switch read(timeout: timeout) {
      case .closed: return true
      case .timedOut: return false
      case .message: continue
      }
    }
  }

  /// The events of `loupe/events` notifications up to the first mark whose label starts with
  /// `prefix` (answers in between are skipped).
  func readEvents(untilMark prefix: String, timeout: Duration = .seconds(60)) throws -> [Event] {
    var events: [Event] = []
    while true {
      switch read(timeout: timeout) {
      case .message(let json):
        guard json["method"] == .string(EventsNotification.method) else { continue }
        for item in json["params"]?["events"]?.arrayValue ?? [] {
          let event = try Event(json: item)
          events.append(event)
          if case .mark(let mark) = event.payload, mark.label.hasPrefix(prefix) { return events }
        }
      case .closed: throw TestFailure("the connection closed before mark '\(prefix)'")
      case .timedOut: throw TestFailure("no mark '\(prefix)'")
      }
    }
  }

  /// Sends a request and returns its answer's `result` (events and answers to earlier
  /// requests arriving meanwhile are skipped).
  func call(_ message: Message) throws -> JSON {
    guard case .request(let id, _, _) = message else { throw TestFailure("not a request: \(message)") }
    send(message)
    while true {
      guard case .message(let answer) = readAnswer() else { throw TestFailure("no answer to \(message)") }
      guard answer["id"] == id.json else { continue }
      guard let result = answer["result"] else { throw TestFailure("error answer: \(answer.jsonText)") }
      return result
    }
  }

  /// `initialize` and its answer.
  func initialize() throws {
    send(InitializeRequest(clientInfo: .init(name: "reliability-tests")).message(id: "init"))
    guard case .message(let answer) = readAnswer(), answer["result"]?["protocolVersion"] == "1" else {
      throw TestFailure("initialize was not answered")
    }
  }
}
