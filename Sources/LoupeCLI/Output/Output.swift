import LoupeCore

/// A buffered text stream: standard output or error, or memory in tests.
///
/// Writes are collected and handed to `write(2)` in large pieces. When the reader goes away
/// (`loupe show big.loupe | head`), the stream notes it in ``isClosed`` and drops further
/// output; commands check it to stop early. Safe to use from several threads.
final class Output: Sendable {
  private struct State {
    var buffer: [UInt8] = []
    var closed = false
    var errorCode: Int32?
    var captured: [UInt8] = []
  }

  /// The file descriptor written to, or `nil` when output is kept in memory.
  let fd: Int32?
  /// Whether the stream is a terminal (colours, progress).
  let isTerminal: Bool
  /// Whether to colour text: a terminal, and `NO_COLOR` not set.
  let usesColor: Bool
  /// Flush whenever this much is pending (standard error flushes on every line).
  private let flushThreshold: Int
  private let state = Lock(State())

  init(fd: Int32, environment: [String: String]) {
    self.fd = fd
    isTerminal = LibC.isTerminal(fd)
    usesColor = isTerminal && Output.colorAllowed(environment)
    flushThreshold = fd == LibC.standardError ? 0 : 1 << 16
  }

  /// A stream to an opened file (no colour, not a terminal).
  init(file fd: Int32) {
    self.fd = fd
    isTerminal = false
    usesColor = false
    flushThreshold = 1 << 16
  }

  /// An in-memory stream for tests.
  init(capturingWithColor color: Bool = false, isTerminal: Bool = false) {
    fd = nil
    self.isTerminal = isTerminal
    usesColor = color
    flushThreshold = 1 << 16
  }

  /// `NO_COLOR` (https://no-color.org) set to anything non-empty turns colour off; so does
  /// `TERM=dumb`.
  static func colorAllowed(_ environment: [String: String]) -> Bool {
    if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return false }
    return environment["TERM"] != "dumb"
  }

  var isClosed: Bool { state.withLock { $0.closed } }

  /// The `errno` of the write that failed, if one did.
  var errorCode: Int32? { state.withLock { $0.errorCode } }

  /// Everything written so far (in-memory streams only).
  var text: String {
    flush()
    return state.withLock { String(decoding: $0.captured, as: UTF8.self) }
  }

  func write(_ text: String) {
    var text = text
    text.withUTF8 { write(bytes: UnsafeRawBufferPointer($0)) }
  }

  /// Writes `text` and a line break.
  func line(_ text: String = "") {
    write(text + "\n")
  }

  func write(bytes: UnsafeRawBufferPointer) {
    state.withLock { state in
      guard !state.closed else { return }
      state.buffer.append(contentsOf: bytes)
      if state.buffer.count > flushThreshold { drain(&state) }
    }
  }

  func write(bytes: some Collection<UInt8>) {
    state.withLock { state in
      guard !state.closed else { return }
      state.buffer.append(contentsOf: bytes)
      if state.buffer.count > flushThreshold { drain(&state) }
    }
  }

  /// Writes `bytes` and a line break, and says whether the stream is still open (``isClosed``),
  /// all under one lock: `show --format json` writes a line per event.
  @discardableResult
  func write(line bytes: UnsafeRawBufferPointer) -> Bool {
    state.withLock { state in
      guard !state.closed else { return false }
      state.buffer.append(contentsOf: bytes)
      state.buffer.append(0x0A)
      if state.buffer.count > flushThreshold { drain(&state) }
      return !state.closed
    }
  }

  func flush() {
    state.withLock { drain(&$0) }
  }

  private func drain(_ state: inout State) {
    guard !state.buffer.isEmpty else { return }
    guard let fd else {
      state.captured += state.buffer
      state.buffer.removeAll(keepingCapacity: true)
      return
    }
    let failure = state.buffer.withUnsafeBytes { Self.writeAll(fd, $0) }
    state.buffer.removeAll(keepingCapacity: true)
    if let failure {
      state.closed = true
      state.errorCode = failure
    }
  }

  /// Writes `bytes` straight to the descriptor after what is pending, without copying them
  /// into the buffer first: for callers that collect large pieces themselves (`show`'s
  /// timeline, 64 KiB at a time).
  func write(collected bytes: UnsafeRawBufferPointer) {
    state.withLock { state in
      guard !state.closed else { return }
      guard let fd else {
        state.buffer.append(contentsOf: bytes)
        return
      }
      drain(&state)
      guard !state.closed, let failure = Self.writeAll(fd, bytes) else { return }
      state.closed = true
      state.errorCode = failure
    }
  }

  /// `write(2)` until all of `bytes` is written; the `errno` of a write that failed, if one did.
  private static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32? {
    var offset = 0
    let count = bytes.count
    while offset < count {
      let n = LibC.write(fd, bytes.baseAddress! + offset, count - offset)
      if n > 0 {
        offset += n
      } else if n < 0, LibC.errno == LibC.interrupted {
        continue
      } else {
        return n == 0 ? LibC.ioError : LibC.errno
      }
    }
    return nil
  }
}
